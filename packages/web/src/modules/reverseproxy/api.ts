// Calls of the web service module (docs/API.md, "Web service (`reverseproxy`)").
// Calls that change something are `silent`: the screen translates a refusal
// itself (errors.ts) and puts it on the form field the server names.
import type {
  ReverseproxyAddRuleResponse,
  ReverseproxyBatchResponse,
  ReverseproxyListResponse,
  ReverseproxyLogsResponse,
  ReverseproxyRuleInput,
  ReverseproxyRuleResponse,
  ReverseproxySubRuleInput,
} from '@lucky/shared';
import { del, get, post, put } from '../../api/client';

const BASE = 'api/reverseproxy';
const rulePath = (key: string) => `${BASE}/rules/${encodeURIComponent(key)}`;
const subPath = (key: string, sub: string) => `${rulePath(key)}/subrules/${encodeURIComponent(sub)}`;

export const rpKeys = {
  all: ['reverseproxy'] as const,
  rules: ['reverseproxy', 'rules'] as const,
  logs: (key: string, site: string) => ['reverseproxy', 'logs', key, site] as const,
};

export const fetchRules = (signal?: AbortSignal) => get<ReverseproxyListResponse>(`${BASE}/rules`, { signal });

export const fetchRule = (key: string) => get<ReverseproxyRuleResponse>(rulePath(key), { silent: true });

export const createRule = (rule: ReverseproxyRuleInput) =>
  post<ReverseproxyAddRuleResponse>(`${BASE}/rules`, rule, { silent: true });

export const updateRule = (key: string, rule: ReverseproxyRuleInput) =>
  put<ReverseproxyRuleResponse>(rulePath(key), rule, { silent: true });

export const deleteRule = (key: string) => del(rulePath(key), { silent: true });

export const enableRule = (key: string, enabled: boolean) =>
  put<ReverseproxyRuleResponse>(`${rulePath(key)}/enable`, { enabled }, { silent: true });

export const createSubRule = (key: string, sub: ReverseproxySubRuleInput) =>
  post<ReverseproxyRuleResponse>(`${rulePath(key)}/subrules`, sub, { silent: true });

export const updateSubRule = (key: string, sub: string, input: ReverseproxySubRuleInput) =>
  put<ReverseproxyRuleResponse>(subPath(key, sub), input, { silent: true });

export const deleteSubRule = (key: string, sub: string) =>
  del<ReverseproxyRuleResponse>(subPath(key, sub), { silent: true });

export const enableSubRule = (key: string, sub: string, enabled: boolean) =>
  put<ReverseproxyRuleResponse>(`${subPath(key, sub)}/enable`, { enabled }, { silent: true });

/** The module switch (the supervisor runs the module only while it is on). */
export const enableModule = (enabled: boolean) =>
  put<{ ret: number }>('api/modules/reverseproxy/enabled', { enabled }, { silent: true });

export const replaceDomain = (oldDomain: string, newDomain: string) =>
  post<ReverseproxyBatchResponse>(`${BASE}/domains/replace`, { oldDomain, newDomain }, { silent: true });

export interface LogsQuery {
  site: string;
  page: number;
  pageSize: number;
}

export const fetchLogs = (key: string, q: LogsQuery, signal?: AbortSignal) =>
  get<ReverseproxyLogsResponse>(`${rulePath(key)}/logs`, { query: { ...q, order: 'newest' }, signal });
