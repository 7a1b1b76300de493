// The web service rule's network type (which address family its listener takes) and custom
// config (nginx-style header directives), against the real server and a loopback back end.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Backend, backend, freePort, type Rp, startRp } from './reverseproxy-helpers.js';

let rp: Rp;
let back: Backend;

beforeAll(async () => {
  rp = await startRp();
  back = await backend('back', (req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-powered-by', 'Express');
      res.end(JSON.stringify({ headers: req.headers }));
    });
  });
});
afterAll(async () => {
  await back?.close();
  await rp?.close();
});

/** 'connected' or the error code of a TCP connection to `host:port`. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port }, () => {
      s.destroy();
      resolve('connected');
    });
    s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

function request(
  host: string,
  port: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host, port, path: '/', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const proxyTo = (url: string) => ({ serviceType: 'proxy', targets: [url] });

describe('network type', () => {
  it('binds the family it names: tcp4 IPv4 only, tcp6 IPv6 only, tcp both; a change re-binds', async () => {
    const port = await freePort('::');
    const { key, rule } = await rp.addRule({ address: '', port, network: 'tcp4', defaultRule: proxyTo(back.url) });
    expect(rule.network).toBe('tcp4');
    expect(await tryConnect('127.0.0.1', port)).toBe('connected');
    expect(await tryConnect('::1', port)).toBe('ECONNREFUSED');

    const put = (network: string) =>
      rp.call('PUT', `/api/reverseproxy/rules/${key}`, { ...rule, network, address: '', subRules: [] });
    expect((await put('tcp6')).body.rule.status.state).toBe('running');
    expect(await tryConnect('::1', port)).toBe('connected');
    expect(await tryConnect('127.0.0.1', port)).toBe('ECONNREFUSED');

    expect((await put('tcp')).body.rule.status.state).toBe('running');
    expect((await request('127.0.0.1', port)).status).toBe(200);
    expect((await request('::1', port)).status).toBe(200);
    await rp.call('DELETE', `/api/reverseproxy/rules/${key}`);
  });

  it('an IPv4-only and an IPv6-only rule share a port; dual-stack on it is a conflict', async () => {
    const port = await freePort('::');
    const v4 = await rp.addRule({ address: '', port, network: 'tcp4', defaultRule: proxyTo(back.url) });
    const v6 = await rp.addRule({ address: '', port, network: 'tcp6', defaultRule: proxyTo(back.url) });
    expect(await tryConnect('127.0.0.1', port)).toBe('connected');
    expect(await tryConnect('::1', port)).toBe('connected');
    const both = await rp.call('POST', '/api/reverseproxy/rules', { address: '', port, network: 'tcp' });
    expect(both.status).toBe(409);
    expect(both.body).toMatchObject({ ret: 1, field: 'port', code: 'portConflict' });
    for (const r of [v4, v6]) await rp.call('DELETE', `/api/reverseproxy/rules/${r.key}`);
  });

  it('refuses an address of the other family, naming the field', async () => {
    const r = await rp.call('POST', '/api/reverseproxy/rules', { address: '127.0.0.1', network: 'tcp6' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ ret: 1, field: 'address', code: 'networkAddressFamily' });
  });
});

describe('custom config', () => {
  it('sets and drops request headers, hides and adds answer headers', async () => {
    const port = await freePort();
    const customConfig = [
      '# towards the back end',
      'proxy_set_header X-Site "home lab";',
      'proxy_set_header User-Agent "";',
      'proxy_hide_header X-Powered-By;',
      'add_header X-Frame-Options DENY always;',
    ].join('\n');
    const { key, rule } = await rp.addRule({ port, defaultRule: { ...proxyTo(back.url), customConfig } });
    expect(rule.defaultRule.customConfig).toBe(customConfig);
    const r = await request('127.0.0.1', port, { 'user-agent': 'curl/8', 'x-site': 'client says' });
    expect(r.status).toBe(200);
    const seen = JSON.parse(r.body).headers;
    expect(seen['x-site']).toBe('home lab');
    expect(seen['user-agent']).toBeUndefined();
    expect(r.headers['x-powered-by']).toBeUndefined();
    expect(r.headers['x-frame-options']).toBe('DENY');
    await rp.call('DELETE', `/api/reverseproxy/rules/${key}`);
  });

  it('refuses a directive it does not know, with the line and the word, and saves nothing', async () => {
    const before = JSON.stringify(rp.s.server.core.store.get().modules.reverseproxy);
    const r = await rp.call('POST', '/api/reverseproxy/rules', {
      port: await freePort(),
      defaultRule: { customConfig: 'add_header A b\nproxy_pass http://elsewhere;' },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      ret: 1,
      field: 'defaultRule.customConfig',
      code: 'customConfigUnknown',
      params: { line: 2, token: 'proxy_pass' },
    });
    expect(JSON.stringify(rp.s.server.core.store.get().modules.reverseproxy)).toBe(before);
  });
});
