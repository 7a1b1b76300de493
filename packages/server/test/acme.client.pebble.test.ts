// The ACME client against a real CA: pebble 2.4.0 (Debian) with challtestsrv as its DNS, one
// alternate root. One pebble for the file; nonce rejection off here (acme.client.nonce.test.ts
// turns it on, acme.client.eab.test.ts requires External Account Binding).
import { execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certIdOf } from '../src/modules/acme/client/ari.js';
import { generateKeyPem } from '../src/modules/acme/client/keys.js';
import { http01Responder, issue, newClient, opensslVerify, type Responder } from './acme.client-helpers.js';
import { type PebblePeer, startPebble } from './pebble.js';

let peer: PebblePeer;
let responder: Responder;
let accountKeyPem: string;

beforeAll(async () => {
  peer = await startPebble({ alternateRoots: 1 });
  responder = await http01Responder(peer.httpPort);
  accountKeyPem = await generateKeyPem('ec256');
});

afterAll(async () => {
  await responder?.close();
  await peer?.stop();
});

/** A client of the file's account, registered. */
async function client() {
  const c = newClient(peer, accountKeyPem);
  await c.register({});
  return c;
}

describe('ACME client against pebble', () => {
  it('registers an account, finds it again by key, and a new key has none', async () => {
    const c = newClient(peer, accountKeyPem);
    const created = await c.register({ email: 'owner@example.com' });
    expect(created.created).toBe(true);
    expect(created.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//);
    expect(created.status).toBe('valid');
    await c.close();

    const again = newClient(peer, accountKeyPem);
    const found = await again.lookup();
    expect(found?.url).toBe(created.url);
    // Registering the same key again answers 200 with the same account.
    const twice = await again.register({ email: 'owner@example.com' });
    expect(twice).toMatchObject({ url: created.url, created: false });
    await again.close();

    const stranger = newClient(peer, await generateKeyPem('ec256'));
    expect(await stranger.lookup()).toBeUndefined();
    await stranger.close();
  });

  it.each(['ec384', 'rsa2048'] as const)('registers with an %s account key (ES384 / RS256 JWS)', async (type) => {
    const c = newClient(peer, await generateKeyPem(type));
    expect((await c.register({})).created).toBe(true);
    // A signed call with the kid after registration.
    const order = await c.newOrder([{ type: 'dns', value: `${type}.example.com` }]);
    expect(order.status).toBe('pending');
    await c.close();
  });

  it('issues by HTTP-01 a chain that openssl verifies against pebble’s root, and its alternate', async () => {
    const c = await client();
    const before = responder.hits();
    const { pem, order } = await issue(
      c,
      peer,
      [
        { type: 'dns', value: 'home.example.com' },
        { type: 'dns', value: 'www.home.example.com' },
      ],
      { type: 'http-01', responder },
    );
    expect(responder.hits()).toBeGreaterThanOrEqual(before + 2);
    const leaf = new X509Certificate(pem);
    expect(leaf.subjectAltName).toBe('DNS:home.example.com, DNS:www.home.example.com');
    expect(opensslVerify(pem, await peer.roots())).toContain('chain.pem: OK');
    // pebble offers the same leaf under one alternate root.
    const chain = await c.downloadCertificate(order.certificate ?? '');
    expect(chain.alternates).toHaveLength(1);
    const alternate = await c.downloadCertificate(chain.alternates[0]);
    expect(new X509Certificate(alternate.pem).serialNumber).toBe(leaf.serialNumber);
    await c.close();
  });

  it('issues a wildcard and its apex by DNS-01 through challtestsrv, with an RSA certificate key', async () => {
    const c = await client();
    const { pem, keyPem } = await issue(
      c,
      peer,
      [
        { type: 'dns', value: 'lab.example.com' },
        { type: 'dns', value: '*.lab.example.com' },
      ],
      { type: 'dns-01' },
      { keyType: 'rsa2048' },
    );
    await peer.challtestsrv?.clearTxt('_acme-challenge.lab.example.com.');
    const leaf = new X509Certificate(pem);
    expect(leaf.subjectAltName?.split(', ').sort()).toEqual(['DNS:*.lab.example.com', 'DNS:lab.example.com']);
    expect(leaf.checkPrivateKey(createPrivateKey(keyPem))).toBe(true);
    expect(leaf.publicKey.asymmetricKeyType).toBe('rsa');
    expect(opensslVerify(pem, await peer.roots())).toContain('chain.pem: OK');
    await c.close();
  });

  it('issues for an IP address by HTTP-01 (the CA connects to the address itself)', async () => {
    const c = await client();
    const { pem } = await issue(c, peer, [{ type: 'ip', value: '127.0.0.1' }], { type: 'http-01', responder });
    const leaf = new X509Certificate(pem);
    expect(leaf.subjectAltName).toBe('IP Address:127.0.0.1');
    expect(opensslVerify(pem, await peer.roots())).toContain('chain.pem: OK');
    await c.close();
  });

  it('revokes a certificate with the account key, and pebble records it revoked with the reason', async () => {
    const c = await client();
    const { pem } = await issue(c, peer, [{ type: 'dns', value: 'gone.example.com' }], { type: 'http-01', responder });
    const serial = new X509Certificate(pem).serialNumber;
    expect((await peer.certStatus(serial)).status).toBe('Valid');
    await c.revoke(pem, 4); // superseded
    expect(await peer.certStatus(serial)).toMatchObject({ status: 'Revoked', reason: 4 });
    // Revoking twice: the CA says so (alreadyRevoked), as a problem the runner can show.
    await expect(c.revoke(pem, 4)).rejects.toMatchObject({ type: 'alreadyRevoked' });
    await c.close();
  });

  it('computes an ARI certID from a pebble leaf (pebble 2.4.0 offers no renewalInfo to ask)', async () => {
    const c = await client();
    const { pem } = await issue(c, peer, [{ type: 'dns', value: 'ari.example.com' }], { type: 'http-01', responder });
    const leaf = new X509Certificate(pem);
    const intermediatePem = pem.slice(pem.indexOf('-----END CERTIFICATE-----') + 26);
    // The AKI half is the intermediate's subject key identifier (as openssl prints it); the serial half the leaf's serial.
    const ski = execFileSync('openssl', ['x509', '-noout', '-ext', 'subjectKeyIdentifier'], {
      input: intermediatePem,
      encoding: 'utf8',
    });
    const [aki, serial] = certIdOf(pem).split('.');
    expect(ski.replace(/^.*\n/, '').trim().replaceAll(':', '').toLowerCase()).toBe(
      Buffer.from(aki, 'base64url').toString('hex'),
    );
    expect(BigInt(`0x${Buffer.from(serial, 'base64url').toString('hex')}`)).toBe(BigInt(`0x${leaf.serialNumber}`));
    expect(await c.renewalInfo(pem)).toBeUndefined();
    await c.close();
  });
});
