import {
  bodyPieces,
  DDNS_SECRETS,
  type DdnsConfig,
  type DdnsTask,
  ddnsConfigSchema,
  ddnsTaskSchema,
  headerPieces,
  isSecretName,
  keepSecrets,
  maskPieces,
  restorePieces,
  urlPieces,
} from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { restoreWebhook, scrub } from '../../core/webhook/secrets.js';
import { maskTask, restoreTaskText, secretsOf } from './secrets.js';

/** What a save does with a task sent back: the free text here, then the supervisor's keepSecrets. */
function restoreTaskSecrets(input: Omit<DdnsTask, 'key'>, stored: DdnsTask): DdnsTask {
  const text = { ...restoreTaskText(input, stored), key: stored.key };
  const prev: DdnsConfig = ddnsConfigSchema.parse({ tasks: [stored] });
  return keepSecrets({ ...prev, tasks: [text] }, prev, DDNS_SECRETS).tasks[0];
}

const S = 'Zq9PlantedSecret7x4Kd2';
const maskUrl = (u: string) => maskPieces(urlPieces(u));
const maskHeader = (h: string) => maskPieces(headerPieces(h));
const maskBody = (b: string) => maskPieces(bodyPieces(b));

describe('the secret-text rule', () => {
  it('names', () => {
    for (const n of [
      'Authorization',
      'Proxy-Authorization',
      'Cookie',
      'X-Auth-Token',
      'apikey',
      'api_key',
      'X-Api-Key',
    ])
      expect(isSecretName(n), n).toBe(true);
    for (const n of ['secret', 'BasicAuthPassword', 'pwd', 'pass', 'sig', 'access_token', 'sessionid'])
      expect(isSecretName(n), n).toBe(true);
    for (const n of ['Content-Type', 'hostname', 'ip', 'BasicAuthUserName', 'domain', 'myip', 'User-Agent'])
      expect(isSecretName(n), n).toBe(false);
  });

  it('URLs keep scheme, host, path and names readable', () => {
    expect(maskUrl(`https://bob:${S}@h.example/p/nic?token=${S}&hostname=a.b.example&ip=#{ip}`)).toBe(
      'https://bob:******@h.example/p/nic?token=******&hostname=a.b.example&ip=#{ip}',
    );
    expect(maskUrl(`https://${S}@h.example/`)).toBe('https://******@h.example/');
    expect(maskUrl(`https://sctapi.ftqq.com/${S}.send`)).toBe('https://sctapi.ftqq.com/******.send');
    expect(maskUrl('https://open.feishu.cn/open-apis/bot/v2/hook/0f8e6a2c-1b3d-4e5f-9a7b-2c4d6e8f0a1b')).toBe(
      'https://open.feishu.cn/open-apis/bot/v2/hook/******',
    );
    expect(maskUrl(`https://api.example/x?custom=${S}`)).toBe('https://api.example/x?custom=******');
    // Templates and ordinary values are not secrets.
    const preset = 'https://dynv6.com/api/update?hostname=#{domain}&token=#{secret}&ipv4=#{ip}';
    expect(maskUrl(preset)).toBe(preset);
    expect(maskUrl('https://4.ipw.cn/api/v1/ip?x=1')).toBe('https://4.ipw.cn/api/v1/ip?x=1');
    expect(maskUrl('not a url')).toBe('not a url');
  });

  it('header lines and bodies', () => {
    expect(maskHeader(`Authorization: Bearer ${S}`)).toBe('Authorization: Bearer ******');
    expect(maskHeader(`BasicAuthPassword:${S}`)).toBe('BasicAuthPassword:******');
    expect(maskHeader('BasicAuthUserName:bob')).toBe('BasicAuthUserName:bob');
    expect(maskHeader(`Cookie: sid=${S}`)).toBe('Cookie: ******');
    expect(maskHeader(`X-Thing: ${S}`)).toBe('X-Thing: ******');
    expect(maskHeader('Content-Type: application/json')).toBe('Content-Type: application/json');
    expect(maskBody(`{"token":"${S}","ip":"#{ipAddr}","n":{"password":"pw1"}}`)).toBe(
      '{"token":"******","ip":"#{ipAddr}","n":{"password":"******"}}',
    );
    expect(maskBody(`title=#{ipAddr}&key=${S}&desp=hello`)).toBe('title=#{ipAddr}&key=******&desp=hello');
    expect(maskBody('plain text body')).toBe('plain text body');
  });

  it('restores: the masked read keeps, an edit keeps the masked parts, text without masks replaces', () => {
    const stored = urlPieces(`https://h.example/u?token=${S}&hostname=a`);
    expect(restorePieces('https://h.example/u?token=******&hostname=a', stored)).toBe(
      `https://h.example/u?token=${S}&hostname=a`,
    );
    expect(restorePieces('https://h.example/u?token=******&hostname=b', stored)).toBe(
      `https://h.example/u?token=${S}&hostname=b`,
    );
    expect(restorePieces('https://h.example/u?token=new', stored)).toBe('https://h.example/u?token=new');
    expect(restorePieces('https://h.example/u?token=******&k=******', stored)).toBeUndefined();
  });
});

function task(over: Record<string, unknown> = {}): DdnsTask {
  return ddnsTaskSchema.parse({
    key: 'k1',
    domains: ['a.example.com'],
    ipSource: { type: 'url', urls: [`https://ip.example/?key=${S}`] },
    dns: {
      provider: 'callback',
      secret: S,
      callback: {
        method: 'POST',
        url: `https://cb.example/update?token=${S}&host=#{domain}`,
        headers: [`Authorization: Bearer ${S}`, 'Accept: */*'],
        body: `{"password":"${S}"}`,
        successStrings: ['ok'],
      },
    },
    proxy: { type: 'http', address: '127.0.0.1:3128', user: 'u', password: S },
    webhook: {
      enabled: true,
      url: `https://hook.example/${S}`,
      headers: [`BasicAuthUserName:bob`, `BasicAuthPassword:${S}`],
      body: `secret=${S}`,
      successStrings: ['ok'],
      proxy: { type: 'http', address: '127.0.0.1:3128', password: S },
    },
    ...over,
  });
}

describe('DDNS task secrets', () => {
  it('a read shows no secret, and sending it back keeps every stored secret', () => {
    const t = task();
    const shown = maskTask(t);
    expect(JSON.stringify(shown)).not.toContain(S);
    expect(shown.dns.callback.url).toBe('https://cb.example/update?token=******&host=#{domain}');
    expect(shown.webhook.headers).toEqual(['BasicAuthUserName:bob', 'BasicAuthPassword:******']);
    expect(shown.dns.secret).toBe('******');
    expect(shown.proxy.password).toBe('******');
    expect(shown.webhook.proxy.password).toBe('******');
    const { key: _k, ...input } = shown;
    expect(restoreTaskSecrets(JSON.parse(JSON.stringify(input)), t)).toEqual(t);
  });

  it('a webhook called from the dialog (not saved) gets its stored password and text back', () => {
    const t = task();
    const w = restoreWebhook(maskTask(t).webhook, t.webhook);
    expect(w).toEqual(t.webhook);
  });

  it('an edited field keeps its masked secrets; a new address or an unmatched mask is refused by name', () => {
    const t = task();
    const shown = maskTask(t);
    const edited = restoreTaskSecrets(
      { ...shown, dns: { ...shown.dns, callback: { ...shown.dns.callback, url: `${shown.dns.callback.url}&x=1` } } },
      t,
    );
    expect(edited.dns.callback.url).toBe(`https://cb.example/update?token=${S}&host=#{domain}&x=1`);
    const moved = { ...shown, webhook: { ...shown.webhook, url: 'https://evil.example/******' } };
    expect(() => restoreTaskSecrets(moved, t)).toThrow(expect.objectContaining({ field: 'webhook.url' }));
    const extra = { ...shown, dns: { ...shown.dns, callback: { ...shown.dns.callback, body: 'a=******&b=******' } } };
    expect(() => restoreTaskSecrets(extra, t)).toThrow(expect.objectContaining({ field: 'dns.callback.body' }));
    const replaced = restoreTaskSecrets({ ...shown, proxy: { ...shown.proxy, password: 'new' } }, t);
    expect(replaced.proxy.password).toBe('new');
  });

  it('scrubs the secrets from text, encoded forms too', () => {
    const list = secretsOf(task({ dns: { provider: 'cloudflare', secret: 'a b+c/d=Secret1' } }));
    expect(scrub(`failed: 401 for ${encodeURIComponent('a b+c/d=Secret1')} and ${S}`, list)).toBe(
      'failed: 401 for ****** and ******',
    );
  });
});
