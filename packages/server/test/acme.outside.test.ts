// The admin console answers an HTTP-01 fetch from outside the LAN (where CAs are) while an order
// waits for one, and nothing else: a peer outside the LAN is reset at accept when the board is
// empty, gets the token's key authorization while it is on the board, and the LAN gate's 403 for
// any other path. The client lives in a network namespace of its own (198.18.17.2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { type OutsideNamespace, outsideNamespace } from './outsideNamespace.js';

let s: TestServer;
let ns: OutsideNamespace;

beforeAll(async () => {
  s = await startTestServer({ host: '0.0.0.0' });
  ns = outsideNamespace('lkacme', '198.18.17');
});

afterAll(async () => {
  ns?.remove();
  await s?.close();
});

const outside = (p: string) => ns.curl(`http://${ns.gateway}:${s.server.port}${p}`);

describe('HTTP-01 at the admin console from outside the LAN', () => {
  it('is reachable only while a token waits, and answers only the token', async () => {
    expect((await outside('/.well-known/acme-challenge/tok_out')).status).toBe(0);
    const board = s.server.core.challenges;
    board.set('tok_out', 'tok_out.thumb');
    try {
      expect(await outside('/.well-known/acme-challenge/tok_out')).toEqual({ status: 200, body: 'tok_out.thumb' });
      expect((await outside('/.well-known/acme-challenge/other')).status).toBe(403);
      expect((await outside('/api/status')).status).toBe(403);
    } finally {
      board.delete('tok_out');
    }
    expect((await outside('/.well-known/acme-challenge/tok_out')).status).toBe(0);
  });
});
