// Calls of the STUN module (docs/API.md, "STUN"), answered with the views of the shared module.
// Calls that change something are `silent`: their failures carry a field and a code that the
// screen translates itself and puts on the right form item. The live calls that wait on the
// network (NAT type detection, SSDP discovery, re-opening a mapping, a webhook) get their own
// time-outs: the client's 5 s (spec §9) would cut them off.
import type {
  NetInterfacesResponse,
  StunDdnsTasksResponse,
  StunGatewaysResponse,
  StunListResponse,
  StunLogsResponse,
  StunNatTypeBody,
  StunNatTypeResponse,
  StunRule,
  StunRuleAddedResponse,
  StunRuleInput,
  StunRuleResponse,
  StunSettingsPatch,
  StunSettingsResponse,
  StunWebhookTestResponse,
} from '@lucky/shared';
import { del, get, post, put } from '../../api/client';

const BASE = 'api/stun';
const rulePath = (key: string) => `${BASE}/rules/${encodeURIComponent(key)}`;

/** RFC 5780 detection runs several exchanges per server, each up to the rule's time-out (~20 s in all). */
const NAT_TYPE_TIMEOUT_MS = 60_000;
/** SSDP discovery listens ~3 s; the gateways' descriptions are fetched after. */
const GATEWAYS_TIMEOUT_MS = 20_000;
/** Re-opening waits for the first STUN answer of each mapping. */
const REOPEN_TIMEOUT_MS = 45_000;

export const stunKeys = {
  all: ['stun'] as const,
  rules: ['stun', 'rules'] as const,
  settings: ['stun', 'settings'] as const,
  logs: (key: string) => ['stun', 'logs', key] as const,
  ddnsTasks: ['stun', 'ddns-tasks'] as const,
  interfaces: ['stun', 'netinterfaces'] as const,
};

export const fetchRules = (signal?: AbortSignal) => get<StunListResponse>(`${BASE}/rules`, { signal });

export const createRule = (rule: StunRuleInput) => post<StunRuleAddedResponse>(`${BASE}/rules`, rule, { silent: true });

export const updateRule = (key: string, rule: StunRuleInput) =>
  put<StunRuleResponse>(rulePath(key), rule, { silent: true });

export const deleteRule = (key: string) => del(rulePath(key), { silent: true });

export const enableRule = (key: string, enabled: boolean) =>
  put<StunRuleResponse>(`${rulePath(key)}/enable`, { enabled }, { silent: true });

/** Drops the rule's mappings and opens them again now. */
export const reopenRule = (key: string) =>
  post<StunRuleResponse>(`${rulePath(key)}/reopen`, {}, { silent: true, timeoutMs: REOPEN_TIMEOUT_MS });

export interface LogsQuery {
  page: number;
  pageSize: number;
}

export const fetchLogs = (key: string, q: LogsQuery, signal?: AbortSignal) =>
  get<StunLogsResponse>(`${rulePath(key)}/logs`, { query: { ...q, order: 'newest' }, signal });

export const clearLogs = (key: string) => del(`${rulePath(key)}/logs`, { silent: true });

/** NAT behaviour through the rule's own channel and servers. */
export const detectRuleNatType = (key: string) =>
  post<StunNatTypeResponse>(`${rulePath(key)}/nat-type`, {}, { silent: true, timeoutMs: NAT_TYPE_TIMEOUT_MS });

/** NAT behaviour on demand, from a channel chosen in the dialog. */
export const detectNatType = (body: StunNatTypeBody) =>
  post<StunNatTypeResponse>(`${BASE}/nat-type`, body, { silent: true, timeoutMs: NAT_TYPE_TIMEOUT_MS });

/** The module switch (the core's call for every module): off, no rule runs and no port is held. */
export const setModuleEnabled = (enabled: boolean) =>
  put<{ ret: 0 }>('api/modules/stun/enabled', { enabled }, { silent: true });

export const fetchSettings = (signal?: AbortSignal) => get<StunSettingsResponse>(`${BASE}/settings`, { signal });

export const saveSettings = (patch: StunSettingsPatch) =>
  put<StunSettingsResponse>(`${BASE}/settings`, patch, { silent: true });

/** One call with demo addresses; `key` is the rule's ('' = the global webhook), whose stored secrets fill masked fields. */
export const testWebhook = (webhook: StunRule['webhook'], key = '') =>
  post<StunWebhookTestResponse>(
    `${BASE}/webhook/test`,
    { webhook, key },
    // Every attempt may take the webhook's own time-out.
    { silent: true, timeoutMs: ((webhook.timeout || 20) * (1 + (webhook.retries || 0)) + 10) * 1000 },
  );

/** UPnP gateways answering SSDP, seen from `localAddress` ('' = any). */
export const fetchGateways = (localAddress: string) =>
  get<StunGatewaysResponse>(`${BASE}/gateways`, {
    query: { localAddress },
    silent: true,
    timeoutMs: GATEWAYS_TIMEOUT_MS,
  });

export const fetchDdnsTasks = (signal?: AbortSignal) =>
  get<StunDdnsTasksResponse>(`${BASE}/ddns-tasks`, { signal, silent: true });

export const fetchNetInterfaces = (signal?: AbortSignal) =>
  get<NetInterfacesResponse>('api/netinterfaces', { signal, silent: true });
