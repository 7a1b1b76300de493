// The ACME client against a real CA: pebble 2.4.0 (Debian) with challtestsrv as its DNS. One
// pebble for the file; nonce rejection off here (acme.client.nonce.test.ts turns it on).
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPem } from '../src/modules/acme/client/keys.js';
import { http01Responder, issue, newClient, opensslVerify, type Responder } from './acme.client-helpers.js';
import { type PebblePeer, startPebble } from './pebble.js';

let peer: PebblePeer;
let responder: Responder;
let accountKeyPem: string;

beforeAll(async () => {
  peer = await startPebble();
  responder = await http01Responder(peer.httpPort);
  accountKeyPem = await generateKeyPem('ec256');
});

afterAll(async () => {
  await responder?.close();
  await peer?.stop();
});

describe('ACME client against pebble', () => {
  it('registers an account, finds it again by key, and a new key has none', async () => {
    const client = newClient(peer, accountKeyPem);
    const created = await client.register({ email: 'owner@example.com' });
    expect(created.created).toBe(true);
    expect(created.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//);
    expect(created.status).toBe('valid');
    await client.close();

    const again = newClient(peer, accountKeyPem);
    const found = await again.lookup();
    expect(found?.url).toBe(created.url);
    // Registering the same key again answers 200 with the same account.
    const twice = await again.register({ email: 'owner@example.com' });
    expect(twice).toMatchObject({ url: created.url, created: false });
    await again.close();

    const stranger = newClient(peer, await generateKeyPem('ec384'));
    expect(await stranger.lookup()).toBeUndefined();
    await stranger.close();
  });

  it('issues by HTTP-01 a chain that openssl verifies against pebble’s root', async () => {
    const client = newClient(peer, accountKeyPem);
    await client.register({});
    const before = responder.hits();
    const { pem } = await issue(
      client,
      peer,
      [
        { type: 'dns', value: 'home.example.com' },
        { type: 'dns', value: 'www.home.example.com' },
      ],
      { type: 'http-01', responder },
    );
    await client.close();
    expect(responder.hits()).toBeGreaterThanOrEqual(before + 2);
    const leaf = new X509Certificate(pem);
    expect(leaf.subjectAltName).toBe('DNS:home.example.com, DNS:www.home.example.com');
    expect(opensslVerify(pem, await peer.roots())).toContain('chain.pem: OK');
  });
});
