// The ACME client's parts without a CA: thumbprints (RFC 7638's example), JWS signatures,
// the CSR as openssl reads it, ARI's certID (RFC 9773's example) and renewal information, and
// the transport's failures (badNonce bound, rate limit, timeout, unreachable, stop, Retry-After)
// against a scripted stub (acme.client-stub.ts), since pebble shows none of them on demand.
import { execFileSync, spawnSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync, verify, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ariCertId, certIdOf } from '../src/modules/acme/client/ari.js';
import { AcmeClient, identifiersOf, links } from '../src/modules/acme/client/client.js';
import { createCsr, ipBytes } from '../src/modules/acme/client/csr.js';
import { eabJws, signJws } from '../src/modules/acme/client/jws.js';
import { generateKeyPem, jwkThumbprint, loadKey } from '../src/modules/acme/client/keys.js';
import { AcmeNetworkError, AcmeProblem, reasonOf } from '../src/modules/acme/client/problem.js';
import { acmeStub, problem, type StubRoute } from './acme.client-stub.js';
import { waitFor } from './wait.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'lucky-acme-unit-'));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('keys and JWS', () => {
  it('computes RFC 7638’s example thumbprint', () => {
    const n =
      '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw';
    expect(jwkThumbprint({ kty: 'RSA', e: 'AQAB', n })).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
  });

  it.each([
    ['ec256', 'ES256', 64],
    ['ec384', 'ES384', 96],
    ['rsa2048', 'RS256', 256],
    ['rsa4096', 'RS256', 512],
  ] as const)('signs %s keys as %s with a signature the public JWK verifies', async (type, alg, sigBytes) => {
    const pem = await generateKeyPem(type);
    expect(pem).toContain('-----BEGIN PRIVATE KEY-----'); // PKCS#8
    const key = loadKey(pem);
    const jws = signJws(
      key,
      { hello: 'acme' },
      { url: 'https://ca.test/new-order', nonce: 'n1', kid: 'https://ca.test/acct/1' },
    );
    const header = JSON.parse(Buffer.from(jws.protected, 'base64url').toString());
    expect(header).toEqual({ alg, url: 'https://ca.test/new-order', nonce: 'n1', kid: 'https://ca.test/acct/1' });
    const signature = Buffer.from(jws.signature, 'base64url');
    expect(signature.length).toBe(sigBytes); // ECDSA as raw r||s, not DER
    const pub = createPublicKey({ key: key.jwk, format: 'jwk' });
    const data = Buffer.from(`${jws.protected}.${jws.payload}`);
    const opts = key.jwk.kty === 'EC' ? { key: pub, dsaEncoding: 'ieee-p1363' as const } : pub;
    expect(verify(key.hash, data, opts, signature)).toBe(true);
    // Without a kid the JWK goes into the header; POST-as-GET has an empty payload.
    const get = signJws(key, undefined, { url: 'https://ca.test/order/1', nonce: 'n2' });
    expect(JSON.parse(Buffer.from(get.protected, 'base64url').toString()).jwk).toEqual(key.jwk);
    expect(get.payload).toBe('');
  });

  it('refuses RSA keys under 2048 bits', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(() => loadKey(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())).toThrow(/2048/);
  });

  it('binds an external account with HS256 over the account JWK', async () => {
    const key = loadKey(await generateKeyPem('ec256'));
    const jws = eabJws(key, { kid: 'kid-1', hmacKey: 'c2VjcmV0' }, 'https://ca.test/new-account');
    expect(JSON.parse(Buffer.from(jws.protected, 'base64url').toString())).toEqual({
      alg: 'HS256',
      kid: 'kid-1',
      url: 'https://ca.test/new-account',
    });
    expect(JSON.parse(Buffer.from(jws.payload, 'base64url').toString())).toEqual(key.jwk);
    // The MAC as openssl computes it with the decoded key ("secret").
    const mac = execFileSync('openssl', ['dgst', '-sha256', '-mac', 'HMAC', '-macopt', 'key:secret', '-binary'], {
      input: `${jws.protected}.${jws.payload}`,
    });
    expect(jws.signature).toBe(mac.toString('base64url'));
  });
});

describe('CSR', () => {
  it.each(['ec256', 'ec384', 'rsa2048'] as const)('makes a %s CSR openssl verifies, with every SAN', async (type) => {
    const dir = tmp();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const keyPem = await generateKeyPem(type);
    const names = ['home.example.com', '*.home.example.com', '192.0.2.7', '2001:db8::1'];
    writeFileSync(path.join(dir, 'csr.der'), createCsr(keyPem, names));
    const r = spawnSync('openssl', ['req', '-inform', 'DER', '-in', 'csr.der', '-verify', '-noout', '-text'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stderr + r.stdout).toContain('self-signature verify OK');
    expect(r.stdout).toContain('Subject: CN = home.example.com');
    expect(r.stdout).toContain(
      'DNS:home.example.com, DNS:*.home.example.com, IP Address:192.0.2.7, IP Address:2001:DB8:0:0:0:0:0:1',
    );
    // The public key in the CSR is the certificate key's.
    const pub = execFileSync('openssl', ['req', '-inform', 'DER', '-in', 'csr.der', '-pubkey', '-noout'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(pub).toBe(createPublicKey(keyPem).export({ type: 'spki', format: 'pem' }));
  });

  it('leaves the subject empty for an IP-only CSR', async () => {
    const dir = tmp();
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(path.join(dir, 'csr.der'), createCsr(await generateKeyPem('ec256'), ['127.0.0.1']));
    const out = execFileSync('openssl', ['req', '-inform', 'DER', '-in', 'csr.der', '-verify', '-noout', '-text'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toMatch(/Subject: *\n/);
    expect(out).toContain('IP Address:127.0.0.1');
  });

  it('writes IP addresses as their 4 or 16 bytes', () => {
    expect(ipBytes('192.0.2.7').toString('hex')).toBe('c0000207');
    expect(ipBytes('2001:db8::1').toString('hex')).toBe('20010db8000000000000000000000001');
    expect(ipBytes('::ffff:192.0.2.7').toString('hex')).toBe('00000000000000000000ffffc0000207');
    expect(ipBytes('::').toString('hex')).toBe('0'.repeat(32));
  });

  it('tells IP identifiers from DNS ones', () => {
    expect(identifiersOf(['a.example.com', '*.example.com', '192.0.2.1', '2001:db8::2'])).toEqual([
      { type: 'dns', value: 'a.example.com' },
      { type: 'dns', value: '*.example.com' },
      { type: 'ip', value: '192.0.2.1' },
      { type: 'ip', value: '2001:db8::2' },
    ]);
  });
});

const RFC_AKI = '69:88:5B:6B:87:46:40:41:E1:B3:7B:84:7B:A0:AE:2C:DE:01:C8:D4';
const RFC_CERT_ID = 'aYhba4dGQEHhs3uEe6CuLN4ByNQ.AIdlQyE';

/** A leaf issued by a CA whose key identifier is RFC 9773's example, with its example serial. */
function rfcExampleCert(): string {
  const dir = tmp();
  try {
    const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    run([
      'req',
      '-x509',
      ...ec,
      '-subj',
      '/CN=ari ca',
      '-addext',
      `subjectKeyIdentifier=${RFC_AKI}`,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
    ]);
    run(['req', ...ec, '-subj', '/CN=leaf.example.com', '-keyout', 'leaf.key', '-out', 'leaf.csr']);
    writeFileSync(path.join(dir, 'ext.cnf'), 'authorityKeyIdentifier=keyid:always\n');
    run([
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      '0x87654321',
      '-extfile',
      'ext.cnf',
      '-days',
      '1',
      '-out',
      'leaf.pem',
    ]);
    return readFileSync(path.join(dir, 'leaf.pem'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('ARI (RFC 9773)', () => {
  it('builds the RFC’s example certID from its parts and from a certificate carrying them', () => {
    const aki = Buffer.from(RFC_AKI.replaceAll(':', ''), 'hex');
    expect(ariCertId(aki, Buffer.from('0087654321', 'hex'))).toBe(RFC_CERT_ID);
    const pem = rfcExampleCert();
    expect(new X509Certificate(pem).serialNumber).toMatch(/^0?0?87654321$/);
    expect(certIdOf(pem)).toBe(RFC_CERT_ID);
  });

  it('reads the suggested window and Retry-After from the renewalInfo URL of the directory', async () => {
    const window = { start: '2026-12-01T00:00:00Z', end: '2026-12-03T00:00:00Z' };
    const stub = await acmeStub(
      (r) =>
        r.path === `/renewal-info/${RFC_CERT_ID}`
          ? {
              headers: { 'retry-after': '21600' },
              body: { suggestedWindow: window, explanationURL: 'https://ca.test/why' },
            }
          : undefined,
      { renewalInfo: true },
    );
    cleanups.push(stub.close);
    const client = new AcmeClient({
      directoryUrl: stub.directoryUrl,
      accountKeyPem: await generateKeyPem('ec256'),
      timeoutMs: 5000,
    });
    cleanups.push(() => client.close());
    const info = await client.renewalInfo(rfcExampleCert());
    expect(info).toEqual({
      certId: RFC_CERT_ID,
      window: { start: new Date(window.start), end: new Date(window.end) },
      explanationUrl: 'https://ca.test/why',
      retryAfterSeconds: 21600,
    });
    // ARI is a plain GET, unsigned.
    expect(stub.seen.find((r) => r.path.startsWith('/renewal-info/'))?.method).toBe('GET');
  });

  it('answers undefined when the directory has no renewalInfo', async () => {
    const stub = await acmeStub(() => undefined);
    cleanups.push(stub.close);
    const client = new AcmeClient({
      directoryUrl: stub.directoryUrl,
      accountKeyPem: await generateKeyPem('ec256'),
      timeoutMs: 5000,
    });
    cleanups.push(() => client.close());
    expect(await client.renewalInfo(rfcExampleCert())).toBeUndefined();
  });
});

/** A client of the stub with a registered account URL. */
async function stubClient(route: StubRoute, o: { timeoutMs?: number; signal?: AbortSignal } = {}) {
  const stub = await acmeStub(route);
  cleanups.push(stub.close);
  const client = new AcmeClient({
    directoryUrl: stub.directoryUrl,
    accountKeyPem: await generateKeyPem('ec256'),
    accountUrl: `${stub.base}/acct/1`,
    timeoutMs: o.timeoutMs ?? 5000,
    signal: o.signal,
  });
  cleanups.push(() => client.close());
  return { stub, client };
}

const orderBody = (base: string) => ({
  status: 'pending',
  identifiers: [{ type: 'dns', value: 'a.example.com' }],
  authorizations: [`${base}/authz/1`],
  finalize: `${base}/order/1/finalize`,
});

describe('transport', () => {
  it('retries badNonce five times with the nonce of each error answer, then gives up', async () => {
    let refusals = 5;
    const { stub, client } = await stubClient((r) => {
      if (r.path !== '/new-order') return undefined;
      if (refusals-- > 0) return problem(400, 'badNonce', 'stale nonce');
      return { status: 201, headers: { location: `${stub.base}/order/1` }, body: orderBody(stub.base) };
    });
    const order = await client.newOrder([{ type: 'dns', value: 'a.example.com' }]);
    expect(order.url).toBe(`${stub.base}/order/1`);
    expect(client.stats.badNonceRetries).toBe(5);
    // Each retry carried the Replay-Nonce of the answer before it (the stub numbers them).
    const posts = stub.seen.filter((r) => r.path === '/new-order');
    expect(posts).toHaveLength(6);
    for (let i = 1; i < posts.length; i++) {
      expect(posts[i].header?.nonce).toBe(`nonce-${stub.seen.indexOf(posts[i - 1]) + 1}`);
    }

    refusals = 6;
    const err = await client.newOrder([{ type: 'dns', value: 'a.example.com' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AcmeProblem);
    expect((err as AcmeProblem).type).toBe('badNonce');
    expect(reasonOf(err)).toEqual({ code: 'caProblem', params: { type: 'badNonce', detail: 'stale nonce' } });
  });

  it('maps rate limits, EAB refusals, missing accounts and other problems to the contract’s reasons', async () => {
    const now = Date.parse('2026-11-26T10:00:00Z');
    const { stub, client } = await stubClient((r) => {
      if (r.path === '/new-order') return problem(429, 'rateLimited', 'too many orders', { 'retry-after': '3600' });
      if (r.path === '/new-account' && (r.payload as { onlyReturnExisting?: boolean })?.onlyReturnExisting) {
        return problem(400, 'accountDoesNotExist', 'no account');
      }
      if (r.path === '/new-account') return problem(400, 'externalAccountRequired', 'an EAB is required');
      if (r.path === '/order/1') {
        return {
          status: 403,
          body: {
            type: 'urn:ietf:params:acme:error:rejectedIdentifier',
            detail: 'policy',
            subproblems: [{ identifier: { type: 'dns', value: 'bad.example' }, detail: 'forbidden name' }],
          },
        };
      }
      return undefined;
    });
    const rate = await client.newOrder([{ type: 'dns', value: 'a.example.com' }]).catch((e: unknown) => e);
    expect(reasonOf(rate, now)).toEqual({
      code: 'rateLimited',
      params: { retryAfter: '2026-11-26T11:00:00.000Z', detail: 'too many orders' },
    });
    const eab = await client.register({ email: 'a@example.com' }).catch((e: unknown) => e);
    expect(reasonOf(eab)).toEqual({ code: 'eabRefused', params: { detail: 'an EAB is required' } });
    expect(await client.lookup()).toBeUndefined();
    const rejected = await client.order(`${stub.base}/order/1`).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(AcmeProblem);
    expect(reasonOf(rejected)).toEqual({
      code: 'caProblem',
      params: { type: 'rejectedIdentifier', detail: 'policy (bad.example: forbidden name)' },
    });
  });

  it('names an unreachable directory, a CA that does not answer in time, and a stop', async () => {
    // A port nothing listens on: bind one, close it.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const key = await generateKeyPem('ec256');
    const gone = new AcmeClient({ directoryUrl: `http://127.0.0.1:${port}/dir`, accountKeyPem: key, timeoutMs: 5000 });
    cleanups.push(() => gone.close());
    const unreachable = await gone.directory().catch((e: unknown) => e);
    expect(unreachable).toBeInstanceOf(AcmeNetworkError);
    expect(reasonOf(unreachable)).toMatchObject({
      code: 'directoryUnreachable',
      params: { url: `http://127.0.0.1:${port}/dir`, detail: expect.stringContaining('ECONNREFUSED') },
    });

    // A URL that answers, but not as an ACME directory.
    const web = await acmeStub(() => undefined);
    cleanups.push(web.close);
    for (const [p, detail] of [
      ['/missing', 'HTTP 404'],
      ['/new-nonce', 'HTTP 200: not an ACME directory (no JSON)'],
    ]) {
      const wrong = new AcmeClient({ directoryUrl: `${web.base}${p}`, accountKeyPem: key, timeoutMs: 5000 });
      cleanups.push(() => wrong.close());
      expect(reasonOf(await wrong.directory().catch((e: unknown) => e))).toEqual({
        code: 'directoryUnreachable',
        params: { url: `${web.base}${p}`, detail },
      });
    }

    // The passing time is the behaviour here: a CA that never answers meets the 300 ms bound.
    const { client } = await stubClient((r) => (r.path === '/new-order' ? { hang: true } : undefined), {
      timeoutMs: 300,
    });
    const slow = await client.newOrder([{ type: 'dns', value: 'a.example.com' }]).catch((e: unknown) => e);
    expect(reasonOf(slow)).toEqual({ code: 'timeout', params: { seconds: 1, step: 'order' } });

    const ac = new AbortController();
    const { client: stopped, stub } = await stubClient((r) => (r.path === '/new-order' ? { hang: true } : undefined), {
      signal: ac.signal,
    });
    const pending = stopped.newOrder([{ type: 'dns', value: 'a.example.com' }]).catch((e: unknown) => e);
    await waitFor(() => stub.seen.some((r) => r.path === '/new-order'));
    ac.abort();
    expect(reasonOf(await pending)).toEqual({ code: 'cancelled', params: {} });
  });

  it('polls until the state is reached, and waits as long as Retry-After asks within the bounds', async () => {
    let polls = 0;
    const { stub, client } = await stubClient((r) => {
      if (r.path === '/order/1') {
        polls++;
        const status = polls < 3 ? 'processing' : 'valid';
        return { headers: { 'retry-after': '3600' }, body: { ...orderBody(stub.base), status } };
      }
      if (r.path === '/order/2')
        return { headers: { 'retry-after': '5' }, body: { ...orderBody(stub.base), status: 'processing' } };
      return undefined;
    });
    // Retry-After: 3600 is cut to maxIntervalMs, so three polls end well within the test.
    const done = await client.poll<{ status: string }>(`${stub.base}/order/1`, (o) => o.status === 'valid', {
      maxIntervalMs: 20,
    });
    expect(done.status).toBe('valid');
    expect(polls).toBe(3);
    // Retry-After: 5 reaches past the 1 s deadline: one poll, then the timeout (a client that
    // ignored it would poll again after 250 ms).
    const err = await client
      .poll<{ status: string }>(`${stub.base}/order/2`, (o) => o.status === 'valid', { timeoutMs: 1000 })
      .catch((e: unknown) => e);
    expect(stub.seen.filter((r) => r.path === '/order/2')).toHaveLength(1);
    expect(reasonOf(err)).toEqual({ code: 'timeout', params: { seconds: 1, step: 'poll' } });
  });

  it('sends replaces only to a CA with renewalInfo, and looks the account up when it has no URL', async () => {
    for (const renewalInfo of [true, false]) {
      const stub = await acmeStub(
        (r) => {
          if (r.path === '/new-account')
            return { status: 200, headers: { location: `${stub.base}/acct/7` }, body: { status: 'valid' } };
          if (r.path === '/new-order')
            return { status: 201, headers: { location: `${stub.base}/order/1` }, body: orderBody(stub.base) };
          return undefined;
        },
        { renewalInfo },
      );
      cleanups.push(stub.close);
      const client = new AcmeClient({
        directoryUrl: stub.directoryUrl,
        accountKeyPem: await generateKeyPem('ec256'),
        timeoutMs: 5000,
      });
      cleanups.push(() => client.close());
      await client.newOrder([{ type: 'dns', value: 'a.example.com' }], { replaces: RFC_CERT_ID });
      const lookup = stub.seen.find((r) => r.path === '/new-account');
      expect(lookup?.payload).toEqual({ onlyReturnExisting: true });
      const order = stub.seen.find((r) => r.path === '/new-order');
      expect(order?.header?.kid).toBe(`${stub.base}/acct/7`);
      expect(order?.header?.jwk).toBeUndefined();
      expect(order?.payload).toEqual({
        identifiers: [{ type: 'dns', value: 'a.example.com' }],
        ...(renewalInfo ? { replaces: RFC_CERT_ID } : {}),
      });
    }
  });

  it('fails with accountMissing when a call needs an account the CA does not know', async () => {
    const stub = await acmeStub((r) =>
      r.path === '/new-account' ? problem(400, 'accountDoesNotExist', 'no account for this key') : undefined,
    );
    cleanups.push(stub.close);
    const client = new AcmeClient({
      directoryUrl: stub.directoryUrl,
      accountKeyPem: await generateKeyPem('ec256'),
      timeoutMs: 5000,
    });
    cleanups.push(() => client.close());
    const err = await client.newOrder([{ type: 'dns', value: 'a.example.com' }]).catch((e: unknown) => e);
    expect(reasonOf(err)).toEqual({ code: 'accountMissing', params: {} });
    expect(stub.seen.some((r) => r.path === '/new-order')).toBe(false);
  });

  it('reads the alternate chains from Link headers', () => {
    expect(
      links(
        '<https://ca.test/cert/1/1>;rel="alternate", <https://ca.test/dir>;rel="index", <https://ca.test/cert/1/2>; rel=alternate',
        'alternate',
      ),
    ).toEqual(['https://ca.test/cert/1/1', 'https://ca.test/cert/1/2']);
    expect(links(undefined, 'alternate')).toEqual([]);
  });
});
