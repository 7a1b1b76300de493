import {
  enabledBodySchema,
  keepSecrets,
  PORTFORWARD_SECRETS,
  type PortforwardConfig,
  type PortforwardListResponse,
  type PortforwardLogsResponse,
  type PortforwardRuleAddedResponse,
  type PortforwardRuleResponse,
  type PortforwardSettingsResponse,
  portforwardLogsQuerySchema,
  portforwardRuleInputSchema,
  portforwardSettingsPatchSchema,
} from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import { newKey, serialQueue } from '../../core/modules/keyed.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { checkChange, refuse } from './checks.js';
import { PortforwardRuntime } from './runtime.js';
import { ruleView, settingsView, summaryView } from './views.js';

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
  const find = (config: PortforwardConfig, key: string) => {
    const rule = config.rules.find((x) => x.key === key);
    if (!rule) throw refuse('key', 'ruleNotFound');
    return rule;
  };
  /** Check → save (the supervisor keeps secrets sent back masked, applies, then writes the file). */
  const save = async (prev: PortforwardConfig, next: PortforwardConfig, focus?: string) => {
    checkChange(keepSecrets(next, prev, PORTFORWARD_SECRETS), prev, focus);
    await api.saveConfig(next);
  };
  const view = (key: string) => ruleView(find(api.config(), key), live());

  r.add({
    method: 'GET',
    path: '/api/portforward/rules',
    access: 'token',
    summary: 'Port forwarding: rules with live figures per rule and port, and the last log lines',
    handler: (): PortforwardListResponse => {
      const config = api.config();
      const rt = live();
      return { ret: 0, summary: summaryView(config, rt), list: config.rules.map((x) => ruleView(x, rt)) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/portforward/rules',
    access: 'token',
    summary: 'Port forwarding: add a rule (the server assigns its key)',
    body: portforwardRuleInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<PortforwardRuleAddedResponse> => {
        const prev = api.config();
        const key = newKey(prev.rules);
        await save(prev, { ...prev, rules: [...prev.rules, { ...input.body, key }] }, key);
        return { ret: 0, key, rule: view(key) };
      }),
  });

  r.add({
    method: 'GET',
    path: '/api/portforward/rules/:key',
    access: 'token',
    summary: 'Port forwarding: one rule with live figures',
    handler: (_req, _reply, input): PortforwardRuleResponse => ({ ret: 0, rule: view(input.params.key) }),
  });

  r.add({
    method: 'PUT',
    path: '/api/portforward/rules/:key',
    access: 'token',
    summary: 'Port forwarding: replace a rule (untouched ports keep their connections; a key sent back masked is kept)',
    body: portforwardRuleInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<PortforwardRuleResponse> => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        const rule = { ...input.body, key: old.key };
        await save(prev, { ...prev, rules: prev.rules.map((x) => (x.key === old.key ? rule : x)) }, old.key);
        return { ret: 0, rule: view(old.key) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/portforward/rules/:key',
    access: 'token',
    summary: 'Port forwarding: delete a rule (its ports close, its log is dropped)',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        await api.saveConfig({ ...prev, rules: prev.rules.filter((x) => x.key !== old.key) });
        return { ret: 0 };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/portforward/rules/:key/enable',
    access: 'token',
    summary: 'Port forwarding: switch a rule on or off',
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<PortforwardRuleResponse> => {
        const { enabled } = input.body;
        const prev = api.config();
        const old = find(prev, input.params.key);
        const next = { ...prev, rules: prev.rules.map((x) => (x.key === old.key ? { ...x, enabled } : x)) };
        // Switching off never conflicts with anything; switching on is checked like an edit.
        if (enabled) await save(prev, next, old.key);
        else await api.saveConfig(next);
        return { ret: 0, rule: view(old.key) };
      }),
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
        await save(prev, { ...prev, ...input.body });
        const saved = api.config();
        return { ret: 0, settings: settingsView(saved), summary: summaryView(saved, live()) };
      }),
  });
}
