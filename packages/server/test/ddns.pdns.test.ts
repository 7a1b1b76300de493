// System test against a real PowerDNS Authoritative (HTTP API), verified with DNS queries to
// its port. The schedule runs on a fast clock (secondMs 50: the 30 s interval is 1.5 s), the
// public IP comes from a local echo page, provider calls are counted by a proxy in front of
// the PowerDNS API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any;

import { countingProxy, type Ddns, ipEcho, startDdns, statuses } from './ddns-helpers.js';
import { type PdnsPeer, query, startPdns } from './dns-peers.js';
import { recorder } from './http-recorder.js';
import { waitFor } from './wait.js';

const SECOND = 50;
const INTERVAL_MS = 30 * SECOND;

let pdns: PdnsPeer;
let proxy: Awaited<ReturnType<typeof countingProxy>>;
let echo: Awaited<ReturnType<typeof ipEcho>>;
let hook: Awaited<ReturnType<typeof recorder>>;
let d: Ddns;

beforeAll(async () => {
  pdns = await startPdns();
  proxy = await countingProxy(pdns.apiUrl);
  echo = await ipEcho('192.0.2.21');
  hook = await recorder([{ status: 200, body: '{"errcode":0}' }]);
  d = await startDdns({ secondMs: SECOND });
  await d.settings({ enabled: true, interval: 30, firstCheckDelay: 0 });
});

afterAll(async () => {
  await d?.close();
  await Promise.all([hook?.close(), echo?.close(), proxy?.close()]);
  await pdns?.stop();
});

describe('DDNS against PowerDNS', () => {
  let key: string;

  it('creates the records, then an unchanged IP makes no provider call', async () => {
    ({ key } = await d.addTask({
      name: 'pdns',
      domains: ['nas.home.test', 'www:home.test'],
      ipSource: { type: 'url', urls: [echo.url] },
      dns: { provider: 'powerdns', server: proxy.url, secret: pdns.apiKey },
      ttl: 60,
      webhook: {
        enabled: true,
        method: 'POST',
        url: `${hook.url}/hook?ip=#{ipAddr}`,
        body: '{"text":"#{successDomainsLine}","ip":"#{ipAddr}"}',
        successStrings: ['"errcode":0'],
      },
    }));
    const t = await d.waitTask(key, (x) => statuses(x).every((s) => s === 'succeeded'));
    expect(t.state.ip).toBe('192.0.2.21');
    expect(await query(pdns.dnsPort, 'nas.home.test')).toEqual(['192.0.2.21']);
    expect(await query(pdns.dnsPort, 'www.home.test')).toEqual(['192.0.2.21']);
    // The webhook got both names, joined by a real newline inside a valid JSON body.
    await d.waitTask(key, (x) => x.state.webhookHistory.length === 1);
    expect(hook.seen[0].url).toBe('/hook?ip=192.0.2.21');
    expect(JSON.parse(hook.seen[0].body)).toEqual({ text: 'nas.home.test\nwww.home.test', ip: '192.0.2.21' });
    expect(hook.seen[0].headers['content-type']).toBe('application/json');

    const calls = proxy.counter.count;
    const hits = echo.state.hits;
    // Two more rounds: each asks the echo page for the IP, then finishes its check of the task.
    await waitFor(() => echo.state.hits >= hits + 2, { timeout: INTERVAL_MS * 2 + 5000, what: 'two more rounds' });
    const steady = await d.waitTask(key, (x) => !x.state.running);
    expect(statuses(steady)).toEqual(['ipUnchanged', 'ipUnchanged']);
    expect(proxy.counter.count).toBe(calls);
    // No new webhook either: nothing succeeded or failed.
    expect(hook.seen).toHaveLength(1);
  });

  it('an IP change reaches PowerDNS within one interval', async () => {
    const calls = proxy.counter.count;
    echo.set('192.0.2.22');
    const t0 = Date.now();
    const t = await d.waitTask(
      key,
      (x) =>
        !x.state.running &&
        x.state.domains.every((s: Json) => s.status === 'succeeded' && s.reason.params.ip === '192.0.2.22'),
    );
    expect(Date.now() - t0).toBeLessThanOrEqual(INTERVAL_MS + 1000);
    expect(await query(pdns.dnsPort, 'nas.home.test')).toEqual(['192.0.2.22']);
    expect(await query(pdns.dnsPort, 'www.home.test')).toEqual(['192.0.2.22']);
    expect(t.state.ipHistory.map((h: { ip: string }) => h.ip)).toEqual(['192.0.2.22', '192.0.2.21']);
    // Only the changed records were touched: one look-up and one PATCH per name.
    const patches = proxy.counter.paths.slice(calls).filter((p) => p.startsWith('PATCH'));
    expect(patches).toHaveLength(2);
    expect(t.state.domains[0].history[0]).toMatchObject({ status: 'succeeded' });
  });

  it('sync now asks the provider, which answers "provider record same"', async () => {
    const r = await d.call('POST', `/api/ddns/tasks/${key}/sync?wait=1`);
    expect(r.body.ret).toBe(0);
    expect(statuses(r.body.task)).toEqual(['providerSame', 'providerSame']);
  });

  it('the resolver check against the DNS server skips the provider', async () => {
    const calls = proxy.counter.count;
    const { key: k2 } = await d.addTask({
      name: 'checked',
      domains: ['nas.home.test'],
      ipSource: { type: 'url', urls: [echo.url] },
      dns: { provider: 'powerdns', server: proxy.url, secret: pdns.apiKey },
      resolverCheck: true,
      dnsServers: [`127.0.0.1:${pdns.dnsPort}`],
    });
    const t = await d.waitTask(k2, (x) => statuses(x)[0] === 'dnsSame');
    expect(t.state.domains[0].reason).toMatchObject({
      code: 'dnsAnswers',
      params: { server: `127.0.0.1:${pdns.dnsPort}` },
    });
    expect(proxy.counter.count).toBe(calls);
  });

  it('a wrong API key fails on its own domain and leaves the other task alone', async () => {
    const { key: bad } = await d.addTask({
      name: 'wrong key',
      domains: ['bad.home.test'],
      ipSource: { type: 'url', urls: [echo.url] },
      dns: { provider: 'powerdns', server: pdns.apiUrl, secret: 'not-the-key' },
    });
    const t = await d.waitTask(bad, (x) => statuses(x)[0] === 'failed');
    expect(t.state.domains[0].reason).toMatchObject({
      code: 'providerError',
      params: { detail: expect.stringMatching(/401/) },
    });
    expect(statuses(await d.task(key))).not.toContain('failed');
    expect(await query(pdns.dnsPort, 'bad.home.test')).toEqual([]);
  });
});
