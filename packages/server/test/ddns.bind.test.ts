// System test against a real BIND 9: RFC 2136 dynamic updates signed with TSIG (hmac-sha256),
// verified with DNS queries to its port; a wrong key must be refused and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
type Json = any;

import { type Ddns, ipEcho, startDdns, statuses } from './ddns-helpers.js';
import { type BindPeer, query, startBind } from './dns-peers.js';

const SECOND = 50;
const INTERVAL_MS = 30 * SECOND;

let bind: BindPeer;
let echo: Awaited<ReturnType<typeof ipEcho>>;
let d: Ddns;

beforeAll(async () => {
  bind = await startBind();
  echo = await ipEcho('192.0.2.31');
  d = await startDdns({ secondMs: SECOND });
  await d.settings({ enabled: true, interval: 30 });
});

afterAll(async () => {
  await d?.close();
  await echo?.close();
  await bind?.stop();
});

const task = (secret: string, domains: string[]) => ({
  domains,
  ipSource: { type: 'url', urls: [echo.url] },
  dns: { provider: 'rfc2136', server: `127.0.0.1:${bind.port}`, id: bind.keyName, secret, zone: 'home.test' },
  ttl: 120,
});

describe('DDNS against BIND 9 (RFC 2136 + TSIG)', () => {
  it('updates the existing record and creates a new one, then follows an IP change within one interval', async () => {
    expect(await query(bind.port, 'nas.home.test')).toEqual(['192.0.2.10']);
    const { key } = await d.addTask({ name: 'bind', ...task(bind.secret, ['nas.home.test', 'cam.home.test']) });
    const t = await d.waitTask(key, (x) => statuses(x).every((s) => s === 'succeeded'));
    expect(t.state.domains.map((x: Json) => x.reason)).toEqual([
      { code: 'recordUpdated', params: { type: 'A', ip: '192.0.2.31' }, text: 'updated A 192.0.2.31' },
      { code: 'recordCreated', params: { type: 'A', ip: '192.0.2.31' }, text: 'created A 192.0.2.31' },
    ]);
    expect(await query(bind.port, 'nas.home.test')).toEqual(['192.0.2.31']);
    expect(await query(bind.port, 'cam.home.test')).toEqual(['192.0.2.31']);

    echo.set('192.0.2.32');
    const t0 = Date.now();
    await d.waitTask(
      key,
      (x) =>
        !x.state.running &&
        x.state.domains.every((s: Json) => s.status === 'succeeded' && s.reason.params.ip === '192.0.2.32'),
    );
    expect(Date.now() - t0).toBeLessThanOrEqual(INTERVAL_MS + 1000);
    expect(await query(bind.port, 'nas.home.test')).toEqual(['192.0.2.32']);
    expect(await query(bind.port, 'cam.home.test')).toEqual(['192.0.2.32']);
  });

  it('a wrong TSIG key is refused (NOTAUTH/BADSIG) and the record stays', async () => {
    const other = await ipEcho('192.0.2.99');
    try {
      const wrong = Buffer.alloc(32, 7).toString('base64');
      const { key } = await d.addTask({
        name: 'wrong key',
        ...task(wrong, ['nas.home.test']),
        ipSource: { type: 'url', urls: [other.url] },
      });
      const t = await d.waitTask(key, (x) => statuses(x)[0] === 'failed');
      expect(t.state.domains[0].reason).toMatchObject({
        code: 'providerError',
        params: { detail: expect.stringMatching(/NOTAUTH \(BADSIG\)/) },
      });
      expect(await query(bind.port, 'nas.home.test')).toEqual(['192.0.2.32']);
    } finally {
      await other.close();
    }
  });
});
