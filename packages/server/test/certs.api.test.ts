import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certResolverFor } from '../src/core/certs/resolver.js';
import { certStoreFor } from '../src/core/certs/store.js';
import { b64, makeCert } from './certs-helpers.js';
import { startTestServer, type TestServer } from './harness.js';

let s: TestServer;
let token: string;
const call = (method: string, path: string, body?: unknown) => s.call(method, path, { token, body });

beforeAll(async () => {
  s = await startTestServer({ modules: [] });
  token = await s.login();
});
afterAll(() => s.close());

describe('/api/ssl', () => {
  it('needs a token', async () => {
    expect((await s.call('GET', '/api/ssl')).status).toBe(401);
  });

  it('adds, lists without key material, edits, refuses duplicates and bad pairs, deletes', async () => {
    const a = await makeCert(['a.example.com']);
    const b = await makeCert(['b.example.com']);
    const add = await call('POST', '/api/ssl', { Remark: 'first', CertBase64: b64(a.cert), KeyBase64: b64(a.key) });
    expect(add.body.ret, JSON.stringify(add.body)).toBe(0);
    const key = add.body.key as string;

    const dup = await call('POST', '/api/ssl', { Remark: 'again', CertBase64: b64(a.cert), KeyBase64: b64(a.key) });
    expect(dup.status).toBe(409);
    expect(dup.body.ret).toBe(2);

    const wrongKey = await call('POST', '/api/ssl', { CertBase64: b64(b.cert), KeyBase64: b64(a.key) });
    expect(wrongKey.body).toMatchObject({ ret: 2, field: 'KeyBase64' });
    const empty = await call('POST', '/api/ssl', { CertBase64: '', KeyBase64: b64(a.key) });
    expect(empty.body).toMatchObject({ ret: 1, field: 'CertBase64' });

    const list = await call('GET', '/api/ssl');
    expect(list.body.list).toHaveLength(1);
    const item = list.body.list[0];
    expect(item).toMatchObject({ Key: key, Remark: 'first', Enable: true, Expired: false });
    expect(item.CertsInfo[0].Domains).toEqual(['a.example.com']);
    expect(JSON.stringify(list.body)).not.toContain('PRIVATE KEY');

    expect((await call('PUT', `/api/ssl?key=${key}&field=remark&value=renamed`)).body.ret).toBe(0);
    expect((await call('PUT', `/api/ssl?key=${key}&field=enable&value=false`)).body.ret).toBe(0);
    expect((await call('PUT', `/api/ssl?key=${key}&field=enable&value=maybe`)).body.ret).toBe(1);
    expect((await call('PUT', `/api/ssl?key=nope&field=enable&value=true`)).status).toBe(404);
    const after = (await call('GET', '/api/ssl')).body.list[0];
    expect(after).toMatchObject({ Remark: 'renamed', Enable: false });

    expect((await call('DELETE', `/api/ssl?key=${key}`)).body.ret).toBe(0);
    expect((await call('GET', '/api/ssl')).body.list).toHaveLength(0);
    expect((await call('DELETE', `/api/ssl?key=${key}`)).status).toBe(404);
  });

  it('a TLS server asking the resolver per handshake picks up a new certificate without a restart', async () => {
    const resolver = certResolverFor(certStoreFor(s.server.core.store));
    const server = tls.createServer({ SNICallback: resolver.sniCallback() }, (c) => c.end('hi'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const peerNames = (servername: string) =>
      new Promise<string>((resolve, reject) => {
        const c = tls.connect({ port, host: '127.0.0.1', servername, rejectUnauthorized: false }, () => {
          resolve(c.getPeerCertificate().subjectaltname ?? '');
          c.destroy();
        });
        c.on('error', reject);
      });
    try {
      await expect(peerNames('c.example.com')).rejects.toThrow();
      const c = await makeCert(['c.example.com']);
      expect((await call('POST', '/api/ssl', { CertBase64: b64(c.cert), KeyBase64: c.key })).body.ret).toBe(0);
      expect(await peerNames('c.example.com')).toBe('DNS:c.example.com');
    } finally {
      server.close();
    }
  });

  it('the admin console answers with a stored certificate for its name, its own one for other names', async () => {
    const port = s.server.port;
    const peer = (servername?: string) =>
      new Promise<{ san: string; cn: string }>((resolve, reject) => {
        const c = tls.connect({ port, host: '127.0.0.1', servername, rejectUnauthorized: false }, () => {
          const cert = c.getPeerCertificate();
          resolve({ san: cert.subjectaltname ?? '', cn: String(cert.subject?.CN ?? '') });
          c.destroy();
        });
        c.on('error', reject);
      });
    const before = await peer('nas.example.org');
    expect(before.san).not.toContain('nas.example.org');
    const nas = await makeCert(['nas.example.org']);
    const added = await call('POST', '/api/ssl', { CertBase64: b64(nas.cert), KeyBase64: b64(nas.key) });
    expect(added.body.ret).toBe(0);
    expect((await peer('nas.example.org')).san).toBe('DNS:nas.example.org');
    // Another name, or none (a bare IP address): the console's own certificate, as before.
    expect(await peer('other.example.org')).toEqual(before);
    expect(await peer(undefined)).toEqual(before);
    expect((await call('DELETE', `/api/ssl?key=${added.body.key}`)).body.ret).toBe(0);
    expect(await peer('nas.example.org')).toEqual(before);
  });
});
