// The shared DDNS schema: `{}` is a working default, and every rule of spec section 5 answers
// with its field and its stable code.
import {
  ddnsConfigSchema,
  ddnsIssues,
  ddnsLogLine,
  ddnsReason,
  ddnsSettingsPatchSchema,
  ddnsSettingsSchema,
  ddnsTaskInputSchema,
  isDnsServer,
  isDomainLine,
  isHostPort,
  isHttpUrl,
} from '@lucky/shared';
import { describe, expect, it } from 'vitest';

const base = { domains: ['a.example.com'], ipSource: { urls: ['https://ip.example.net/'] }, dns: { secret: 't' } };
function problem(input: Record<string, unknown>) {
  const r = ddnsTaskInputSchema.safeParse({ ...base, ...input });
  if (r.success) return undefined;
  const i = ddnsIssues.fromZod(r.error.issues[0], ddnsTaskInputSchema);
  return { field: i.field, code: i.code, params: i.params };
}

describe('DDNS schema', () => {
  it('{} is the module switched off with no tasks, and a minimal task gets working defaults', () => {
    expect(ddnsConfigSchema.parse({})).toMatchObject({
      enabled: false,
      firstCheckDelay: 0,
      interval: 300,
      multiLevelSuffixes: [],
      tasks: [],
      webhook: { enabled: false, method: 'GET', retries: 2, timeout: 20 },
    });
    expect(ddnsTaskInputSchema.parse(base)).toMatchObject({
      name: '',
      enabled: true,
      mode: 'easy',
      recordType: 'A',
      ttl: 0,
      forceInterval: 3600,
      httpTimeout: 20,
      resolverCheck: false,
      apiNetwork: 'auto',
      proxy: { type: 'none' },
      dns: { provider: 'cloudflare', tsigAlgorithm: 'hmac-sha256', callback: { method: '' } },
      ipSource: { type: 'url' },
      webhook: { enabled: false },
    });
  });

  it('names the field and the code for each rule', () => {
    expect(problem({ domains: [''] })).toMatchObject({ field: 'domains', code: 'domainsRequired' });
    expect(problem({ ipSource: { type: 'odhcpd', odhcpdFile: '/tmp/x' } })).toMatchObject({
      field: 'ipSource.odhcpdMacs',
      code: 'odhcpdSelectorRequired',
    });
    expect(problem({ ipSource: { type: 'odhcpd', odhcpdFile: '/x', odhcpdMacs: ['zz:11'] } })).toMatchObject({
      field: 'ipSource.odhcpdMacs.0',
      code: 'macInvalid',
    });
    expect(problem({ ipSource: { type: 'odhcpd', odhcpdHostnames: ['nas'] } })).toMatchObject({
      code: 'odhcpdFileRequired',
    });
    expect(problem({ ipSource: { type: 'netInterface', netInterface: 'eth0', ipReg: '(' } })).toMatchObject({
      field: 'ipSource.ipReg',
      code: 'ipRegInvalid',
    });
    expect(problem({ ipSource: { urls: ['ftp://x/'] } })).toMatchObject({
      field: 'ipSource.urls.0',
      code: 'urlInvalid',
    });
    expect(problem({ dns: { provider: 'rfc2136', server: 'ns1:53', id: 'k', secret: 'not base64!' } })).toMatchObject({
      field: 'dns.secret',
      code: 'tsigSecretInvalid',
    });
    expect(problem({ dns: { provider: 'rfc2136', id: 'k', secret: 'AAAA' } })).toMatchObject({
      field: 'dns.server',
      code: 'serverRequired',
    });
    expect(problem({ dns: { provider: 'powerdns', server: 'pdns:8081', secret: 'k' } })).toMatchObject({
      field: 'dns.server',
      code: 'serverUrlInvalid',
    });
    expect(problem({ dns: { provider: 'porkbun', id: 'k' } })).toMatchObject({
      field: 'dns.secret',
      code: 'secretRequired',
      params: { provider: 'porkbun' },
    });
    expect(problem({ dnsServers: ['1.1.1.1:53', 'dns.google'] })).toMatchObject({
      field: 'dnsServers.1',
      code: 'dnsServerInvalid',
    });
    expect(problem({ proxy: { type: 'socks5', address: 'proxy' } })).toMatchObject({
      field: 'proxy.address',
      code: 'proxyAddressInvalid',
    });
    expect(
      problem({
        webhook: { enabled: true, url: 'https://h/', method: 'POST', successStrings: ['ok'], proxy: { type: 'http' } },
      }),
    ).toMatchObject({ field: 'webhook.proxy.address', code: 'webhookProxyAddressRequired' });
    expect(
      problem({ webhook: { enabled: true, url: 'https://h/', method: '', successStrings: ['ok'] } }),
    ).toMatchObject({
      field: 'webhook.method',
      code: 'webhookMethodRequired',
    });
    expect(
      problem({
        webhook: { enabled: true, url: 'https://h/', method: 'GET', successStrings: ['ok'], headers: ['NoColon'] },
      }),
    ).toMatchObject({ field: 'webhook.headers.0', code: 'headerInvalid' });
    expect(
      problem({
        dns: { provider: 'callback', callback: { method: 'GET', url: 'https://h/?ip=#{ip}', successStrings: [] } },
      }),
    ).toMatchObject({ field: 'dns.callback.successStrings', code: 'successStringsRequired' });
    expect(problem({ httpTimeout: 2 })).toMatchObject({ field: 'httpTimeout', code: 'tooSmall', params: { min: 3 } });
    expect(problem({ forceInterval: 3601 })).toMatchObject({
      field: 'forceInterval',
      code: 'tooBig',
      params: { max: 3600 },
    });
    expect(problem({ recordType: 'MX' })).toMatchObject({ field: 'recordType', code: 'invalidValue' });
    // A switched-off webhook is not checked (the dialog may hold half a webhook).
    expect(problem({ webhook: { enabled: false, url: '' } })).toBeUndefined();
  });

  it('settings: ranges and suffixes', () => {
    expect(ddnsSettingsSchema.parse({ multiLevelSuffixes: ['.Dynv6.NET.'] }).multiLevelSuffixes).toEqual(['dynv6.net']);
    expect(ddnsSettingsSchema.safeParse({ interval: 3601 }).success).toBe(false);
    expect(ddnsSettingsSchema.safeParse({ firstCheckDelay: -1 }).success).toBe(false);
    expect(ddnsSettingsSchema.safeParse({ multiLevelSuffixes: ['com'] }).success).toBe(false);
  });

  it('a settings change is any subset: a field left out is not reset to its default', () => {
    expect(ddnsSettingsPatchSchema.parse({})).toEqual({});
    expect(ddnsSettingsPatchSchema.parse({ interval: 60 })).toEqual({ interval: 60 });
    const r = ddnsSettingsPatchSchema.safeParse({ interval: 29 });
    expect(r.success).toBe(false);
    expect(ddnsIssues.fromZod(r.error!.issues[0], ddnsSettingsPatchSchema)).toMatchObject({
      field: 'interval',
      code: 'tooSmall',
      params: { min: 30, max: 3600 },
    });
  });

  it('runtime words are code + params + English; a cause and outside text follow the text', () => {
    const url = ddnsReason('urlHttpStatus', { url: 'http://ip.example/', status: 502 });
    const noIp = ddnsReason('urlNoAddress', { url: 'http://b.example/', family: 4 });
    const topic = ddnsReason('allUrlsFailed', { cause: [url, noIp] });
    expect(topic).toMatchObject({ code: 'allUrlsFailed', params: { cause: [url, noIp] } });
    expect(topic.text).toBe(
      'all public-IP query interfaces failed, check the interfaces or the network: http://ip.example/: HTTP 502; http://b.example/: no IPv4 address in the answer',
    );
    expect(ddnsReason('providerError', { detail: 'HTTP 403: bad token' }).text).toBe(
      'the DNS provider refused the change: HTTP 403: bad token',
    );
    const from = ddnsReason('fromInterface', { name: 'wan' });
    expect(ddnsLogLine('ipChanged', { ip: '192.0.2.2', from, prev: '192.0.2.1' }).text).toBe(
      'IP 192.0.2.2 (from network card wan), was 192.0.2.1',
    );
  });

  it('field checks', () => {
    expect(isDomainLine('www:example.com?x=1')).toBe(true);
    expect(isDomainLine('*.example.com')).toBe(true);
    expect(isDomainLine('a.*.example.com')).toBe(false);
    expect(isHostPort('[2001:db8::1]:1080')).toBe(true);
    expect(isHostPort('proxy.lan:3128')).toBe(true);
    expect(isHostPort('proxy.lan:0')).toBe(false);
    expect(isHostPort('ns1.example.com', false)).toBe(true);
    expect(isHttpUrl('http://[::1]:8081/api/v1')).toBe(true);
    expect(isHttpUrl('https://user:pw@h.example/x?y#z')).toBe(true);
    expect(isHttpUrl('https://exa mple.com/')).toBe(false);
    expect(isDnsServer('[2606:4700:4700::1111]:53')).toBe(true);
    expect(isDnsServer('2606:4700:4700::1111')).toBe(true);
    expect(isDnsServer('1.1.1.1:70000')).toBe(false);
  });
});
