import { randomInt } from 'node:crypto';
import {
  type PortforwardConfig,
  type PortforwardRule,
  portforwardEnableSchema,
  portforwardLogsQuerySchema,
  portforwardRuleInputSchema,
  portforwardSettingsSchema,
} from '@lucky/shared';
import type { FastifyRequest } from 'fastify';
import type { RouteRegistry } from '../../core/http/registry.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { PortforwardRuntime } from './runtime.js';
import { issueOf, parseInput, validateConfig } from './validate.js';
import { ruleView, summaryView } from './views.js';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newKey = () => Array.from({ length: 16 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('');

const keyOf = (req: FastifyRequest) => (req.params as { key: string }).key;

/** REST calls of the port-forwarding module; see docs/API.md, section "Port forwarding". */
export function registerPortforwardRoutes(r: RouteRegistry, api: ModuleApi<PortforwardConfig>): void {
  const live = () => {
    const rt = api.runtime();
    return rt instanceof PortforwardRuntime ? rt : undefined;
  };
  // One change at a time: each reads the config the previous one saved.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn);
    chain = run.catch(() => {});
    return run;
  };
  const find = (config: PortforwardConfig, key: string) => {
    const rule = config.rules.find((x) => x.key === key);
    if (!rule) throw issueOf('key', 'ruleNotFound');
    return rule;
  };
  /** Validate → save → apply, then answer the rule as it runs now. */
  const save = async (prev: PortforwardConfig, next: PortforwardConfig, focus?: string) => {
    const valid = validateConfig(next, prev, focus);
    await api.saveConfig(valid);
    return valid;
  };
  const view = (rule: PortforwardRule) => ruleView(rule, api.config(), live());

  r.add({
    method: 'GET',
    path: '/api/portforward/rules',
    access: 'token',
    summary: 'Port forwarding: rules with live figures per rule and port, and the last log lines',
    handler: () => {
      const config = api.config();
      const rt = live();
      return { ret: 0, summary: summaryView(config, rt), list: config.rules.map((x) => ruleView(x, config, rt)) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/portforward/rules',
    access: 'token',
    summary: 'Port forwarding: add a rule (the server assigns its key)',
    body: portforwardRuleInputSchema,
    handler: (req) =>
      serial(async () => {
        const input = parseInput(portforwardRuleInputSchema, req.body);
        const prev = api.config();
        let key = newKey();
        while (prev.rules.some((x) => x.key === key)) key = newKey();
        const saved = await save(prev, { ...prev, rules: [...prev.rules, { ...input, key }] }, key);
        return { ret: 0, key, rule: view(find(saved, key)) };
      }),
  });

  r.add({
    method: 'GET',
    path: '/api/portforward/rules/:key',
    access: 'token',
    summary: 'Port forwarding: one rule with live figures',
    handler: (req) => ({ ret: 0, rule: view(find(api.config(), keyOf(req))) }),
  });

  r.add({
    method: 'PUT',
    path: '/api/portforward/rules/:key',
    access: 'token',
    summary: 'Port forwarding: replace a rule (untouched ports keep their connections)',
    body: portforwardRuleInputSchema,
    handler: (req) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, keyOf(req));
        // The key is never sent back; an empty one with a certificate keeps the stored key.
        // Put it back BEFORE validating, or the schema refuses a certificate without its key.
        const body = { ...(req.body as Record<string, unknown>) };
        const sentKey = typeof body.tlsKey === 'string' ? body.tlsKey.trim() : '';
        const sentCert = typeof body.tlsCert === 'string' ? body.tlsCert.trim() : '';
        if (!sentKey && sentCert && old.tlsKey) body.tlsKey = old.tlsKey;
        const input = parseInput(portforwardRuleInputSchema, body);
        const rule = { ...input, key: old.key };
        const saved = await save(
          prev,
          { ...prev, rules: prev.rules.map((x) => (x.key === old.key ? rule : x)) },
          old.key,
        );
        return { ret: 0, rule: view(find(saved, old.key)) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/portforward/rules/:key',
    access: 'token',
    summary: 'Port forwarding: delete a rule (its ports close, its log is dropped)',
    handler: (req) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, keyOf(req));
        await api.saveConfig({ ...prev, rules: prev.rules.filter((x) => x.key !== old.key) });
        return { ret: 0 };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/portforward/rules/:key/enable',
    access: 'token',
    summary: 'Port forwarding: switch a rule on or off',
    body: portforwardEnableSchema,
    handler: (req) =>
      serial(async () => {
        const { enabled } = parseInput(portforwardEnableSchema, req.body);
        const prev = api.config();
        const old = find(prev, keyOf(req));
        const next = { ...prev, rules: prev.rules.map((x) => (x.key === old.key ? { ...x, enabled } : x)) };
        // Switching off never conflicts with anything; switching on is checked like an edit.
        if (enabled) await save(prev, next, old.key);
        else await api.saveConfig(next);
        return { ret: 0, rule: view(find(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'GET',
    path: '/api/portforward/rules/:key/logs',
    access: 'token',
    summary: 'Port forwarding: a page of a rule’s log (newest first unless order=oldest)',
    query: portforwardLogsQuerySchema,
    handler: (req) => {
      const rule = find(api.config(), keyOf(req));
      const q = parseInput(portforwardLogsQuerySchema, req.query);
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
    handler: (req) => {
      const rule = find(api.config(), keyOf(req));
      live()?.rule(rule.key)?.log.clear();
      return { ret: 0 };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/portforward/settings',
    access: 'token',
    summary: 'Port forwarding: global settings and live totals',
    handler: () => {
      const { rules: _rules, ...settings } = api.config();
      return { ret: 0, settings, summary: summaryView(api.config(), live()) };
    },
  });

  r.add({
    method: 'PUT',
    path: '/api/portforward/settings',
    access: 'token',
    summary: 'Port forwarding: change global settings (any subset; the switch stops or starts everything)',
    body: portforwardSettingsSchema.partial(),
    handler: (req) =>
      serial(async () => {
        const prev = api.config();
        const { rules, ...current } = prev;
        const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : null;
        if (!body) throw issueOf('', 'invalidType');
        const settings = parseInput(portforwardSettingsSchema, { ...current, ...body });
        const saved = await save(prev, { ...settings, rules });
        const { rules: _r, ...out } = saved;
        return { ret: 0, settings: out, summary: summaryView(saved, live()) };
      }),
  });
}
