// The PROXY protocol on a web service listener, with a real HAProxy in front (mode tcp,
// `send-proxy` and `send-proxy-v2`) and curl as the client. On loopback every address of
// 127.0.0.0/8 is local, so curl binds to its own one (--interface) and the rule lists only
// HAProxy's (127.0.0.1): the client address the rule sees must be curl's, over plain HTTP/1.1,
// TLS (the address crosses the TLS layer) and HTTP/2. A listed peer without a header is cut off;
// any other peer is served as usual, and a PROXY line it sends is not believed.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curl, freePort, type Rp, startRp } from './reverseproxy-helpers.js';
import { waitFor } from './wait.js';

let rp: Rp;
let port: number;
let v1Port: number;
let v2Port: number;
let haproxy: ChildProcess;
let dir: string;
let ruleKey: string;

/** Resolves once something accepts connections on `p`. */
async function listening(p: number): Promise<void> {
  const accepts = () =>
    new Promise<boolean>((r) => {
      const s = net.connect(p, '127.0.0.1', () => {
        s.destroy();
        r(true);
      });
      s.on('error', () => r(false));
    });
  await waitFor(accepts, { timeout: 10_000, interval: 100, what: `a listener on ${p}` });
}

/** The text sub rule answers "client=<clientIP> remote=<remoteIP>". */
const who = (body: string) => body.trim();

beforeAll(async () => {
  rp = await startRp();
  await rp.addCert(['pp.test']);
  port = await freePort();
  const made = await rp.addRule({
    port,
    listenTypes: 'both',
    http2: true,
    proxyProtocolFrom: ['127.0.0.1'],
    subRules: [
      { domains: ['pp.test'], serviceType: 'text', text: 'client={clientIP} remote={remoteIP}\n' },
      {
        domains: ['only5.test'],
        serviceType: 'text',
        text: 'allowed\n',
        ipFilter: { mode: 'whitelist', list: ['127.0.0.5'] },
      },
    ],
  });
  ruleKey = made.key;
  v1Port = await freePort();
  v2Port = await freePort();
  dir = await mkdtemp(path.join(os.tmpdir(), 'lucky-haproxy-'));
  const cfg = path.join(dir, 'haproxy.cfg');
  await writeFile(
    cfg,
    [
      'defaults',
      '  mode tcp',
      '  timeout connect 5s',
      '  timeout client 30s',
      '  timeout server 30s',
      'frontend v1',
      `  bind 127.0.0.1:${v1Port}`,
      '  default_backend lucky_v1',
      'frontend v2',
      `  bind 127.0.0.1:${v2Port}`,
      '  default_backend lucky_v2',
      'backend lucky_v1',
      `  server lucky 127.0.0.1:${port} send-proxy source 127.0.0.1`,
      'backend lucky_v2',
      `  server lucky 127.0.0.1:${port} send-proxy-v2 source 127.0.0.1`,
      '',
    ].join('\n'),
  );
  haproxy = spawn('haproxy', ['-f', cfg, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  haproxy.stderr?.on('data', (d) => {
    stderr += d;
  });
  haproxy.once('exit', (code) => {
    if (code) console.error(`haproxy exited with ${code}: ${stderr}`);
  });
  await listening(v1Port);
  await listening(v2Port);
});

afterAll(async () => {
  haproxy?.kill('SIGTERM');
  await rp?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('PROXY protocol from a listed proxy (HAProxy)', () => {
  it('takes the client address from a v1 header (HTTP/1.1)', async () => {
    const r = await curl(['--interface', '127.0.0.5', '-H', 'Host: pp.test', `http://127.0.0.1:${v1Port}/`]);
    expect(r.status).toBe(200);
    expect(who(r.body)).toBe('client=127.0.0.5 remote=127.0.0.5');
  });

  it('takes it from a v2 header, through TLS, over HTTP/1.1 and HTTP/2', async () => {
    const tls = ['--interface', '127.0.0.6', '-k', '--resolve', `pp.test:${v2Port}:127.0.0.1`];
    const h1 = await curl([...tls, '--http1.1', `https://pp.test:${v2Port}/`]);
    expect(h1.status).toBe(200);
    expect(who(h1.body)).toBe('client=127.0.0.6 remote=127.0.0.6');
    const h2 = await curl([...tls, '--http2', `https://pp.test:${v2Port}/`]);
    expect(h2.headers).toMatch(/^HTTP\/2 200/);
    expect(who(h2.body)).toBe('client=127.0.0.6 remote=127.0.0.6');
  });

  it('applies the IP filter to the client the header names', async () => {
    const ok = await curl(['--interface', '127.0.0.5', '-H', 'Host: only5.test', `http://127.0.0.1:${v2Port}/`]);
    expect(ok.status).toBe(200);
    const refused = await curl(['--interface', '127.0.0.9', '-H', 'Host: only5.test', `http://127.0.0.1:${v2Port}/`]);
    expect(refused.status).toBe(403);
  });

  it('names the client in the access log', async () => {
    const list = (await rp.call('GET', '/api/reverseproxy/rules')).body.list;
    const rule = list.find((x: { key: string }) => x.key === ruleKey);
    const site = rule.subRules.find((x: { domains: string[] }) => x.domains[0] === 'pp.test').key;
    const r = await rp.call('GET', `/api/reverseproxy/rules/${ruleKey}/logs?site=${site}&pageSize=100`);
    const texts: string[] = r.body.logs.map((l: { text: string }) => l.text);
    expect(texts.some((t) => t.startsWith('[127.0.0.5][127.0.0.5] GET http://pp.test'))).toBe(true);
  });

  it('cuts off a listed peer that sends no header, and serves other peers as usual', async () => {
    await expect(curl(['-H', 'Host: pp.test', `http://127.0.0.1:${port}/`])).rejects.toThrow();
    const direct = await curl(['--interface', '127.0.0.7', '-H', 'Host: pp.test', `http://127.0.0.1:${port}/`]);
    expect(direct.status).toBe(200);
    expect(who(direct.body)).toBe('client=127.0.0.7 remote=127.0.0.7');
  });

  it('does not believe a PROXY line from a peer that is not listed', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const s = net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.7' }, () =>
        s.write('PROXY TCP4 203.0.113.1 127.0.0.1 1234 80\r\nGET / HTTP/1.1\r\nHost: pp.test\r\n\r\n'),
      );
      let text = '';
      s.on('data', (d) => {
        text += d;
      });
      s.on('close', () => resolve(text));
      s.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).not.toContain('203.0.113.1');
  });
});
