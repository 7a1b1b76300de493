import {
  ACCESS_MODES,
  DDNS_API_NETWORKS,
  DDNS_CALLBACK_PRESETS,
  DDNS_IP_SOURCES,
  DDNS_LOG_MESSAGES,
  DDNS_MESSAGES,
  DDNS_MODES,
  DDNS_PROVIDERS,
  DDNS_REASONS,
  DDNS_SYNC_STATUSES,
  DDNS_WEBHOOK_PRESETS,
  DDNS_WEBHOOK_PROXY_TYPES,
  FORWARD_TYPES,
  GENERIC_ISSUE_MESSAGES,
  LANGUAGES,
  MODULE_KEYS,
  NETWORK_TYPES,
  PORTFORWARD_LOG_LEVELS,
  PORTFORWARD_MESSAGES,
  PROXY_TYPES,
  REVERSEPROXY_MESSAGES,
  TLS_MODES,
  WEBHOOK_MESSAGES,
  WEBHOOK_REASONS,
} from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import enUS from './en_US.json';
import zhCN from './zh_CN.json';

type Tree = { [k: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const zh = flatten(zhCN as Tree);
const en = flatten(enUS as Tree);

// Every source file, as text, to find the keys the code asks for.
const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../test/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

function literalKeys(): Set<string> {
  const keys = new Set<string>();
  const patterns = [
    /\bt\(\s*'([a-zA-Z0-9_]+\.[a-zA-Z0-9_.-]+)'/g,
    /labelKey: '([a-zA-Z0-9_]+\.[a-zA-Z0-9_]+)'/g,
    /'(title\.[a-zA-Z0-9_]+)'/g,
  ];
  for (const text of Object.values(sources)) {
    for (const re of patterns) for (const m of text.matchAll(re)) keys.add(m[1]);
  }
  return keys;
}

describe('locale files', () => {
  it('have the same keys, namespaced, with no empty value', () => {
    expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [k, v] of [...zh, ...en]) {
      // The namespace is a module key (snake_case, as wanji_admin) or a shared word group.
      expect(k).toMatch(/^[a-zA-Z0-9_]+\.[A-Za-z0-9_-]+$/);
      expect(v.trim(), k).not.toBe('');
    }
  });

  it('contain every key the code uses', () => {
    const used = literalKeys();
    expect(used.size).toBeGreaterThan(100);
    const missing = [...used].filter((k) => !zh.has(k) || !en.has(k));
    expect(missing).toEqual([]);
  });

  it('contain the keys built at run time', () => {
    const dynamic = [
      ...MODULE_KEYS.map((k) => `menu.${k}`),
      ...LANGUAGES.map((l) => `common.lang_${l}`),
      ...['running', 'stopped', 'error', 'unknown'].map((s) => `status.state_${s}`),
      ...['install', 'uninstall', 'start', 'stop', 'restart'].map((o) => `set.service_${o}`),
      ...['uninstall', 'stop', 'restart'].map((o) => `set.serviceConfirm_${o}`),
      ...Object.keys(PORTFORWARD_MESSAGES).map((c) => `portforward.err_${c}`),
      ...['portListInvalid', 'portListDuplicate', 'targetAddressInvalid', 'accessListInvalid'].map(
        (c) => `portforward.err_${c}Plain`,
      ),
      ...FORWARD_TYPES.map((x) => `portforward.type_${x}`),
      ...TLS_MODES.flatMap((m) => [`portforward.tls_${m}`, `portforward.tlsModeHelp_${m}`]),
      ...ACCESS_MODES.flatMap((m) => [`portforward.access_${m}`, `portforward.accessHelp_${m}`]),
      ...Object.values(PORTFORWARD_LOG_LEVELS).map((l) => `common.logLevel_${l}`),
      ...['running', 'starting', 'error', 'disabled', 'stopped'].map((s) => `portforward.state_${s}`),
      ...Object.keys(DDNS_MESSAGES)
        .filter((c) => !Object.hasOwn(WEBHOOK_MESSAGES, c))
        .map((c) => `ddns.err_${c}`),
      ...Object.keys(DDNS_REASONS).map((c) => `ddns.reason_${c}`),
      ...Object.keys(WEBHOOK_MESSAGES).map((c) => `webhook.err_${c}`),
      ...Object.keys(WEBHOOK_REASONS).map((c) => `webhook.reason_${c}`),
      ...PROXY_TYPES.map((x) => `webhook.proxy_${x}`),
      ...Object.keys(DDNS_LOG_MESSAGES).map((c) => `ddns.log_${c}`),
      ...DDNS_SYNC_STATUSES.map((s) => `ddns.sync_${s}`),
      ...DDNS_PROVIDERS.flatMap((p) => [`ddns.provider_${p}`, `ddns.providerHelp_${p}`]),
      ...DDNS_CALLBACK_PRESETS.map((p) => `ddns.callbackPreset_${p.id}`),
      ...DDNS_WEBHOOK_PRESETS.map((p) => `ddns.webhookPreset_${p.id}`),
      ...DDNS_IP_SOURCES.map((s) => `ddns.source_${s}`),
      ...DDNS_WEBHOOK_PROXY_TYPES.map((x) => `ddns.proxy_${x}`),
      ...DDNS_API_NETWORKS.map((x) => `ddns.network_${x}`),
      ...DDNS_MODES.map((m) => `ddns.mode_${m}`),
      ...['task', 'global'].map((x) => `ddns.webhookTarget_${x}`),
      ...Object.keys(REVERSEPROXY_MESSAGES).map((c) => `reverseproxy.err_${c}`),
      ...NETWORK_TYPES.map((x) => `reverseproxy.network_${x}`),
      ...Object.keys(GENERIC_ISSUE_MESSAGES).map((c) => `common.err_${c}`),
      ...['all', 'ok', 'failed'].map((r) => `safe.auditResult_${r}`),
    ];
    expect(dynamic.filter((k) => !zh.has(k) || !en.has(k))).toEqual([]);
  });

  it('use the spec wording for DDNS (validation, sync statuses, message topics)', () => {
    expect(zh.get('ddns.err_domainsRequired')).toBe('域名列表不能为空');
    expect(zh.get('ddns.err_urlsRequired')).toBe('接口列表不能为空');
    expect(en.get('ddns.err_domainsRequired')).toBe('The domain list must not be empty');
    expect(en.get('ddns.err_rangeForceInterval')).toBe('Force sync is 60-3600 s');
    expect(en.get('ddns.sync_succeeded')).toBe('Update succeeded');
    expect(en.get('ddns.reason_allUrlsFailed')).toBe(
      'All public-IP query interfaces failed, check the interfaces or the network',
    );
    expect(en.get('ddns.loadError')).toBe('Error getting the DDNS configuration');
  });

  it('use the spec wording for logout and session end in zh_CN', () => {
    expect(zh.get('logout.confirm')).toBe('确定要注销登录?');
    expect(zh.get('logout.clickByMistake')).toBe('点错了');
    expect(zh.get('login.accountRequired')).toBe('账号不能为空');
    expect(zh.get('login.passwordRequired')).toBe('密码不能为空');
  });

  it('use the spec wording for port forwarding (validation, message topics)', () => {
    expect(zh.get('portforward.err_typesRequired')).toBe('至少选择一种转发类型');
    expect(zh.get('portforward.err_listenPortsRequired')).toBe('监听端口不能为空');
    expect(zh.get('portforward.err_targetAddressRequired')).toBe('目标地址不能为空');
    expect(zh.get('portforward.err_targetPortsRequired')).toBe('目标端口不能为空');
    expect(en.get('portforward.err_typesRequired')).toBe('Choose at least one forwarding type');
    expect(en.get('portforward.err_listenPortsRequired')).toBe('Listening port cannot be empty');
    expect(en.get('portforward.loadError')).toBe('Port forwarding config query error');
    expect(en.get('portforward.moduleDisabled')).toBe('Port forwarding module disabled');
  });
});
