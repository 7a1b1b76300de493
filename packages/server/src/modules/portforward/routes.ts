import {
  type PortforwardConfig,
  type PortforwardListResponse,
  type PortforwardLogsResponse,
  type PortforwardSettingsResponse,
  portforwardLogsQuerySchema,
  portforwardRuleInputSchema,
  portforwardSettingsPatchSchema,
} from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import { serialQueue } from '../../core/modules/keyed.js';
import { addKeyedListRoutes } from '../../core/modules/keyedListRoutes.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { checkChange, refuse } from './checks.js';
import { PortforwardRuntime } from './runtime.js';
import { RULE_SECRETS, ruleView, settingsView, summaryView } from './views.js';

/**
 * REST calls of the port-forwarding module; see docs/API.md, section "Port forwarding". Bodies
 * and queries are parsed by the registry; the module's own checks (TLS material, rules across)
 * run on the new config with its stored secrets in place; the supervisor keeps the secrets,
 * applies and saves. While the module is switched off there is no runtime: rules read as stopped.
 */
export function registerPortforwardRoutes(r: Routes, api: ModuleApi<PortforwardConfig>): void {
  const serial = serialQueue();
  const live = () => {
    const rt = api.runtime();
    return rt instanceof PortforwardRuntime ? rt : undefined;
  };
  const notFound = () => refuse('key', 'ruleNotFound');
  const find = (config: PortforwardConfig, key: string) => {
    const rule = config.rules.find((x) => x.key === key);
    if (!rule) throw notFound();
    return rule;
  };

  addKeyedListRoutes(r, api, {
    path: '/api/portforward/rules',
    field: 'rules',
    body: portforwardRuleInputSchema,
    serial,
    notFound,
    secrets: RULE_SECRETS,
    checkChange,
    view: (rule) => ruleView(rule, live()),
    answer: 'rule',
    addAnswersKey: true,
    list: {
      summary: 'Port forwarding: rules with live figures per rule and port, and the last log lines',
      answer: (config, list): PortforwardListResponse => ({ ret: 0, summary: summaryView(config, live()), list }),
    },
    summaries: {
      add: 'Port forwarding: add a rule (the server assigns its key)',
      one: 'Port forwarding: one rule with live figures',
      edit: 'Port forwarding: replace a rule (untouched ports keep their connections; a key sent back masked is kept)',
      delete: 'Port forwarding: delete a rule (its ports close, its log is dropped)',
      enable: 'Port forwarding: switch a rule on or off',
    },
  });

  r.add({
    method: 'GET',
    path: '/api/portforward/rules/:key/logs',
    access: 'token',
    summary: 'Port forwarding: a page of a rule’s log (newest first unless order=oldest)',
    query: portforwardLogsQuerySchema,
    handler: (_req, _reply, input): PortforwardLogsResponse => {
      const rule = find(api.config(), input.params.key);
      const q = input.query;
      const log = live()?.rule(rule.key)?.log;
      const page = log ? log.page(q.page, q.pageSize, q.order) : { total: 0, logs: [] };
      return { ret: 0, ...page, page: q.page, pageSize: q.pageSize, order: q.order };
    },
  });

  r.add({
    method: 'DELETE',
    path: '/api/portforward/rules/:key/logs',
    access: 'token',
    summary: 'Port forwarding: clear a rule’s log',
    handler: (_req, _reply, input) => {
      const rule = find(api.config(), input.params.key);
      live()?.rule(rule.key)?.log.clear();
      return { ret: 0 };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/portforward/settings',
    access: 'token',
    summary: 'Port forwarding: global settings (the module switch `enabled` among them) and live totals',
    handler: (): PortforwardSettingsResponse => {
      const config = api.config();
      return { ret: 0, settings: settingsView(config), summary: summaryView(config, live()) };
    },
  });

  r.add({
    method: 'PUT',
    path: '/api/portforward/settings',
    access: 'token',
    summary: 'Port forwarding: change global settings (any subset; `enabled` is the module switch)',
    body: portforwardSettingsPatchSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<PortforwardSettingsResponse> => {
        const prev = api.config();
        // The rules are the stored ones (secrets in place): only the limits across them are checked.
        const next = { ...prev, ...input.body };
        checkChange(next, prev);
        await api.saveConfig(next);
        const saved = api.config();
        return { ret: 0, settings: settingsView(saved), summary: summaryView(saved, live()) };
      }),
  });
}
