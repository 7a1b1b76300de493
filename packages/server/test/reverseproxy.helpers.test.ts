// Web service helper processes (helperPool.ts): connections handed to another process are served
// by the same rules, certificates and logs as those served in the server process. Which process
// owns a connection is read from the kernel (ss -p), not from anything the server says.
import { execFile } from 'node:child_process';
import net from 'node:net';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, makeCert } from './certs-helpers.js';
import { type Backend, backend, freePort, get, type Rp, startRp } from './reverseproxy-helpers.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);
const saved = { n: process.env.LUCKY_WEB_HELPERS, start: process.env.LUCKY_WEB_HELPERS_START };
let rp: Rp;
let a: Backend;
let port: number;
let ruleKey: string;
let siteKey: string;

/** A kept-alive connection that has had one answer (so the process serving it owns it). */
interface Held {
  socket: net.Socket;
  first: string;
  closed: Promise<void>;
}

function request(host: string, path = '/') {
  return `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
}

function hold(socket: net.Socket, host: string): Promise<Held> {
  return new Promise((resolve, reject) => {
    let text = '';
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.on('error', reject);
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const len = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? -1);
      if (end >= 0 && len >= 0 && text.length >= end + 4 + len) {
        socket.removeAllListeners('data');
        resolve({ socket, first: text, closed });
      }
    });
    socket.write(request(host));
  });
}

const holdPlain = (host: string) =>
  new Promise<Held>((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => hold(s, host).then(resolve, reject));
    s.on('error', reject);
  });

let lastSs = '';

/** PIDs of the processes that hold the established connections to `p` (server side), per connection. */
async function owners(p: number): Promise<number[][]> {
  const { stdout } = await run('ss', ['-tnpH', 'state', 'established', `( sport = :${p} )`]);
  lastSs = stdout;
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => [...new Set([...line.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])))]);
}

/** Wait until every connection to `p` is owned by exactly one process; the owners. */
async function settledOwners(p: number, count: number): Promise<number[]> {
  const o = await waitFor(
    () => owners(p),
    (o) => o.length === count && o.every((x) => x.length === 1),
    { timeout: 5000, interval: 100, what: `${count} connections to ${p} with one owner each` },
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n${lastSs}`);
  });
  return o.map((x) => x[0]);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  process.env.LUCKY_WEB_HELPERS = '1';
  process.env.LUCKY_WEB_HELPERS_START = 'eager';
  rp = await startRp();
  a = await backend('a');
  const c = await makeCert(['one.test']);
  expect((await rp.call('POST', '/api/ssl', { CertBase64: b64(c.cert), KeyBase64: b64(c.key) })).body.ret).toBe(0);
  port = await freePort();
  const added = await rp.addRule({
    port,
    listenTypes: 'both',
    subRules: [
      { name: 'proxy', domains: ['p.test', 'one.test', 'two.test'], targets: [a.url] },
      { name: 'text', domains: ['t.test'], serviceType: 'text', text: 'first' },
    ],
  });
  ruleKey = added.key;
  siteKey = added.rule.subRules[0].key;
  await helperReady();
});

/** The helper serves once the status counts it. */
async function helperReady(): Promise<void> {
  await waitFor(
    async () => JSON.stringify((await rp.call('GET', '/api/status')).body),
    (body) => body.includes('"helperProcesses":1'),
    { timeout: 10_000, interval: 100, what: 'a helper process' },
  );
}

afterAll(async () => {
  await rp?.close();
  await a?.close();
  process.env.LUCKY_WEB_HELPERS = saved.n;
  process.env.LUCKY_WEB_HELPERS_START = saved.start;
  if (saved.n === undefined) delete process.env.LUCKY_WEB_HELPERS;
  if (saved.start === undefined) delete process.env.LUCKY_WEB_HELPERS_START;
});

/** Waits up to 5 s for process `pid` to end; whether it did. */
async function gone(pid: number): Promise<boolean> {
  return waitFor(() => !alive(pid), { timeout: 5000, interval: 50 }).catch(() => false);
}

let helperPid = 0;

describe('web service helper processes', () => {
  it('share new connections with the server process, and proxy through both', async () => {
    const held = await Promise.all(Array.from({ length: 6 }, () => holdPlain('p.test')));
    for (const h of held) expect(h.first).toMatch(/^HTTP\/1\.1 200[\s\S]*"name":"a"/);
    const pids = new Set(await settledOwners(port, 6));
    expect(pids.has(process.pid)).toBe(true);
    const others = [...pids].filter((x) => x !== process.pid);
    expect(others).toHaveLength(1);
    helperPid = others[0];
    for (const h of held) h.socket.destroy();
  });

  it('log the helper’s requests in the rule’s access log here', async () => {
    // Wait for the paths themselves: lines of the first test's helper connections may still be on
    // their way (they are written when those connections close), so a count would be early.
    const paths = Array.from({ length: 6 }, (_, i) => `/logged-${i}`);
    for (const path of paths) expect((await get(port, path, 'p.test')).status).toBe(200);
    const logged = async () => {
      const r = await rp.call('GET', `/api/reverseproxy/rules/${ruleKey}/logs?site=${siteKey}&pageSize=100`);
      const texts: string[] = r.body.logs.map((l: { text: string }) => l.text);
      return paths.filter((path) => !texts.some((t) => t.includes(`http://p.test${path} 200`)));
    };
    expect(
      await waitFor(logged, (m) => m.length === 0, { timeout: 10_000, interval: 100, what: 'every path logged' }),
    ).toEqual([]);
  });

  it('count the helper’s requests and bytes in the rule’s live figures', async () => {
    const traffic = async () => {
      const list = (await rp.call('GET', '/api/reverseproxy/rules')).body.list;
      return list.find((x: { key: string }) => x.key === ruleKey).status.traffic as Record<string, number>;
    };
    // Figures are taken once a second: wait until the earlier tests' requests are all in, i.e. two
    // readings a sampling period apart agree (the poll interval is that period).
    let last = -1;
    const before = await waitFor(
      traffic,
      (t) => {
        const steady = t.requests === last;
        last = t.requests;
        return steady;
      },
      { timeout: 12_000, interval: 1100, what: 'steady figures' },
    );
    // New connections go to this process and the helper in turns: the helper takes most of them.
    for (let i = 0; i < 12; i++) expect((await get(port, `/counted-${i}`, 'p.test')).status).toBe(200);
    const now = await waitFor(traffic, (t) => t.requests >= before.requests + 12, { timeout: 5000, interval: 100 });
    expect(now.requests - before.requests).toBe(12);
    expect(now.bytesOut - before.bytesOut).toBeGreaterThan(12 * 100);
  });

  it('terminate TLS with the stored certificates and pick up one added later', async () => {
    const handshake = (servername: string) =>
      new Promise<Held & { san: string }>((resolve, reject) => {
        const s = tls.connect(
          { port, host: '127.0.0.1', servername, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] },
          () => {
            const san = s.getPeerCertificate().subjectaltname ?? '';
            hold(s as unknown as net.Socket, servername).then((h) => resolve({ ...h, san }), reject);
          },
        );
        s.on('error', reject);
      });
    const c = await makeCert(['two.test']);
    expect((await rp.call('POST', '/api/ssl', { CertBase64: b64(c.cert), KeyBase64: b64(c.key) })).body.ret).toBe(0);
    const held = await Promise.all(Array.from({ length: 6 }, (_, i) => handshake(i % 2 ? 'one.test' : 'two.test')));
    for (const [i, h] of held.entries()) {
      expect(h.san).toBe(i % 2 ? 'DNS:one.test' : 'DNS:two.test');
      expect(h.first).toMatch(/^HTTP\/1\.1 200/);
    }
    expect(new Set(await settledOwners(port, 6))).toEqual(new Set([process.pid, helperPid]));
    for (const h of held) h.socket.destroy();
  });

  it('serve an edited sub rule at once, in every process', async () => {
    const rule = (await rp.call('GET', `/api/reverseproxy/rules/${ruleKey}`)).body.rule;
    const text = rule.subRules.find((x: { name: string }) => x.name === 'text');
    const { key, status: _s, lastLogs: _l, ...edited } = { ...text, text: 'second' };
    expect((await rp.call('PUT', `/api/reverseproxy/rules/${ruleKey}/subrules/${key}`, edited)).body.ret).toBe(0);
    for (let i = 0; i < 6; i++) expect((await get(port, '/', 't.test')).body).toBe('second');
  });

  it('close the helper’s connections of a rule that is switched off', async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => holdPlain('p.test')));
    expect(new Set(await settledOwners(port, 4))).toEqual(new Set([process.pid, helperPid]));
    const off = await rp.call('PUT', `/api/reverseproxy/rules/${ruleKey}/enable`, { enabled: false });
    expect(off.body.ret).toBe(0);
    await Promise.all(held.map((h) => h.closed));
    expect(await owners(port)).toEqual([]);
    // With no rule left the helper was stopped; switching the rule on starts a new one (eager pool).
    expect(await gone(helperPid)).toBe(true);
    expect((await rp.call('PUT', `/api/reverseproxy/rules/${ruleKey}/enable`, { enabled: true })).body.ret).toBe(0);
    expect((await get(port, '/', 't.test')).body).toBe('second');
    await helperReady();
    const again = await Promise.all(Array.from({ length: 4 }, () => holdPlain('t.test')));
    const pids = new Set(await settledOwners(port, 4));
    const next = [...pids].filter((x) => x !== process.pid);
    expect(next).toHaveLength(1);
    expect(next[0]).not.toBe(helperPid);
    helperPid = next[0];
    for (const h of again) h.socket.destroy();
  });

  it('keep serving here when the helper dies', async () => {
    expect(helperPid).toBeGreaterThan(1);
    expect(alive(helperPid)).toBe(true);
    process.kill(helperPid, 'SIGKILL');
    expect(await gone(helperPid)).toBe(true);
    for (let i = 0; i < 6; i++) expect((await get(port, '/', 't.test')).body).toBe('second');
  });

  it('leave no helper behind when the server stops', async () => {
    // The rule change starts a new helper (eager pool); stopping the server must end it.
    const rule = (await rp.call('GET', `/api/reverseproxy/rules/${ruleKey}`)).body.rule;
    const { status: _s, ...body } = { ...rule, name: 'renamed' };
    expect((await rp.call('PUT', `/api/reverseproxy/rules/${ruleKey}`, body)).body.ret).toBe(0);
    await helperReady();
    const held = await Promise.all(Array.from({ length: 4 }, () => holdPlain('t.test')));
    const pids = new Set(await settledOwners(port, 4));
    const helper = [...pids].find((x) => x !== process.pid);
    expect(helper).toBeDefined();
    await rp.close();
    await Promise.all(held.map((h) => h.closed));
    expect(await gone(helper as number)).toBe(true);
    rp = undefined as unknown as Rp;
  });
});
