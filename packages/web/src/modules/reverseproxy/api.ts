// Calls of the web service module (docs/API.md, "Web service (`reverseproxy`)").
// Calls that change something are `silent`: the screen translates a refusal
// itself (errors.ts) and puts it on the form field the server names.
import type { ReverseproxyRuleInput, ReverseproxySubRuleInput } from '@lucky/shared';
import { del, get, post, put } from '../../api/client';
import type { LogsResponse, RuleListResponse, RuleResponse } from './types';

const BASE = 'api/reverseproxy';
const rulePath = (key: string) => `${BASE}/rules/${encodeURIComponent(key)}`;
const subPath = (key: string, sub: string) => `${rulePath(key)}/subrules/${encodeURIComponent(sub)}`;

export const rpKeys = {
  all: ['reverseproxy'] as const,
  rules: ['reverseproxy', 'rules'] as const,
  logs: (key: string, site: string) => ['reverseproxy', 'logs', key, site] as const,
};

export const fetchRules = (signal?: AbortSignal) => get<RuleListResponse>(`${BASE}/rules`, { signal });

export const fetchRule = (key: string) => get<RuleResponse>(rulePath(key), { silent: true });

export const createRule = (rule: ReverseproxyRuleInput) =>
  post<RuleResponse & { key: string }>(`${BASE}/rules`, rule, { silent: true });

export const updateRule = (key: string, rule: ReverseproxyRuleInput) =>
  put<RuleResponse>(rulePath(key), rule, { silent: true });

export const deleteRule = (key: string) => del(rulePath(key), { silent: true });

export const enableRule = (key: string, enable: boolean) =>
  put<RuleResponse>(`${rulePath(key)}/enable`, { enable }, { silent: true });

export const createSubRule = (key: string, sub: ReverseproxySubRuleInput) =>
  post<RuleResponse>(`${rulePath(key)}/subrules`, sub, { silent: true });

export const updateSubRule = (key: string, sub: string, input: ReverseproxySubRuleInput) =>
  put<RuleResponse>(subPath(key, sub), input, { silent: true });

export const deleteSubRule = (key: string, sub: string) => del<RuleResponse>(subPath(key, sub), { silent: true });

export const enableSubRule = (key: string, sub: string, enable: boolean) =>
  put<RuleResponse>(`${subPath(key, sub)}/enable`, { enable }, { silent: true });

export const replaceDomain = (oldDomain: string, newDomain: string) =>
  post<{ ret: number; changed: number }>(`${BASE}/domains/replace`, { oldDomain, newDomain }, { silent: true });

export interface LogsQuery {
  site: string;
  page: number;
  pageSize: number;
}

export const fetchLogs = (key: string, q: LogsQuery, signal?: AbortSignal) =>
  get<LogsResponse>(`${rulePath(key)}/logs`, { query: { ...q, order: 'newest' }, signal });
