import https from 'node:https';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

let s: TestServer;
afterEach(async () => s?.close());

function httpsGet(port: number, path: string): Promise<{ status: number; body: string; cert: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get({ host: '127.0.0.1', port, path, rejectUnauthorized: false }, (res) => {
      const peer = (res.socket as import('node:tls').TLSSocket).getPeerCertificate();
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => {
        const cn = peer.subject?.CN ?? '';
        resolve({ status: res.statusCode ?? 0, body, cert: Array.isArray(cn) ? cn.join(',') : cn });
      });
    });
    req.on('error', reject);
  });
}

describe('admin listener', () => {
  it('answers HTTP and HTTPS on the same port with a self-signed certificate', async () => {
    s = await startTestServer();
    const plain = await s.call('GET', '/version');
    expect(plain.body.ret).toBe(0);
    const tls = await httpsGet(s.server.port, '/version');
    expect(JSON.parse(tls.body).ret).toBe(0);
    expect(tls.cert).toBe('Lucky console');
  });

  it('redirects plain HTTP to HTTPS when forced', async () => {
    s = await startTestServer();
    await s.call('PUT', '/api/baseconfigure', { token: await s.login(), body: { forceHttps: true } });
    const res = await fetch(`${s.url}/version`, { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe(`https://127.0.0.1:${s.server.port}/version`);
    expect((await httpsGet(s.server.port, '/version')).status).toBe(200);
  });

  it('answers only under the security entrance when one is set', async () => {
    s = await startTestServer();
    await s.call('PUT', '/api/baseconfigure', { token: await s.login(), body: { securityEntrance: 'hidden-door' } });
    expect((await s.call('GET', '/version')).status).toBe(404);
    expect((await s.call('GET', '/api/login')).status).toBe(404);
    expect((await s.call('GET', '/hidden-door/version')).body.ret).toBe(0);
    const login = await s.call('POST', '/hidden-door/api/login', { body: { Account: '666', Password: '666' } });
    expect(login.body.ret).toBe(0);
  });

  it('refuses clients outside the LAN, believing forwarded headers only from trusted proxies', async () => {
    s = await startTestServer();
    const token = await s.login();
    const wan = { 'x-forwarded-for': '8.8.8.8' };
    // Untrusted peer: the header is ignored, the client is 127.0.0.1.
    expect((await s.call('GET', '/version', { headers: wan })).status).toBe(200);
    await s.call('PUT', '/api/baseconfigure', { token, body: { trustedProxies: ['127.0.0.0/8'] } });
    const refused = await s.call('GET', '/version', { headers: wan });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ ret: 1, ip: '8.8.8.8' });
    // A LAN client behind the proxy is fine; so is IPv6 ULA.
    expect((await s.call('GET', '/version', { headers: { 'x-forwarded-for': '192.168.3.4' } })).status).toBe(200);
    expect((await s.call('GET', '/version', { headers: { 'x-forwarded-for': 'fd00::1' } })).status).toBe(200);
    // A spoofed left-most entry does not help: the right-most untrusted hop counts.
    expect((await s.call('GET', '/version', { headers: { 'x-forwarded-for': '192.168.3.4, 8.8.8.8' } })).status).toBe(
      403,
    );
    await s.call('PUT', '/api/baseconfigure', {
      token,
      headers: { 'x-forwarded-for': '10.0.0.2' },
      body: { allowInternetAccess: true },
    });
    expect((await s.call('GET', '/version', { headers: wan })).status).toBe(200);
  });

  it('refuses bad JSON with 400 and ret 1, not a crash', async () => {
    s = await startTestServer();
    const res = await fetch(`${s.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"Account":',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).ret).toBe(1);
    const big = await fetch(`${s.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Account: 'x'.repeat(2 * 1024 * 1024), Password: 'y' }),
    });
    expect(big.status).toBe(413);
    expect((await s.call('GET', '/version')).body.ret).toBe(0);
  });
});
