// Webhook calls against a local HTTP receiver: success strings, retries with pauses, the proxy
// choice (the webhook's own proxy, or the module's proxy type resolved by the module), the test
// button's scrubbed answer, the "empty success list" rule (a validation error, never a silent
// failure) and the bounded history per owner. The proxies are test/connect-proxy.ts.
import { webhookSchemas } from '@lucky/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { startConnectProxy } from '../../../test/connect-proxy.js';
import { recorder } from '../../../test/http-recorder.js';
import { HttpClients } from '../outbound/client.js';
import { callWebhook, testWebhook } from './call.js';
import { callView, WebhookHistory } from './history.js';

const clients = new HttpClients();
afterAll(() => clients.close());
const vars = { ipAddr: '192.0.2.5', domains: 'a.example.com' };
/** A module with an extra proxy type, as DDNS has `dns`. */
const { schema, testSchema } = webhookSchemas({ proxyTypes: ['module'] });

describe('webhook calls', () => {
  it('retries a failing call with growing pauses until it succeeds', async () => {
    const rec = await recorder([
      { status: 500, body: 'oops' },
      { status: 200, body: 'not yet' },
      { status: 200, body: 'ok done' },
    ]);
    const pauses: number[] = [];
    try {
      const w = schema.parse({
        enabled: true,
        url: `${rec.url}/h`,
        method: 'POST',
        body: '{"d":"#{domains}"}',
        successStrings: ['ok'],
        retries: 3,
      });
      const r = await callWebhook(w, vars, { http: clients, delay: async (ms: number) => void pauses.push(ms) });
      expect(r).toMatchObject({
        ok: true,
        status: 200,
        attempts: 3,
        response: 'ok done',
        reason: { code: 'webhookOk' },
      });
      expect(pauses).toEqual([1000, 2000]);
      expect(rec.seen.map((s) => s.body)).toEqual(Array(3).fill('{"d":"a.example.com"}'));
    } finally {
      await rec.close();
    }
  });

  it('gives up after the retries and says why', async () => {
    const rec = await recorder([{ status: 200, body: 'nope' }]);
    try {
      const w = schema.parse({ enabled: true, url: rec.url, method: 'GET', successStrings: ['ok'], retries: 1 });
      const r = await callWebhook(w, vars, { http: clients, delay: async () => {} });
      expect(r).toMatchObject({
        ok: false,
        attempts: 2,
        reason: { code: 'webhookCallError', params: { cause: { code: 'answerNotSuccess', params: { status: 200 } } } },
      });
      expect(r.reason.text).toBe('webhook call error: HTTP 200: the answer is not a success');
      const down = await callWebhook(
        { ...w, url: 'http://127.0.0.1:9/' },
        vars,
        { http: clients, delay: async () => {} },
        0,
      );
      expect(down.ok).toBe(false);
      expect(down.reason).toMatchObject({
        code: 'webhookCallError',
        params: { detail: expect.stringMatching(/ECONNREFUSED/) },
      });
    } finally {
      await rec.close();
    }
  });

  it("goes through the webhook's own proxy, or the one the module names for its own proxy type", async () => {
    const rec = await recorder([{ status: 200, body: 'ok' }]);
    const own = await startConnectProxy();
    const modules = await startConnectProxy();
    const target = rec.url.replace('http://', '');
    try {
      const base = { enabled: true, url: `${rec.url}/p`, method: 'GET', successStrings: ['ok'], retries: 0 };
      const asked: string[] = [];
      const env = {
        http: clients,
        delay: async () => {},
        moduleProxy: (type: string) => {
          asked.push(type);
          return { type: 'http' as const, address: modules.address, user: '', password: '' };
        },
      };
      const viaOwn = schema.parse({ ...base, proxy: { type: 'http', address: own.address } });
      expect(await callWebhook(viaOwn, vars, env)).toMatchObject({ ok: true });
      expect([own.seen, modules.seen, asked]).toEqual([[`${target} `], [], []]);
      const viaModule = schema.parse({ ...base, proxy: { type: 'module' } });
      expect(await callWebhook(viaModule, vars, env)).toMatchObject({ ok: true });
      expect([own.seen, modules.seen, asked]).toEqual([[`${target} `], [`${target} `], ['module']]);
      expect(rec.seen).toHaveLength(2);
    } finally {
      await Promise.all([rec.close(), own.close(), modules.close()]);
    }
  });

  it('the test button calls once and scrubs what the answer echoes of the secrets', async () => {
    const token = 'Zq9PlantedSecret7x4Kd2';
    const rec = await recorder([{ status: 500, body: `no such key ${token}; owner key OwnerSecret123abc` }]);
    try {
      const w = testSchema.parse({ url: `${rec.url}/send?token=${token}`, method: 'GET', successStrings: ['ok'] });
      const r = await testWebhook({ ...w, retries: 3 }, vars, {}, ['OwnerSecret123abc']);
      expect(r).toMatchObject({
        ret: 0,
        ok: false,
        status: 500,
        response: 'no such key ******; owner key ******',
        reason: { code: 'webhookCallError' },
      });
      expect(rec.seen).toHaveLength(1);
    } finally {
      await rec.close();
    }
  });

  it('an empty success list with the check on is refused, a switched-off webhook is not checked', () => {
    const r = schema.safeParse({ enabled: true, url: 'http://h/', method: 'GET', successStrings: [] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['successStrings'], message: 'successStringsRequired' });
    const ok = { enabled: true, url: 'http://h/', method: 'GET', disableSuccessCheck: true };
    expect(schema.safeParse(ok).success).toBe(true);
    // The module's own proxy type needs no address; a standard one does.
    expect(schema.safeParse({ ...ok, proxy: { type: 'module' } }).success).toBe(true);
    expect(schema.safeParse({ ...ok, proxy: { type: 'socks5' } }).error?.issues[0]).toMatchObject({
      path: ['proxy', 'address'],
      message: 'webhookProxyAddressRequired',
    });
    expect(webhookSchemas().schema.safeParse({ ...ok, proxy: { type: 'module' } }).success).toBe(false);
    expect(schema.safeParse({ enabled: false, url: '' }).success).toBe(true);
    expect(testSchema.safeParse({ enabled: false, url: '' }).error?.issues[0]).toMatchObject({
      path: ['url'],
      message: 'webhookUrlRequired',
    });
  });
});

describe('webhook history', () => {
  it('keeps the newest calls of each owner, at most ten, and forgets removed owners', () => {
    const h = new WebhookHistory();
    for (let i = 0; i < 12; i++)
      h.add(
        'a',
        callView(
          { ok: i % 2 === 0, attempts: 1, status: 200 + i, reason: { code: 'x', text: 'x' }, response: '' },
          new Date(i * 1000),
        ),
      );
    h.add('b', callView({ ok: true, attempts: 2, reason: { code: 'webhookOk', text: '' }, response: '' }, new Date(0)));
    const a = h.of('a');
    expect(a).toHaveLength(10);
    expect(a.map((e) => e.status)).toEqual([211, 210, 209, 208, 207, 206, 205, 204, 203, 202]);
    expect(a[0]).toEqual({
      time: new Date(11_000).toISOString(),
      ok: false,
      attempts: 1,
      status: 211,
      reason: { code: 'x', text: 'x' },
    });
    expect(h.of('b')[0]).not.toHaveProperty('status');
    h.keep(['b']);
    expect([h.of('a'), h.of('b').length]).toEqual([[], 1]);
  });
});
