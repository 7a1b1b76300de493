// pebble rejecting a share of good nonces (PEBBLE_WFE_NONCEREJECT): orders still issue because
// the client retries each badNonce with the fresh nonce of the error answer. 15 % rather than
// a higher rate: a request fails for good only after six rejections in a row (0.15^6 ≈ 1e-5
// per request), so the test does not flake; issuances repeat (at most 8) until retries were seen.
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPem } from '../src/modules/acme/client/keys.js';
import { http01Responder, issue, newClient, opensslVerify, type Responder } from './acme.client-helpers.js';
import { type PebblePeer, startPebble } from './pebble.js';

let peer: PebblePeer;
let responder: Responder;

beforeAll(async () => {
  peer = await startPebble({ nonceReject: 15 });
  responder = await http01Responder(peer.httpPort);
});

afterAll(async () => {
  await responder?.close();
  await peer?.stop();
});

describe('ACME client: badNonce from pebble', () => {
  it('issues while pebble rejects nonces, retrying them', async () => {
    const c = newClient(peer, await generateKeyPem('ec256'));
    await c.register({});
    const root = await peer.roots();
    let issued = 0;
    while (c.stats.badNonceRetries === 0 && issued < 8) {
      const name = `n${issued}.example.com`;
      const { pem } = await issue(
        c,
        peer,
        [
          { type: 'dns', value: name },
          { type: 'dns', value: `www.${name}` },
        ],
        { type: 'http-01', responder },
      );
      expect(new X509Certificate(pem).subjectAltName).toBe(`DNS:${name}, DNS:www.${name}`);
      expect(opensslVerify(pem, root)).toContain('chain.pem: OK');
      issued++;
    }
    expect(c.stats.badNonceRetries).toBeGreaterThan(0);
    await c.close();
  });
});
