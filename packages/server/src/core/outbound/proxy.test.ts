// Provider calls through the proxies a task can set: SOCKS5 (with and without a password,
// the name resolved by the proxy) and HTTP CONNECT, to an HTTPS stub whose certificate is
// still checked through the tunnel. The proxies here are minimal RFC 1928/1929 and
// RFC 9110 CONNECT servers written for the tests.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectProxy } from '../../../test/connect-proxy.js';
import { type Stub, startStub } from '../../../test/dns-provider-stubs.js';
import { HttpClients } from './client.js';

let stub: Stub;
let socksPort = 0;
const socksSeen: string[] = [];
let socks: net.Server;
let connectProxy: Awaited<ReturnType<typeof startConnectProxy>>;

function socksServer(user?: string, pass?: string): net.Server {
  return net.createServer((c) => {
    c.once('data', (greet) => {
      const wantsAuth = user !== undefined;
      if (wantsAuth && !greet.subarray(2).includes(2)) return c.end(Buffer.from([5, 0xff]));
      c.write(Buffer.from([5, wantsAuth ? 2 : 0]));
      const onRequest = (req: Buffer) => {
        const atyp = req[3];
        let host: string;
        let off: number;
        if (atyp === 1) {
          host = [...req.subarray(4, 8)].join('.');
          off = 8;
        } else if (atyp === 3) {
          host = req.subarray(5, 5 + req[4]).toString();
          off = 5 + req[4];
        } else return c.end(Buffer.from([5, 8, 0, 1, 0, 0, 0, 0, 0, 0]));
        const port = req.readUInt16BE(off);
        socksSeen.push(`${host}:${port}`);
        const target = host === 'stub.test' ? '127.0.0.1' : host;
        const up = net.connect(port, target, () => {
          c.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
          up.pipe(c);
          c.pipe(up);
        });
        up.on('error', () => c.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
      };
      if (!wantsAuth) return c.once('data', onRequest);
      c.once('data', (auth) => {
        const u = auth.subarray(2, 2 + auth[1]).toString();
        const p = auth.subarray(3 + auth[1], 3 + auth[1] + auth[2 + auth[1]]).toString();
        if (u !== user || p !== pass) return c.end(Buffer.from([1, 1]));
        c.write(Buffer.from([1, 0]));
        c.once('data', onRequest);
      });
    });
    c.on('error', () => {});
  });
}

beforeAll(async () => {
  stub = await startStub((r) => ({ body: { path: r.path, ok: true } }));
  socks = socksServer('alice', 's3cret');
  await new Promise<void>((r) => socks.listen(0, '127.0.0.1', r));
  socksPort = (socks.address() as net.AddressInfo).port;
  connectProxy = await startConnectProxy();
});
afterAll(async () => {
  await stub.close();
  socks.close();
  await connectProxy.close();
});

describe('proxies', () => {
  it('SOCKS5 with a password; the proxy resolves the name; TLS is still verified', async () => {
    const c = new HttpClients({ ca: stub.ca });
    try {
      const proxy = { type: 'socks5' as const, address: `127.0.0.1:${socksPort}`, user: 'alice', password: 's3cret' };
      const port = new URL(stub.url).port;
      // "stub.test" exists only for the proxy, so the request can only have gone through it.
      const viaName = await c
        .request({ proxy }, { url: `https://stub.test:${port}/x`, timeoutMs: 3000 })
        .catch((e) => e);
      // The stub's certificate names 127.0.0.1, not stub.test: refused even through the tunnel.
      expect(String(viaName.message)).toMatch(/altnames|certificate|Hostname/i);
      const r = await c.request({ proxy }, { url: `${stub.url}/through-socks`, timeoutMs: 3000 });
      expect(JSON.parse(r.text)).toEqual({ path: '/through-socks', ok: true });
      expect(socksSeen).toContain(`stub.test:${port}`);
      expect(socksSeen).toContain(`127.0.0.1:${port}`);
      const wrong = await c
        .request({ proxy: { ...proxy, password: 'nope' } }, { url: `${stub.url}/x`, timeoutMs: 3000 })
        .catch((e) => e);
      expect(String(wrong.message)).toMatch(/refused the user name or password/);
    } finally {
      await c.close();
    }
  });

  it('HTTP CONNECT with Basic proxy auth', async () => {
    const c = new HttpClients({ ca: stub.ca });
    try {
      const proxy = { type: 'http' as const, address: connectProxy.address, user: 'bob', password: 'pw' };
      const r = await c.request({ proxy }, { url: `${stub.url}/through-connect`, timeoutMs: 3000 });
      expect(JSON.parse(r.text).path).toBe('/through-connect');
      expect(connectProxy.seen[0]).toBe(
        `127.0.0.1:${new URL(stub.url).port} Basic ${Buffer.from('bob:pw').toString('base64')}`,
      );
    } finally {
      await c.close();
    }
  });

  it('without the CA the stub is refused; skipping the check (webhook option) accepts it', async () => {
    const c = new HttpClients();
    try {
      await expect(c.request({}, { url: `${stub.url}/x`, timeoutMs: 3000 })).rejects.toThrow(
        /self.signed|certificate/i,
      );
      const r = await c.request({ verify: false }, { url: `${stub.url}/x`, timeoutMs: 3000 });
      expect(r.status).toBe(200);
    } finally {
      await c.close();
    }
  });
});
