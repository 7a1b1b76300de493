// The DDNS REST calls on a real server: CRUD with server-assigned keys, validation answers
// (field + stable code + params, nothing saved), secrets masked on read and kept unless replaced,
// the module switch (no runtime, no timer while off), "sync now", settings, coded task logs and
// the webhook test. The module is off unless a test switches it on, so nothing is sent anywhere.
import { SECRET_MASK } from '@lucky/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Ddns, ipEcho, startDdns, statuses } from './ddns-helpers.js';
import { recorder } from './http-recorder.js';
import { staysFalse } from './wait.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field
type Json = any;

let d: Ddns;
beforeAll(async () => {
  // A program that started an hour ago: a module switched on now has waited its first-check delay.
  d = await startDdns({ secondMs: 50, bootAt: Date.now() - 3_600_000 });
});
afterAll(async () => d?.close());

const base = {
  name: 'home',
  domains: ['nas.example.com'],
  ipSource: { type: 'url', urls: ['http://127.0.0.1:9/'] },
  dns: { provider: 'cloudflare', secret: 'cf-token-123' },
};

const stored = () => d.s.server.core.store.get().modules.ddns as { tasks: { key: string }[] } | undefined;
const moduleState = async () =>
  ((await d.call('GET', '/api/modules/status')).body.list as { key: string; state: string }[]).find(
    (m) => m.key === 'ddns',
  )?.state;

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

  it('starts off with no tasks: the module is disabled and has no runtime', async () => {
    const r = await d.call('GET', '/api/ddns/tasks');
    expect(r.body).toEqual({ ret: 0, enabled: false, list: [] });
    expect(await moduleState()).toBe('disabled');
    expect(d.s.server.core.modules.runtimeOf('ddns')).toBeUndefined();
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
    const cases: [Record<string, unknown>, string, string, Record<string, unknown>?][] = [
      [{ ...base, domains: [] }, 'domains', 'domainsRequired'],
      [{ ...base, domains: ['not a domain'] }, 'domains.0', 'domainInvalid'],
      [{ ...base, ipSource: { type: 'url', urls: [] } }, 'ipSource.urls', 'urlsRequired'],
      [{ ...base, ipSource: { type: 'netInterface' } }, 'ipSource.netInterface', 'netInterfaceRequired'],
      [{ ...base, ipSource: { type: 'command' } }, 'ipSource.command', 'commandRequired'],
      [{ ...base, dns: { provider: 'cloudflare' } }, 'dns.secret', 'secretRequired', { provider: 'cloudflare' }],
      [{ ...base, dns: { provider: 'alidns', secret: 's' } }, 'dns.id', 'idRequired'],
      [{ ...base, dns: { provider: 'callback' } }, 'dns.callback.method', 'callbackMethodRequired'],
      [
        { ...base, dns: { provider: 'callback', callback: { method: 'GET' } } },
        'dns.callback.url',
        'callbackUrlRequired',
      ],
      [{ ...base, proxy: { type: 'http' } }, 'proxy.address', 'proxyAddressRequired'],
      [{ ...base, forceInterval: 59 }, 'forceInterval', 'tooSmall', { min: 60, max: 3600 }],
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
        { min: 3, max: 60 },
      ],
    ];
    for (const [body, field, code, params] of cases) {
      const r = await d.call('POST', '/api/ddns/tasks', body);
      expect(r.status, field).toBe(400);
      expect(r.body, field).toMatchObject({ ret: 1, field, code, params: params ?? {} });
      expect(r.body.msg, field).toContain(field);
    }
    expect(JSON.stringify(stored())).toBe(before);
  });

  it('a refusal that only the whole slice finds is named on the task’s own field, and nothing is saved', async () => {
    const { key, task } = await d.addTask({ ...base, name: 'tsig' });
    const before = JSON.stringify(stored());
    // The masked secret passes the body's check, but the kept Cloudflare token is no TSIG key.
    const r = await d.call('PUT', `/api/ddns/tasks/${key}`, {
      ...task,
      state: undefined,
      dns: { ...task.dns, provider: 'rfc2136', server: '127.0.0.1:53', id: 'key1' },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ ret: 1, field: 'dns.secret', code: 'tsigSecretInvalid', params: {} });
    expect(JSON.stringify(stored())).toBe(before);
    await d.call('DELETE', `/api/ddns/tasks/${key}`);
  });

  it('every whole-value secret is masked on read and kept by a masked write', async () => {
    const proxy = { type: 'http', address: '127.0.0.1:3128' };
    const { key, task } = await d.addTask({
      ...base,
      name: 'pw',
      webhook: { enabled: false, proxy: { ...proxy, password: 'hook-pw-1' } },
    });
    await d.settings({ webhook: { enabled: false, proxy: { ...proxy, password: 'global-pw-1' } } });
    const reads = JSON.stringify([
      (await d.call('GET', '/api/ddns/tasks')).body,
      (await d.call('GET', `/api/ddns/tasks/${key}`)).body,
      (await d.call('GET', '/api/ddns/settings')).body,
    ]);
    for (const secret of ['cf-token-123', 'hook-pw-1', 'global-pw-1']) expect(reads).not.toContain(secret);
    expect(task.webhook.proxy.password).toBe(SECRET_MASK);
    const settings = (await d.call('GET', '/api/ddns/settings')).body.settings;
    expect(settings.webhook.proxy.password).toBe(SECRET_MASK);
    // Sent back as read: the stored values stay.
    await d.call('PUT', `/api/ddns/tasks/${key}`, { ...task, state: undefined });
    await d.settings(settings);
    const cfg = d.s.server.core.store.get().modules.ddns as Json;
    const saved = cfg.tasks.find((t: Json) => t.key === key);
    expect([saved.dns.secret, saved.webhook.proxy.password, cfg.webhook.proxy.password]).toEqual([
      'cf-token-123',
      'hook-pw-1',
      'global-pw-1',
    ]);
    await d.call('DELETE', `/api/ddns/tasks/${key}`);
    await d.settings({ webhook: { enabled: false } });
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
      // Every line and status is coded: the browser words it in the user's language.
      expect(logs.body).toMatchObject({ ret: 0, page: 1, pageSize: 50 });
      expect(logs.body.total).toBe(logs.body.logs.length);
      expect(logs.body.logs.every((l: Json) => typeof l.code === 'string' && typeof l.seq === 'number')).toBe(true);
      expect(logs.body.logs).toContainEqual(
        expect.objectContaining({
          level: 4,
          code: 'recordUpdated',
          params: { fqdn: 'a.example.com', type: 'A', ip: '192.0.2.77' },
          text: 'a.example.com: updated A 192.0.2.77',
        }),
      );
      expect(logs.body.logs.at(-1)).toMatchObject({
        code: 'ipGot',
        params: { ip: '192.0.2.77', from: { code: 'fromUrl', params: { url: echo.url } } },
      });
      expect(t.state.domains[0].reason).toMatchObject({
        code: 'recordUpdated',
        params: { type: 'A', ip: '192.0.2.77' },
      });
      expect(t.state.webhookHistory[0].reason).toMatchObject({ code: 'webhookOk' });
      const page2 = await d.call('GET', `/api/ddns/tasks/${key}/logs?page=2&pageSize=1`);
      expect(page2.body.logs).toEqual([logs.body.logs[1]]);

      // The global webhook's proxy password is masked too.
      const s = await d.call('GET', '/api/ddns/settings');
      expect(s.body.settings.webhook.url).toBe(`${hook.url}/g`);
      await d.call('DELETE', `/api/ddns/tasks/${key}`);
      await d.settings({ enabled: false, webhook: { enabled: false } });
    } finally {
      await Promise.all([echo.close(), hook.close()]);
    }
  });

  it('the module switch: off means no runtime and no timer, on checks at once, off again stops it all', async () => {
    const echo = await ipEcho('192.0.2.88');
    const hook = await recorder([{ status: 200, body: 'OK' }]);
    try {
      const { key } = await d.addTask({
        name: 'switch',
        domains: ['s.example.com'],
        ipSource: { type: 'url', urls: [echo.url] },
        dns: {
          provider: 'callback',
          callback: { method: 'GET', url: `${hook.url}/s?ip=#{ip}`, successStrings: ['OK'] },
        },
      });
      // Off: nothing runs, the task reads "stopped", the log is empty and "sync now" is refused.
      expect(await moduleState()).toBe('disabled');
      expect(d.s.server.core.modules.runtimeOf('ddns')).toBeUndefined();
      expect(statuses(await d.task(key))).toEqual(['stopped']);
      expect((await d.call('GET', `/api/ddns/tasks/${key}/logs`)).body).toMatchObject({ ret: 0, total: 0, logs: [] });
      const refused = await d.call('POST', `/api/ddns/tasks/${key}/sync`);
      expect([refused.status, refused.body.code]).toEqual([409, 'serviceOff']);
      // Off for a while: no round asks the echo page (a first round with no delay would at once).
      expect(await staysFalse(() => echo.state.hits > 0, 300)).toBe(true);

      // On through the core's module switch: the first round runs at once, since the first-check
      // delay (3 minutes on this clock) counts from the program's start an hour ago, not from the switch.
      await d.settings({ firstCheckDelay: 3600 });
      const on = await d.call('PUT', '/api/modules/ddns/enabled', { enabled: true });
      expect(on.body).toMatchObject({ ret: 0, status: { state: 'running', enabled: true } });
      await d.waitTask(key, (t) => statuses(t)[0] === 'succeeded');
      expect((await d.call('GET', '/api/ddns/tasks')).body.enabled).toBe(true);
      expect((await d.call('GET', '/api/ddns/settings')).body.settings.enabled).toBe(true);

      // Off again: the runtime is gone with its timer; nothing more is asked.
      await d.call('PUT', '/api/modules/ddns/enabled', { enabled: false });
      expect(await moduleState()).toBe('disabled');
      expect(d.s.server.core.modules.runtimeOf('ddns')).toBeUndefined();
      const hits = echo.state.hits;
      expect(await staysFalse(() => echo.state.hits > hits, 300)).toBe(true);
      expect(statuses(await d.task(key))).toEqual(['stopped']);
      expect((await d.call('DELETE', `/api/ddns/tasks/${key}`)).body.ret).toBe(0);
      await d.settings({ firstCheckDelay: 0 });
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
      expect(r.body).toMatchObject({
        ret: 0,
        ok: true,
        status: 200,
        reason: { code: 'webhookOk' },
        response: '{"errcode":0,"errmsg":"ok"}',
      });
      expect(JSON.parse(hook.seen[0].body).t).toBe('www1.example.com\nwww2.example.com\nwww3.example.com');
      const bad = await d.call('POST', '/api/ddns/webhook/test', { webhook: { ...webhook, successStrings: ['nope'] } });
      expect(bad.body).toMatchObject({
        ret: 0,
        ok: false,
        reason: { code: 'webhookCallError', params: { cause: { code: 'answerNotSuccess', params: { status: 200 } } } },
      });
      const invalid = await d.call('POST', '/api/ddns/webhook/test', { webhook: { ...webhook, successStrings: [] } });
      expect(invalid.body).toMatchObject({ ret: 1, field: 'webhook.successStrings', code: 'successStringsRequired' });
    } finally {
      await hook.close();
    }
  });
});
