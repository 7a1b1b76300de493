// Calls of the port-forwarding module (docs/API.md, "Port forwarding"). Calls
// that change something are `silent`: their failures carry a field and a code
// that the screen translates itself (errors.ts) and puts on the right form item.
import type {
  PortforwardListResponse,
  PortforwardLogsResponse,
  PortforwardRuleAddedResponse,
  PortforwardRuleInput,
  PortforwardRuleResponse,
  PortforwardSettingsPatch,
  PortforwardSettingsResponse,
} from '@lucky/shared';
import { del, get, post, put } from '../../api/client';

const BASE = 'api/portforward';
const rulePath = (key: string) => `${BASE}/rules/${encodeURIComponent(key)}`;

export const pfKeys = {
  all: ['portforward'] as const,
  rules: ['portforward', 'rules'] as const,
  settings: ['portforward', 'settings'] as const,
  logs: (key: string) => ['portforward', 'logs', key] as const,
};

export const fetchRules = (signal?: AbortSignal) => get<PortforwardListResponse>(`${BASE}/rules`, { signal });

export const createRule = (rule: PortforwardRuleInput) =>
  post<PortforwardRuleAddedResponse>(`${BASE}/rules`, rule, { silent: true });

export const updateRule = (key: string, rule: PortforwardRuleInput) =>
  put<PortforwardRuleResponse>(rulePath(key), rule, { silent: true });

export const deleteRule = (key: string) => del(rulePath(key), { silent: true });

export const enableRule = (key: string, enabled: boolean) =>
  put<PortforwardRuleResponse>(`${rulePath(key)}/enable`, { enabled }, { silent: true });

export interface LogsQuery {
  page: number;
  pageSize: number;
}

export const fetchLogs = (key: string, q: LogsQuery, signal?: AbortSignal) =>
  get<PortforwardLogsResponse>(`${rulePath(key)}/logs`, { query: { ...q, order: 'newest' }, signal });

export const clearLogs = (key: string) => del(`${rulePath(key)}/logs`, { silent: true });

/** The module switch: the supervisor starts or stops the whole module (its rules and settings stay). */
export const setModuleEnabled = (enabled: boolean) =>
  put<{ ret: 0 }>(`api/modules/portforward/enabled`, { enabled }, { silent: true });

export const fetchSettings = (signal?: AbortSignal) => get<PortforwardSettingsResponse>(`${BASE}/settings`, { signal });

export const saveSettings = (settings: PortforwardSettingsPatch) =>
  put<PortforwardSettingsResponse>(`${BASE}/settings`, settings, { silent: true });
