// Dynamic DNS (`ddns`): providers and what each needs, the sync statuses, built-in lists
// (multi-level suffixes, public-IP echo URLs, resolvers) and the callback presets the add
// dialog fills in. Data only, shared by the form and the server.
import type { HttpMethod, WebhookPreset } from '../contract/webhook.js';

export const DDNS_PROVIDERS = [
  'alidns',
  'dnspod',
  'cloudflare',
  'huaweicloud',
  'baiducloud',
  'godaddy',
  'porkbun',
  'dynv6',
  'desec',
  'duckdns',
  'namecom',
  'namesilo',
  'vercel',
  'powerdns',
  'rfc2136',
  'callback',
] as const;
export type DdnsProvider = (typeof DDNS_PROVIDERS)[number];

export type DdnsCredentialField = 'id' | 'secret' | 'server' | 'zone';

export interface DdnsProviderInfo {
  /** Credential fields that must not be empty. */
  required: readonly DdnsCredentialField[];
  /** Credential fields the form shows but may stay empty. */
  optional: readonly DdnsCredentialField[];
  /** TTL used when the task's TTL is 0 (0 = the provider decides). */
  defaultTtl: number;
  /** Smallest TTL the provider accepts; smaller values are raised to it. */
  minTtl: number;
}

/**
 * What each provider needs. The meaning of `id`/`secret` per provider (the form's labels):
 * alidns AccessKey ID/Secret; dnspod SecretId/SecretKey (Tencent Cloud API 3.0);
 * cloudflare API token; huaweicloud Access Key Id/Secret Access Key; baiducloud AccessKey
 * ID/Secret; godaddy key/secret; porkbun API key/secret API key; dynv6, desec, duckdns,
 * namesilo tokens or API keys; namecom user name/API token; vercel token (+ team id);
 * powerdns API URL (`server`), API key, server id (`id`, default `localhost`) and zone;
 * rfc2136 server `host[:port]`, TSIG key name (`id`) and base64 secret, zone; callback: its
 * own URL template, `id`/`secret` are only the `#{id}`/`#{secret}` template variables.
 */
export const DDNS_PROVIDER_INFO: Record<DdnsProvider, DdnsProviderInfo> = {
  alidns: { required: ['id', 'secret'], optional: [], defaultTtl: 600, minTtl: 1 },
  dnspod: { required: ['id', 'secret'], optional: [], defaultTtl: 600, minTtl: 1 },
  cloudflare: { required: ['secret'], optional: [], defaultTtl: 1, minTtl: 1 },
  huaweicloud: { required: ['id', 'secret'], optional: [], defaultTtl: 300, minTtl: 1 },
  baiducloud: { required: ['id', 'secret'], optional: [], defaultTtl: 300, minTtl: 1 },
  godaddy: { required: ['id', 'secret'], optional: [], defaultTtl: 600, minTtl: 600 },
  porkbun: { required: ['id', 'secret'], optional: [], defaultTtl: 600, minTtl: 600 },
  dynv6: { required: ['secret'], optional: [], defaultTtl: 0, minTtl: 0 },
  desec: { required: ['secret'], optional: [], defaultTtl: 3600, minTtl: 3600 },
  duckdns: { required: ['secret'], optional: [], defaultTtl: 0, minTtl: 0 },
  namecom: { required: ['id', 'secret'], optional: [], defaultTtl: 300, minTtl: 300 },
  namesilo: { required: ['secret'], optional: [], defaultTtl: 3600, minTtl: 3600 },
  vercel: { required: ['secret'], optional: ['id'], defaultTtl: 60, minTtl: 60 },
  powerdns: { required: ['server', 'secret'], optional: ['id', 'zone'], defaultTtl: 300, minTtl: 1 },
  rfc2136: { required: ['server', 'id', 'secret'], optional: ['zone'], defaultTtl: 300, minTtl: 1 },
  callback: { required: [], optional: ['id', 'secret'], defaultTtl: 600, minTtl: 0 },
};

/** TSIG algorithms for RFC 2136 updates (hmac-md5 is deprecated by RFC 8945 and left out). */
export const TSIG_ALGORITHMS = ['hmac-sha256', 'hmac-sha512', 'hmac-sha384', 'hmac-sha224', 'hmac-sha1'] as const;

/**
 * Per-domain sync status (spec: IP same, provider record same, DNS record same, IP unchanged,
 * update failed, update succeeded, stopped, paused, waiting):
 * - `ipSame`: the IP changed since the last check, but this record was already set to it;
 * - `providerSame`: the provider's record already held the IP (found, nothing written);
 * - `dnsSame`: the resolver check answered the IP, the provider was not asked;
 * - `ipUnchanged`: the IP did not change and the record was in step: nothing was asked;
 * - `failed` / `succeeded`: the provider refused / wrote the record;
 * - `stopped`: the task or the module is switched off;
 * - `paused`: getting the IP failed, nothing was changed;
 * - `waiting`: not checked yet.
 */
export const DDNS_SYNC_STATUSES = [
  'ipSame',
  'providerSame',
  'dnsSame',
  'ipUnchanged',
  'failed',
  'succeeded',
  'stopped',
  'paused',
  'waiting',
] as const;
export type DdnsSyncStatus = (typeof DDNS_SYNC_STATUSES)[number];

/** Statuses after which the record is known to hold the current IP. */
export const DDNS_IN_STEP: readonly DdnsSyncStatus[] = [
  'ipSame',
  'providerSame',
  'dnsSame',
  'ipUnchanged',
  'succeeded',
];

/**
 * Public suffixes with two labels, so `a.b.com.cn` splits into sub `a` and root `b.com.cn`
 * (the user adds more in the global settings; `sub:root` in a domain line overrides both).
 */
export const DDNS_BUILTIN_SUFFIXES: readonly string[] = [
  'com.cn',
  'net.cn',
  'org.cn',
  'gov.cn',
  'edu.cn',
  'ac.cn',
  'eu.org',
  'com.hk',
  'com.tw',
  'org.tw',
  'co.uk',
  'org.uk',
  'me.uk',
  'ltd.uk',
  'plc.uk',
  'co.jp',
  'ne.jp',
  'or.jp',
  'co.kr',
  'or.kr',
  'com.au',
  'net.au',
  'org.au',
  'co.nz',
  'org.nz',
  'com.br',
  'com.sg',
  'com.my',
  'co.in',
  'co.za',
  'com.mx',
  'com.tr',
  'com.ru',
  'us.kg',
];

/** Public-IP echo URLs the add dialog fills in (the ancestor's lists); tried in order. */
export const DDNS_DEFAULT_IPV4_URLS: readonly string[] = [
  'https://4.ipw.cn',
  'https://myip4.ipip.net',
  'https://ddns.oray.com/checkip',
  'https://ip.3322.net',
  'https://v4.myip.la',
  'https://api.ipify.org',
];
export const DDNS_DEFAULT_IPV6_URLS: readonly string[] = [
  'https://6.ipw.cn',
  'https://ipv6.ddnspod.com',
  'https://speed.neu6.edu.cn/getIP.php',
  'https://v6.ident.me',
  'https://v6.myip.la',
  'https://api6.ipify.org',
];

/** Resolvers for the DNS check when its server list is empty. */
export const DDNS_DEFAULT_IPV4_RESOLVERS: readonly string[] = [
  '1.1.1.1:53',
  '8.8.8.8:53',
  '9.9.9.9:53',
  '223.5.5.5:53',
  '119.29.29.29:53',
  '114.114.114.114:53',
];
export const DDNS_DEFAULT_IPV6_RESOLVERS: readonly string[] = [
  '[2606:4700:4700::1111]:53',
  '[2001:4860:4860::8888]:53',
  '[2620:fe::fe]:53',
  '[2400:3200::1]:53',
  '[2402:4e00::]:53',
];

/** Where OpenWrt's odhcpd writes its lease file by default (`option leasefile`). */
export const DDNS_DEFAULT_ODHCPD_FILE = '/tmp/hosts/odhcpd';

export interface DdnsCallbackPreset {
  id: string;
  method: HttpMethod;
  /** URL template per record type; `#{secret}`/`#{id}` come from the task's credentials. */
  url: { A: string; AAAA: string };
  headers: string[];
  body: string;
  successStrings: string[];
}

/**
 * Custom-callback templates for common free dynamic-DNS services. Variables: `#{ip}`,
 * `#{domain}` (full name), `#{sub}`, `#{root}`, `#{recordType}`, `#{ttl}`, `#{id}`,
 * `#{secret}` and every `?param=` of the domain line.
 */
export const DDNS_CALLBACK_PRESETS: readonly DdnsCallbackPreset[] = [
  {
    id: 'meibu',
    method: 'GET',
    url: {
      A: 'https://ipv4.meibu.com/ipv4.asp?name=#{domain}&pwd=#{secret}&ipv4=#{ip}',
      AAAA: 'https://v6.meibu.com/v6.asp?name=#{domain}&pwd=#{secret}&ipv6=#{ip}',
    },
    headers: [],
    body: '',
    successStrings: ['chenggong', 'chongfu', 'ok'],
  },
  {
    id: 'noip',
    method: 'GET',
    url: {
      A: 'https://dynupdate.no-ip.com/nic/update?hostname=#{domain}&myip=#{ip}',
      AAAA: 'https://dynupdate.no-ip.com/nic/update?hostname=#{domain}&myipv6=#{ip}',
    },
    headers: ['BasicAuthUserName:#{id}', 'BasicAuthPassword:#{secret}'],
    body: '',
    successStrings: ['good #{ip}', 'nochg #{ip}'],
  },
  {
    id: 'dynv6',
    method: 'GET',
    url: {
      A: 'https://dynv6.com/api/update?hostname=#{domain}&token=#{secret}&ipv4=#{ip}',
      AAAA: 'https://dynv6.com/api/update?hostname=#{domain}&token=#{secret}&ipv6=#{ip}',
    },
    headers: [],
    body: '',
    successStrings: ['addresses updated', 'addresses unchanged'],
  },
  {
    id: 'dynu',
    method: 'GET',
    url: {
      A: 'https://api.dynu.com/nic/update?hostname=#{domain}&myip=#{ip}&password=#{secret}',
      AAAA: 'https://api.dynu.com/nic/update?hostname=#{domain}&myipv6=#{ip}&password=#{secret}',
    },
    headers: [],
    body: '',
    successStrings: ['good', 'nochg'],
  },
  {
    id: 'freemyip',
    method: 'GET',
    url: {
      A: 'https://freemyip.com/update?token=#{secret}&domain=#{domain}&myip=#{ip}',
      AAAA: 'https://freemyip.com/update?token=#{secret}&domain=#{domain}&myip=#{ip}',
    },
    headers: [],
    body: '',
    successStrings: ['OK'],
  },
  {
    id: 'afraid',
    method: 'GET',
    url: {
      A: 'https://sync.afraid.org/u/#{secret}/?address=#{ip}',
      AAAA: 'https://v6.sync.afraid.org/u/#{secret}/?address=#{ip}',
    },
    headers: [],
    body: '',
    successStrings: ['Updated', 'No IP change detected'],
  },
  {
    id: 'henet',
    method: 'GET',
    url: {
      A: 'https://dyn.dns.he.net/nic/update?hostname=#{domain}&password=#{secret}&myip=#{ip}',
      AAAA: 'https://dyn.dns.he.net/nic/update?hostname=#{domain}&password=#{secret}&myip=#{ip}',
    },
    headers: [],
    body: '',
    successStrings: ['good', 'nochg'],
  },
];

/** Webhook templates the dialog offers (`<key>` is for the user to replace). */
export const DDNS_WEBHOOK_PRESETS: readonly WebhookPreset[] = [
  {
    id: 'serverchan',
    method: 'POST',
    url: 'https://sctapi.ftqq.com/<key>.send',
    headers: [],
    body: 'title=#{ipAddr}&desp=#{time}%0A#{successDomainsLine}%0A#{failedDomainsLine}',
    successStrings: ['"code":0'],
  },
  {
    id: 'bark',
    method: 'POST',
    url: 'https://api.day.app/<key>',
    headers: [],
    body: '{"title":"DDNS #{ipAddr}","body":"#{time}\\nOK: #{successDomainsLine}\\nFailed: #{failedDomainsLine}"}',
    successStrings: ['"code":200'],
  },
  {
    id: 'dingtalk',
    method: 'POST',
    url: 'https://oapi.dingtalk.com/robot/send?access_token=<key>',
    headers: [],
    body: '{"msgtype":"markdown","markdown":{"title":"DDNS","text":"#### DDNS #{ipAddr}\\n#{time}\\n\\nOK:\\n#{successDomainsLine}\\n\\nFailed:\\n#{failedDomainsLine}"}}',
    successStrings: ['"errcode":0'],
  },
  {
    id: 'feishu',
    method: 'POST',
    url: 'https://open.feishu.cn/open-apis/bot/v2/hook/<key>',
    headers: [],
    body: '{"msg_type":"text","content":{"text":"DDNS #{ipAddr} #{time}\\nOK: #{successDomainsLine}\\nFailed: #{failedDomainsLine}"}}',
    successStrings: ['"StatusCode":0', '"code":0'],
  },
  {
    id: 'wecom',
    method: 'POST',
    url: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=<key>',
    headers: [],
    body: '{"msgtype":"markdown","markdown":{"content":"DDNS #{ipAddr}\\n#{time}\\nOK: #{successDomainsLine}\\nFailed: #{failedDomainsLine}"}}',
    successStrings: ['"errcode":0'],
  },
];
