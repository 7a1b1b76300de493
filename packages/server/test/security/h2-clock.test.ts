// The HTTP/2 engine's time-outs read a coarse clock that a shared sweeper advances once a second,
// and the sweeper stops while no connection is open. A connection that arrives after such a
// pause must start from the time it arrived, not from when the clock last moved: otherwise it
// looks idle for the whole pause and gets GOAWAY at the first sweep (seen under the bench, where
// h2load connections came after tens of seconds without HTTP/2 and lost their streams). Its own
// file: no other session may keep the sweeper running.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { H2Session } from '../../src/core/serve/h2/session.js';
import { getBlock, H2Client, headersFrame } from '../h2-wire.js';
import { pause } from '../wait.js';

const timeouts = { prefaceMs: 10_000, headerMs: 10_000, idleMs: 2_500, sendMs: 10_000, requestMs: 10_000 };
let server: net.Server;
let port: number;

beforeAll(async () => {
  server = net.createServer((socket) => new H2Session(socket, (_req, res) => res.end('ok'), timeouts));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('HTTP/2 engine clock after a pause without connections', () => {
  it('gives a connection that comes after a pause its whole idle time', async () => {
    // Both waits are the behaviour under test (real time: the engine's sweeper runs on its own timer).
    // No session has existed in this process for longer than the idle time-out.
    await pause(timeouts.idleMs + 1_500);
    const c = await H2Client.open(port);
    // Past the first sweep (1 s), well within the idle time-out of 2.5 s.
    await pause(1_500);
    c.send(headersFrame(1, getBlock('a.test')));
    const answer = await c.answer(1);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('ok');
    c.destroy();
  }, 15_000);
});
