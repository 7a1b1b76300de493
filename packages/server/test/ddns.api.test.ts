// The DDNS REST calls on a real server: CRUD with server-assigned keys, validation answers
// (field + stable code, nothing saved), secrets masked on read and kept unless replaced,
// the switch, "sync now", settings and the webhook test. The module is off unless a test
// switches it on, so nothing is sent anywhere.
import { SECRET_MASK } from '@lucky/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Ddns, ipEcho, recorder, startDdns, statuses } from './ddns-helpers.js';

let d: Ddns;
beforeAll(async () => {
  d = await startDdns({ secondMs: 50 });
});
afterAll(async () => d?.close());

const base = {
  name: 'home',
  domains: ['nas.example.com'],
  ipSource: { type: 'url', urls: ['http://127.0.0.1:9/'] },
  dns: { provider: 'cloudflare', secret: 'cf-token-123' },
};

const stored = () => d.s.server.core.store.get().modules.ddns as { tasks: { key: string }[] } | undefined;

describe('DDNS API', () => {
  it('answers ret -1 without a token', async () => {
    for (const [m, p] of [
      ['GET', '/api/ddns/tasks'],
      ['POST', '/api/ddns/tasks'],
      ['GET', '/api/ddns/settings'],
      ['POST', '/api/ddns/webhook/test'],
    ]) {
      const r = await d.s.call(m, p, m === 'GET' ? {} : { body: {} });
      expect(r.body.ret, `${m} ${p}`).toBe(-1);
    }
  });

  it('starts off with no tasks', async () => {
    const r = await d.call('GET', '/api/ddns/tasks');
    expect(r.body).toEqual({ ret: 0, enabled: false, list: [] });
    const s = await d.call('GET', '/api/ddns/settings');
    expect(s.body.settings).toMatchObject({
      enabled: false,
      firstCheckDelay: 0,
      interval: 300,
      multiLevelSuffixes: [],
    });
  });

  it('adds a task with a server key, masks the secret, keeps it unless replaced', async () => {
    const { key, task } = await d.addTask({
      ...base,
      proxy: { type: 'socks5', address: '127.0.0.1:1080', password: 'pp' },
    });
    expect(key).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(task.dns.secret).toBe(SECRET_MASK);
    expect(task.proxy.password).toBe(SECRET_MASK);
    expect(task.state.domains[0]).toMatchObject({
      fqdn: 'nas.example.com',
      sub: 'nas',
      root: 'example.com',
      status: 'stopped',
    });
    const raw = JSON.stringify(await d.call('GET', '/api/ddns/tasks'));
    expect(raw).not.toContain('cf-token-123');
    expect(raw).not.toContain('"pp"');

    // Sending the mask back keeps the stored secret …
    const same = await d.call('PUT', `/api/ddns/tasks/${key}`, { ...task, state: undefined, name: 'renamed' });
    expect(same.body.ret).toBe(0);
    const cfg = d.s.server.core.store.get().modules.ddns as {
      tasks: { dns: { secret: string }; proxy: { password: string } }[];
    };
    expect(cfg.tasks[0].dns.secret).toBe('cf-token-123');
    expect(cfg.tasks[0].proxy.password).toBe('pp');
    // … a new value replaces it.
    await d.call('PUT', `/api/ddns/tasks/${key}`, { ...task, dns: { ...task.dns, secret: 'new-token' } });
    expect((d.s.server.core.store.get().modules.ddns as typeof cfg).tasks[0].dns.secret).toBe('new-token');
  });

  it('refuses bad input with the field and a stable code, and saves nothing', async () => {
    const before = JSON.stringify(stored());
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...base, domains: [] }, 'domains', 'domainsRequired'],
      [{ ...base, domains: ['not a domain'] }, 'domains.0', 'domainInvalid'],
      [{ ...base, ipSource: { type: 'url', urls: [] } }, 'ipSource.urls', 'urlsRequired'],
      [{ ...base, ipSource: { type: 'netInterface' } }, 'ipSource.netInterface', 'netInterfaceRequired'],
      [{ ...base, ipSource: { type: 'command' } }, 'ipSource.command', 'commandRequired'],
      [{ ...base, dns: { provider: 'cloudflare' } }, 'dns.secret', 'secretRequired'],
      [{ ...base, dns: { provider: 'alidns', secret: 's' } }, 'dns.id', 'idRequired'],
      [{ ...base, dns: { provider: 'callback' } }, 'dns.callback.method', 'callbackMethodRequired'],
      [
        { ...base, dns: { provider: 'callback', callback: { method: 'GET' } } },
        'dns.callback.url',
        'callbackUrlRequired',
      ],
      [{ ...base, proxy: { type: 'http' } }, 'proxy.address', 'proxyAddressRequired'],
      [{ ...base, forceInterval: 59 }, 'forceInterval', 'tooSmall'],
      [{ ...base, webhook: { enabled: true, method: 'POST' } }, 'webhook.url', 'webhookUrlRequired'],
      [
        { ...base, webhook: { enabled: true, url: 'http://127.0.0.1:9/', method: 'GET', successStrings: [] } },
        'webhook.successStrings',
        'successStringsRequired',
      ],
      [
        {
          ...base,
          webhook: { enabled: true, url: 'http://h/', method: 'GET', disableSuccessCheck: true, timeout: 61 },
        },
        'webhook.timeout',
        'tooBig',
      ],
    ];
    for (const [body, field, code] of cases) {
      const r = await d.call('POST', '/api/ddns/tasks', body);
      expect(r.status, field).toBe(400);
      expect(r.body, field).toMatchObject({ ret: 1, field, code });
    }
    expect(JSON.stringify(stored())).toBe(before);
  });

  it('unknown keys answer 404; settings are validated; the switch and sync-now follow the service', async () => {
    expect((await d.call('GET', '/api/ddns/tasks/nope')).status).toBe(404);
    expect((await d.call('DELETE', '/api/ddns/tasks/nope')).body).toMatchObject({ ret: 1, code: 'taskNotFound' });
    const bad = await d.call('PUT', '/api/ddns/settings', { interval: 29 });
    expect(bad.body).toMatchObject({ ret: 1, field: 'interval', code: 'tooSmall', params: { min: 30 } });
    const bad2 = await d.call('PUT', '/api/ddns/settings', { firstCheckDelay: 3601 });
    expect(bad2.body).toMatchObject({ field: 'firstCheckDelay', code: 'tooBig' });
    const bad3 = await d.call('PUT', '/api/ddns/settings', { multiLevelSuffixes: ['not valid'] });
    expect(bad3.body).toMatchObject({ field: 'multiLevelSuffixes.0', code: 'suffixInvalid' });

    const [{ key }] = (await d.call('GET', '/api/ddns/tasks')).body.list;
    const off = await d.call('POST', `/api/ddns/tasks/${key}/sync`);
    expect(off.status).toBe(409);
    expect(off.body.code).toBe('serviceOff');
    const dis = await d.call('PUT', `/api/ddns/tasks/${key}/enable`, { enabled: false });
    expect(dis.body.task.enabled).toBe(false);
    await d.settings({ enabled: true });
    const r = await d.call('POST', `/api/ddns/tasks/${key}/sync`);
    expect(r.body.code).toBe('taskDisabled');
    await d.settings({ enabled: false });
    expect((await d.call('DELETE', `/api/ddns/tasks/${key}`)).body.ret).toBe(0);
    expect(stored()?.tasks).toEqual([]);
  });

  it('a working task: add, check at once, log; global webhook stands in for a task without one', async () => {
    const echo = await ipEcho('192.0.2.77');
    const hook = await recorder([{ status: 200, body: 'OK done' }]);
    try {
      await d.settings({
        enabled: true,
        webhook: {
          enabled: true,
          url: `${hook.url}/g`,
          method: 'POST',
          body: 'ip=#{ipAddr}&ok=#{successDomains}',
          successStrings: ['OK'],
        },
      });
      const { key } = await d.addTask({
        name: 'cb',
        domains: ['a.example.com', 'b:example.com?x=1'],
        ipSource: { type: 'url', urls: [echo.url] },
        dns: {
          provider: 'callback',
          secret: 's3cret',
          callback: {
            method: 'GET',
            url: `${hook.url}/cb?h=#{domain}&ip=#{ip}&x=#{x}&t=#{secret}`,
            successStrings: ['OK'],
          },
        },
      });
      const t = await d.waitTask(
        key,
        (x) => statuses(x).every((s) => s === 'succeeded') && x.state.webhookHistory.length > 0,
      );
      expect(t.state.webhookHistory[0]).toMatchObject({ ok: true, target: 'global', attempts: 1 });
      const urls = hook.seen.map((s) => s.url);
      // #{x} is unknown for a.example.com (no ?x=), so it stays as written: in a URL a fragment.
      expect(urls).toContain('/cb?h=a.example.com&ip=192.0.2.77&x=');
      expect(urls).toContain('/cb?h=b.example.com&ip=192.0.2.77&x=1&t=s3cret');
      const g = hook.seen.find((s) => s.url === '/g');
      expect(g?.body).toBe('ip=192.0.2.77&ok=a.example.com%2Cb.example.com');
      expect(g?.headers['content-type']).toBe('application/x-www-form-urlencoded');
      const logs = await d.call('GET', `/api/ddns/tasks/${key}/logs`);
      expect(logs.body.logs.map((l: { text: string }) => l.text).join('\n')).toMatch(
        /a\.example\.com: updated A 192\.0\.2\.77/,
      );

      // The global webhook's proxy password is masked too.
      const s = await d.call('GET', '/api/ddns/settings');
      expect(s.body.settings.webhook.url).toBe(`${hook.url}/g`);
      await d.call('DELETE', `/api/ddns/tasks/${key}`);
      await d.settings({ enabled: false, webhook: { enabled: false } });
    } finally {
      await Promise.all([echo.close(), hook.close()]);
    }
  });

  it('tests a webhook with demo data and reports the answer', async () => {
    const hook = await recorder([{ status: 200, body: '{"errcode":0,"errmsg":"ok"}' }]);
    try {
      const webhook = {
        url: `${hook.url}/t`,
        method: 'POST',
        body: '{"t":"#{successDomainsLine}"}',
        successStrings: ['"errcode":0'],
      };
      const r = await d.call('POST', '/api/ddns/webhook/test', { webhook });
      expect(r.body).toMatchObject({ ret: 0, ok: true, status: 200, response: '{"errcode":0,"errmsg":"ok"}' });
      expect(JSON.parse(hook.seen[0].body).t).toBe('www1.example.com\nwww2.example.com\nwww3.example.com');
      const bad = await d.call('POST', '/api/ddns/webhook/test', { webhook: { ...webhook, successStrings: ['nope'] } });
      expect(bad.body).toMatchObject({ ret: 0, ok: false });
      const invalid = await d.call('POST', '/api/ddns/webhook/test', { webhook: { ...webhook, successStrings: [] } });
      expect(invalid.body).toMatchObject({ ret: 1, field: 'webhook.successStrings', code: 'successStringsRequired' });
    } finally {
      await hook.close();
    }
  });
});
