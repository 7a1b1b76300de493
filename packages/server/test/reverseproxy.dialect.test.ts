// The web service speaks the module contract's dialect (issue 13 §1): a stored slice of the old
// shape loads through its migration; the module switch is run by the supervisor; header secrets
// are masked on read and kept on a masked write; log lines in words and rule reasons are coded;
// a taken port is tried again.
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_FILE } from '../src/core/config/store.js';
import { startTestServer, type TestServer, tempDir } from './harness.js';
import { type Backend, backend, freePort, get, type Rp, startRp } from './reverseproxy-helpers.js';
import { waitFor } from './wait.js';

let rp: Rp;
let back: Backend;
beforeAll(async () => {
  rp = await startRp();
  back = await backend('b');
});
afterAll(async () => {
  await rp?.close();
  await back?.close();
});

const stored = () => structuredClone(rp.s.server.core.store.get().modules.reverseproxy) as Record<string, unknown>;

/** True when something accepts TCP connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const c = net.connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });

describe('web service: stored config of the old shape', () => {
  it('loads through the migration (`enable` → `enabled`) and is saved in the new shape with its version', async () => {
    const dir = await tempDir('lucky-rp-migrate-');
    let s: TestServer | undefined = await startTestServer({ configDir: dir });
    await s.server.close();
    const port = await freePort();
    const file = path.join(dir, CONFIG_FILE);
    const config = JSON.parse(await fs.readFile(file, 'utf8'));
    // What an older version wrote: no `version`, every switch named `enable`.
    config.modules.reverseproxy = {
      enabled: true,
      rules: [
        {
          key: 'OldRule1',
          name: 'old',
          enable: true,
          address: '127.0.0.1',
          port,
          defaultRule: { enable: true, serviceType: 'text', text: 'default' },
          subRules: [
            {
              key: 'OldSub1',
              enable: true,
              domains: ['auth.test'],
              serviceType: 'text',
              text: 'secret area',
              basicAuth: { enable: true, user: 'u', password: 'p' },
              robots: { enable: true, text: 'User-agent: *\nDisallow: /\n' },
            },
            { key: 'OldSub2', enable: false, domains: ['off.test'], serviceType: 'text', text: 'off' },
          ],
        },
      ],
    };
    await fs.writeFile(file, JSON.stringify(config));
    s = await startTestServer({ configDir: dir });
    try {
      const token = await s.login();
      const rule = (await s.call('GET', '/api/reverseproxy/rules/OldRule1', { token })).body.rule;
      expect(rule).toMatchObject({ enabled: true, status: { state: 'running' } });
      expect(rule.subRules[0]).toMatchObject({ enabled: true, basicAuth: { enabled: true, password: '******' } });
      expect(rule.subRules[1].enabled).toBe(false);
      expect(JSON.stringify(rule)).not.toContain('"enable"');
      // The switches still do what they said.
      expect((await get(port, '/', 'auth.test')).status).toBe(401);
      const auth = { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` };
      expect((await get(port, '/', 'auth.test', auth)).body).toBe('secret area');
      expect((await get(port, '/robots.txt', 'auth.test', auth)).body).toContain('Disallow');
      expect((await get(port, '/', 'off.test')).body).toBe('default');
      // A save writes the new shape with the slice's version.
      const on = await s.call('PUT', '/api/reverseproxy/rules/OldRule1/subrules/OldSub2/enable', {
        token,
        body: { enabled: true },
      });
      expect(on.body.ret, JSON.stringify(on.body)).toBe(0);
      const saved = s.server.core.store.get().modules.reverseproxy as Record<string, unknown>;
      expect(saved.version).toBe(1);
      expect(JSON.stringify(saved)).not.toContain('"enable"');
      expect(JSON.stringify(saved)).toContain('"password":"p"');
      expect((await get(port, '/', 'off.test')).body).toBe('off');
    } finally {
      await s.server.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('web service: the module switch', () => {
  it('off: state disabled, no listener, rules kept and readable; on: serves again', async () => {
    const port = await freePort();
    const { key } = await rp.addRule({ name: 'switch', port, defaultRule: { serviceType: 'text', text: 'on' } });
    expect((await get(port, '/', 'x.test')).body).toBe('on');

    const off = await rp.call('PUT', '/api/modules/reverseproxy/enabled', { enabled: false });
    expect(off.body).toMatchObject({ ret: 0, status: { state: 'disabled', enabled: false } });
    expect(await listening(port)).toBe(false);
    expect(rp.s.server.core.ports.list().filter((c) => c.owner.module === 'reverseproxy')).toEqual([]);
    const list = (await rp.call('GET', '/api/reverseproxy/rules')).body;
    expect(list.enabled).toBe(false);
    const rule = list.list.find((r: { key: string }) => r.key === key);
    expect(rule.status).toMatchObject({ state: 'stopped', reason: { code: 'moduleDisabled' } });
    expect((await rp.call('GET', `/api/reverseproxy/rules/${key}/logs`)).body).toMatchObject({ ret: 0, total: 0 });
    // Edits while off are saved and apply when it comes back.
    const edit = await rp.call('PUT', `/api/reverseproxy/rules/${key}`, {
      ...rule,
      defaultRule: { ...rule.defaultRule, text: 'edited' },
    });
    expect(edit.body.ret, JSON.stringify(edit.body)).toBe(0);
    expect(await listening(port)).toBe(false);

    const on = await rp.call('PUT', '/api/modules/reverseproxy/enabled', { enabled: true });
    expect(on.body).toMatchObject({ ret: 0, status: { state: 'running', enabled: true } });
    expect((await get(port, '/', 'x.test')).body).toBe('edited');
    expect((await rp.call('GET', '/api/reverseproxy/rules')).body.enabled).toBe(true);
    expect(rp.s.server.core.ports.list()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ proto: 'tcp', port, owner: { module: 'reverseproxy', item: 'switch' } }),
      ]),
    );
    expect((await rp.call('DELETE', `/api/reverseproxy/rules/${key}`)).body.ret).toBe(0);
  });
});

describe('web service: secrets in header values', () => {
  it('masks credential values in part, keeps them on a masked write, refuses a mask it cannot match', async () => {
    const port = await freePort();
    const token = 'Tk7Qz9Planted4Header2Value';
    const { key } = await rp.addRule({
      name: 'headers',
      port,
      defaultRule: {
        serviceType: 'proxy',
        targets: [back.url],
        requestHeaders: [
          { name: 'Authorization', value: `Bearer ${token}` },
          { name: 'X-Plain', value: 'visible' },
          { name: 'X-Api-Key', value: 'k1' },
        ],
      },
    });
    const rule = (await rp.call('GET', `/api/reverseproxy/rules/${key}`)).body.rule;
    expect(JSON.stringify(rule)).not.toContain(token);
    expect(rule.defaultRule.requestHeaders).toEqual([
      { name: 'Authorization', value: 'Bearer ******' },
      { name: 'X-Plain', value: 'visible' },
      { name: 'X-Api-Key', value: '******' },
    ]);
    // Sent back re-ordered and with one plain value changed: every stored secret stays with its header.
    const headers = [
      rule.defaultRule.requestHeaders[2],
      { name: 'X-Plain', value: 'changed' },
      rule.defaultRule.requestHeaders[0],
    ];
    const put = await rp.call('PUT', `/api/reverseproxy/rules/${key}`, {
      ...rule,
      defaultRule: { ...rule.defaultRule, requestHeaders: headers },
    });
    expect(put.body.ret, JSON.stringify(put.body)).toBe(0);
    const sent = JSON.parse((await get(port, '/', 'x.test')).body).headers;
    expect(sent).toMatchObject({ authorization: `Bearer ${token}`, 'x-plain': 'changed', 'x-api-key': 'k1' });

    // A mask where nothing is stored: refused on its field with the code, nothing saved.
    const before = JSON.stringify(stored());
    const bad = await rp.call('PUT', `/api/reverseproxy/rules/${key}`, {
      ...rule,
      defaultRule: { ...rule.defaultRule, requestHeaders: [...headers, { name: 'X-New-Token', value: '******' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      ret: 1,
      field: 'defaultRule.requestHeaders.3.value',
      code: 'secretMaskUnmatched',
    });
    expect(JSON.stringify(stored())).toBe(before);
    expect((await rp.call('DELETE', `/api/reverseproxy/rules/${key}`)).body.ret).toBe(0);
  });
});

describe('web service: coded log lines and reasons', () => {
  it('refusals and back-end failures are logged as code + params + English; the access line stays text', async () => {
    const port = await freePort();
    const gone = await freePort();
    const { key } = await rp.addRule({
      name: 'logs',
      port,
      defaultRule: { serviceType: 'text', text: 'x', log: { level: 5 } },
      subRules: [
        { domains: ['ip.test'], serviceType: 'text', ipFilter: { mode: 'blacklist', list: ['127.0.0.1'] } },
        { domains: ['down.test'], serviceType: 'proxy', targets: [`http://127.0.0.1:${gone}`] },
      ],
    });
    expect((await get(port, '/', 'ip.test')).status).toBe(403);
    expect((await get(port, '/', 'down.test')).status).toBe(502);
    const rule = (await rp.call('GET', `/api/reverseproxy/rules/${key}`)).body.rule;
    const [ipSite, downSite] = rule.subRules.map((s: { key: string }) => s.key);
    const logs = async (site: string) =>
      (await rp.call('GET', `/api/reverseproxy/rules/${key}/logs?site=${site}&order=oldest`)).body.logs;
    const refused = (await logs(ipSite)).find((l: { code?: string }) => l.code === 'refused');
    expect(refused).toMatchObject({
      level: 3,
      params: { status: 403, client: '127.0.0.1', method: 'GET', host: 'ip.test', url: '/' },
      text: 'refused 403 [127.0.0.1] GET ip.test/',
    });
    const down = await logs(downSite);
    expect(down.find((l: { code?: string }) => l.code === 'proxyError')).toMatchObject({
      level: 2,
      params: { origin: `http://127.0.0.1:${gone}`, detail: expect.stringMatching(/^ECONNREFUSED/) },
      text: expect.stringMatching(/^proxy error http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/),
    });
    const access = down.find((l: { text: string }) => l.text.includes('down.test/ 502'));
    expect(access.code).toBeUndefined();
    expect((await rp.call('DELETE', `/api/reverseproxy/rules/${key}`)).body.ret).toBe(0);
  });

  it('a taken port is a coded reason, tried again until the rule listens', async () => {
    const port = await freePort();
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', r));
    const r = await rp.call('POST', '/api/reverseproxy/rules', {
      name: 'later',
      address: '127.0.0.1',
      port,
      defaultRule: { serviceType: 'text', text: 'here now' },
    });
    expect(r.body.ret, JSON.stringify(r.body)).toBe(0);
    expect(r.body.rule.status).toMatchObject({
      state: 'error',
      reason: { code: 'portInUse', params: { port, address: `127.0.0.1:${port}` } },
    });
    await new Promise<void>((done) => blocker.close(() => done()));
    const running = await waitFor(
      async () => (await rp.call('GET', `/api/reverseproxy/rules/${r.body.key}`)).body.rule.status,
      (s: { state: string; reason?: unknown }) => s.state === 'running',
      15_000,
    );
    expect(running.reason).toBeUndefined();
    expect((await get(port, '/', 'x.test')).body).toBe('here now');
    expect((await rp.call('DELETE', `/api/reverseproxy/rules/${r.body.key}`)).body.ret).toBe(0);
  }, 30_000);
});
