// Secrets on read (issue 12 §6): a distinctive secret is planted in every secret-bearing field
// of every module and the core (DDNS provider secret, callback / webhook URLs, headers and
// bodies, proxy passwords, IP-source URLs; web service basic auth and credential headers; the
// port-forwarding TLS key; a stored certificate's key; an API token). Then EVERY GET route of
// the registry is called — the log APIs included, after the DDNS task has failed against a
// provider that echoes the token — and no answer may contain a secret. Finally each entity is
// saved back exactly as read (with its masks) and the stored secrets must be intact and still
// used: the DDNS callback and webhook carry them, the proxy checks the password and sends the
// header, the TLS port answers with the planted pair.
import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { b64, makeCert } from '../certs-helpers.js';
import { ipEcho } from '../ddns-helpers.js';
import { startTestServer, type TestServer } from '../harness.js';
import { recorder } from '../http-recorder.js';
import { echoServer, freePort, type Peer } from '../portforward-helpers.js';
import { type Backend, backend, get } from '../reverseproxy-helpers.js';
import { waitFor } from '../wait.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field
type Json = any;

const S = 'Zq9PlantedSecret7x4Kd2';
/** The base64 body of a PEM key: what must never be read back. */
const keyBody = (pem: string) => pem.split('\n').filter((l) => l && !l.startsWith('-----'))[1];

/** Calls with side effects a walk must not trigger. */
const SKIP = new Map([
  ['GET /api/reboot_program', 'restarts the worker'],
  // The backup is the admin's own full copy of the config: it keeps the secrets (checked below).
  ['GET /api/configure', 'full backup download'],
]);

let s: TestServer;
let token: string;
let rec: Awaited<ReturnType<typeof recorder>>;
let echo: Awaited<ReturnType<typeof ipEcho>>;
let back: Backend;
let pfTarget: Peer;
const secrets: string[] = [S];
const keys = { ddns: '', rp: '', sub: '', pf: '' };
let rpPort = 0;
let pfPort = 0;
let pfCert = '';

const call = async (method: string, path: string, body?: unknown) => {
  const r = await s.call(method, path, { token, body });
  return r;
};
const ok = async (method: string, path: string, body?: unknown) => {
  const r = await call(method, path, body);
  expect(r.body?.ret, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(0);
  return r.body as Json;
};
const config = () => structuredClone(s.server.core.store.get().modules) as Json;

beforeAll(async () => {
  // The provider refuses and quotes the token back: the failure text must be scrubbed.
  rec = await recorder([{ status: 500, body: `denied for token=${S}` }]);
  echo = await ipEcho('203.0.113.7');
  back = await backend('b');
  pfTarget = await echoServer();
  s = await startTestServer();
  token = await s.login();

  // ---- DDNS: the global webhook, then a task with a secret in every field that can hold one.
  await ok('PUT', '/api/ddns/settings', {
    enabled: true,
    webhook: {
      enabled: true,
      url: `${rec.url}/global?token=${S}`,
      method: 'POST',
      headers: [`Authorization: Bearer ${S}`, 'Content-Type: application/json'],
      body: `{"secret":"${S}","ip":"#{ipAddr}"}`,
      successStrings: ['ok'],
      proxy: { type: 'none', password: S },
    },
  });
  const task = await ok('POST', '/api/ddns/tasks', {
    name: 'walk',
    domains: ['a.example.com'],
    ipSource: { type: 'url', urls: [`${echo.url}?key=${S}`] },
    dns: {
      provider: 'callback',
      id: 'user1',
      secret: S,
      callback: {
        method: 'POST',
        url: `${rec.url}/cb?token=${S}&ip=#{ip}`,
        headers: ['BasicAuthUserName:user1', `BasicAuthPassword:${S}`, `X-Api-Key: ${S}`],
        body: `{"password":"${S}","ip":"#{ip}"}`,
        successStrings: ['good'],
      },
    },
    proxy: { type: 'none', password: S },
    webhook: {
      enabled: true,
      url: `${rec.url}/hook/${S}`,
      method: 'POST',
      headers: [`Cookie: sid=${S}`],
      body: `token=${S}&ip=#{ipAddr}`,
      successStrings: ['ok'],
      proxy: { type: 'none', password: S },
    },
  });
  keys.ddns = task.key;

  // ---- Web service: basic auth and a credential header towards the back end, on both levels.
  rpPort = await freePort();
  const service = {
    serviceType: 'proxy',
    targets: [back.url],
    basicAuth: { enabled: true, user: 'u', password: S },
    requestHeaders: [
      { name: 'X-Auth-Token', value: S },
      { name: 'X-Plain', value: 'visible' },
    ],
    customConfig: `proxy_set_header X-Api-Key "${S}";\nadd_header X-Shown visible`,
  };
  const rule = await ok('POST', '/api/reverseproxy/rules', {
    address: '127.0.0.1',
    port: rpPort,
    defaultRule: service,
    subRules: [
      { ...service, domains: ['sub.test'], requestHeaders: [{ name: 'Authorization', value: `Bearer ${S}` }] },
    ],
  });
  keys.rp = rule.key;
  keys.sub = rule.rule.subRules[0].key;

  // ---- Port forwarding: a TLS-terminating rule with its own key.
  const pfPair = await makeCert(['pf.test']);
  pfCert = pfPair.cert;
  secrets.push(keyBody(pfPair.key));
  await ok('PUT', '/api/portforward/settings', { enabled: true });
  pfPort = await freePort();
  const pf = await ok('POST', '/api/portforward/rules', {
    forwardTypes: ['tcp4'],
    listenAddress: '127.0.0.1',
    listenPorts: String(pfPort),
    targetAddresses: ['127.0.0.1'],
    targetPorts: String(pfTarget.port),
    tlsMode: 'terminate',
    tlsCert: pfPair.cert,
    tlsKey: pfPair.key,
  });
  keys.pf = pf.key;

  // ---- Core: a stored certificate and an API token.
  const cert = await makeCert(['c.test']);
  secrets.push(keyBody(cert.key));
  await ok('POST', '/api/ssl', { CertBase64: b64(cert.cert), KeyBase64: b64(cert.key) });
  const apiToken = await ok('POST', '/api/apitokens', { name: 'walk', password: '666', currentPassword: '666' });
  secrets.push(apiToken.token);
  // The security lists' knock password: its scrypt hash is never read back (hasPassword says it).
  await ok('PUT', '/api/safe/settings', { knock: { enabled: true, password: S } });
  secrets.push(s.server.core.store.get().safe.knock.passwordHash);

  // Let the task fail once against the provider (status, histories and log lines quote it),
  // and one proxied request reach the access log.
  await ok('POST', `/api/ddns/tasks/${keys.ddns}/sync?wait=1`);
  await waitFor(
    async () => (await ok('GET', `/api/ddns/tasks/${keys.ddns}`)).task,
    (t) => t.state.domains[0]?.status === 'failed' && t.state.webhookHistory.length > 0,
    10_000,
  );
  expect((await get(rpPort, '/x?q=1', 'other.test', { authorization: `Basic ${b64(`u:${S}`)}` })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await s?.close();
  await Promise.all([rec?.close(), echo?.close(), back?.close(), pfTarget?.close()]);
});

/** The path of a route with its parameters filled in with the planted entities. */
function concrete(path: string): string {
  const key = path.startsWith('/api/ddns/')
    ? keys.ddns
    : path.startsWith('/api/reverseproxy/')
      ? keys.rp
      : path.startsWith('/api/portforward/')
        ? keys.pf
        : 'x';
  return path.replace(':key', key).replace(':sub', keys.sub).replace(/:\w+/g, 'x');
}

describe('secrets on read', () => {
  it('the provider saw the planted secrets (the task really used them)', () => {
    const cb = rec.seen.find((r) => r.url.startsWith('/cb'));
    expect(cb?.url).toContain(`token=${S}`);
    expect(cb?.headers['x-api-key']).toBe(S);
    expect(cb?.headers.authorization).toBe(`Basic ${b64(`user1:${S}`)}`);
    expect(cb?.body).toContain(S);
    expect(rec.seen.some((r) => r.url === `/hook/${S}` && r.body.includes(S))).toBe(true);
  });

  it('no GET route of the registry answers a planted secret, log APIs included', async () => {
    const routes = s.server.admin.registry.routes.filter((r) => r.method === 'GET');
    expect(routes.length).toBeGreaterThan(25);
    const walked: string[] = [];
    const leaks: string[] = [];
    for (const r of routes) {
      const id = `GET ${r.path}`;
      if (SKIP.has(id)) continue;
      const paths = [concrete(r.path)];
      if (r.path === '/api/reverseproxy/rules/:key/logs') paths.push(`${paths[0]}?site=${keys.sub}`);
      if (r.path.endsWith('/logs')) paths.push(`${paths[0]}${paths[0].includes('?') ? '&' : '?'}pageSize=1000`);
      for (const p of paths) {
        const res = await s.call('GET', p, { token });
        const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
        secrets.forEach((secret, i) => {
          if (text.includes(secret)) leaks.push(`${p} shows secret #${i}`);
        });
        walked.push(`${p} ${res.status}`);
      }
    }
    expect(leaks).toEqual([]);
    // The walk reached the entities and their logs (not just 404s).
    for (const p of [
      `/api/ddns/tasks/${keys.ddns} 200`,
      `/api/ddns/tasks/${keys.ddns}/logs 200`,
      '/api/ddns/settings 200',
      `/api/reverseproxy/rules/${keys.rp} 200`,
      `/api/portforward/rules/${keys.pf} 200`,
      '/api/logs 200',
      '/api/ssl 200',
      '/api/apitokens 200',
      '/api/safe 200',
    ])
      expect(walked).toContain(p);
    // The DDNS failure was logged (with the token masked).
    const logs = (await ok('GET', `/api/ddns/tasks/${keys.ddns}/logs`)).logs as { text: string }[];
    expect(logs.some((l) => l.text.includes('denied for token=******'))).toBe(true);
    // The backup download is the admin's full copy: it keeps the secrets, by design.
    expect(JSON.stringify((await s.call('GET', '/api/configure', { token })).body)).toContain(S);
  });

  it('reads show where secrets are kept: masks in place, the rest readable', async () => {
    const t = (await ok('GET', `/api/ddns/tasks/${keys.ddns}`)).task;
    expect(t.dns).toMatchObject({ id: 'user1', secret: '******' });
    expect(t.dns.callback.url).toBe(`${rec.url}/cb?token=******&ip=#{ip}`);
    expect(t.dns.callback.headers).toEqual([
      'BasicAuthUserName:user1',
      'BasicAuthPassword:******',
      'X-Api-Key: ******',
    ]);
    expect(t.webhook.url).toBe(`${rec.url}/hook/******`);
    expect(t.ipSource.urls).toEqual([`${echo.url}?key=******`]);
    const r = (await ok('GET', `/api/reverseproxy/rules/${keys.rp}`)).rule;
    expect(r.defaultRule.requestHeaders).toEqual([
      { name: 'X-Auth-Token', value: '******' },
      { name: 'X-Plain', value: 'visible' },
    ]);
    expect(r.subRules[0].requestHeaders).toEqual([{ name: 'Authorization', value: 'Bearer ******' }]);
    expect(r.defaultRule.basicAuth).toMatchObject({ password: '******' });
    expect(r.defaultRule.basicAuth.passwordSet).toBeUndefined();
    expect(r.defaultRule.customConfig).toBe('proxy_set_header X-Api-Key "******";\nadd_header X-Shown visible');
  });
});

describe('saved back as read', () => {
  it('DDNS: task and settings keep every stored secret, and the calls still carry them', async () => {
    const before = config().ddns;
    const { key: _k, state: _s, ...task } = (await ok('GET', `/api/ddns/tasks/${keys.ddns}`)).task;
    await ok('PUT', `/api/ddns/tasks/${keys.ddns}`, task);
    await ok('PUT', '/api/ddns/settings', (await ok('GET', '/api/ddns/settings')).settings);
    expect(config().ddns).toEqual(before);
    // The webhook test with the masked global webhook sends the stored secrets.
    const n = rec.seen.length;
    const w = (await ok('GET', '/api/ddns/settings')).settings.webhook;
    const test = await ok('POST', '/api/ddns/webhook/test', { webhook: w, key: '' });
    expect(JSON.stringify(test)).not.toContain(S);
    const sent = rec.seen.slice(n).find((r) => r.url.startsWith('/global'));
    expect(sent?.url).toContain(`token=${S}`);
    expect(sent?.headers.authorization).toBe(`Bearer ${S}`);
    expect(sent?.body).toContain(S);
  });

  it('web service: rule and sub rule keep the password and the header values, and the proxy uses them', async () => {
    const before = config().reverseproxy;
    const view = (await ok('GET', `/api/reverseproxy/rules/${keys.rp}`)).rule;
    await ok('PUT', `/api/reverseproxy/rules/${keys.rp}`, view);
    const sub = (await ok('GET', `/api/reverseproxy/rules/${keys.rp}`)).rule.subRules[0];
    await ok('PUT', `/api/reverseproxy/rules/${keys.rp}/subrules/${keys.sub}`, sub);
    expect(config().reverseproxy).toEqual(before);
    const auth = { authorization: `Basic ${b64(`u:${S}`)}` };
    const d = await get(rpPort, '/', 'other.test', auth);
    expect(d.status).toBe(200);
    expect(JSON.parse(d.body).headers['x-auth-token']).toBe(S);
    // The custom config's secret header too.
    expect(JSON.parse(d.body).headers['x-api-key']).toBe(S);
    expect(d.headers['x-shown']).toBe('visible');
    expect((await get(rpPort, '/', 'other.test', { authorization: `Basic ${b64('u:******')}` })).status).toBe(401);
    // The sub rule's own Authorization header replaces the client's towards the back end.
    const sb = await get(rpPort, '/', 'sub.test', auth);
    expect(sb.status).toBe(200);
    expect(JSON.parse(sb.body).headers.authorization).toBe(`Bearer ${S}`);
  });

  it('port forwarding: the TLS key is kept and the port still answers with the planted pair', async () => {
    const before = config().portforward;
    const { key: _k, proxies: _p, lastLogs: _l, ...rule } = (await ok('GET', `/api/portforward/rules/${keys.pf}`)).rule;
    expect(rule.tlsKey).toBe('******');
    await ok('PUT', `/api/portforward/rules/${keys.pf}`, rule);
    expect(config().portforward).toEqual(before);
    const served = await new Promise<string>((resolve, reject) => {
      const c = tls.connect({ host: '127.0.0.1', port: pfPort, rejectUnauthorized: false }, () => {
        resolve(c.getPeerX509Certificate()?.fingerprint256 ?? '');
        c.destroy();
      });
      c.on('error', reject);
    });
    expect(served).toBe(new X509Certificate(pfCert).fingerprint256);
  });
});
