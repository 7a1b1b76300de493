// External Account Binding (RFC 8555 §7.3.4) against pebble requiring it: refused without a
// binding, with a wrong HMAC key and with an unknown key id; accepted with the CA's own.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPem } from '../src/modules/acme/client/keys.js';
import { AcmeProblem, reasonOf } from '../src/modules/acme/client/problem.js';
import { newClient } from './acme.client-helpers.js';
import { type PebblePeer, startPebble } from './pebble.js';

const hmacKey = randomBytes(32).toString('base64url');
let peer: PebblePeer;

beforeAll(async () => {
  peer = await startPebble({ eab: { 'kid-1': hmacKey } });
});

afterAll(async () => {
  await peer?.stop();
});

describe('ACME client: External Account Binding (pebble)', () => {
  it('says the directory requires it', async () => {
    const c = newClient(peer, await generateKeyPem('ec256'));
    expect((await c.directory()).meta?.externalAccountRequired).toBe(true);
    await c.close();
  });

  it.each([
    ['without a binding', undefined],
    ['with a wrong HMAC key', { kid: 'kid-1', hmacKey: randomBytes(32).toString('base64url') }],
    ['with an unknown key id', { kid: 'kid-9', hmacKey }],
  ])('refuses an account %s (eabRefused)', async (_what, eab) => {
    const c = newClient(peer, await generateKeyPem('ec256'));
    const err = await c.register({ email: 'owner@example.com', eab }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AcmeProblem);
    const reason = reasonOf(err);
    expect(reason.code).toBe('eabRefused');
    expect(String(reason.params.detail)).not.toBe('');
    expect(c.accountUrl).toBeUndefined();
    await c.close();
  });

  it('registers with the CA’s key id and HMAC key, with RSA and EC account keys', async () => {
    for (const type of ['ec256', 'rsa2048'] as const) {
      const c = newClient(peer, await generateKeyPem(type));
      const account = await c.register({ email: 'owner@example.com', eab: { kid: 'kid-1', hmacKey } });
      expect(account).toMatchObject({ created: true, status: 'valid' });
      expect(c.accountUrl).toBe(account.url);
      await c.close();
    }
  });
});
