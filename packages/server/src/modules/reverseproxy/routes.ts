import {
  enabledBodySchema,
  REVERSEPROXY_DEFAULT_SITE,
  type ReverseproxyAddRuleResponse,
  type ReverseproxyBatchResponse,
  type ReverseproxyConfig,
  type ReverseproxyListResponse,
  type ReverseproxyLogsResponse,
  type ReverseproxyRule,
  type ReverseproxyRuleResponse,
  type ReverseproxySubRule,
  reverseproxyBatchDomainSchema,
  reverseproxyIssues,
  reverseproxyLogsQuerySchema,
  reverseproxyRuleInputSchema,
  reverseproxySubRuleInputSchema,
} from '@lucky/shared';
import type { z } from 'zod';
import type { Routes } from '../../core/http/registry.js';
import { fieldFailure } from '../../core/http/reply.js';
import { newKey, serialQueue } from '../../core/modules/keyed.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { portConflict } from './checks.js';
import { ReverseproxyRuntime } from './runtime.js';
import { keepFreeTextSecrets } from './secrets.js';
import { ruleView } from './views.js';

type RuleInput = z.infer<typeof reverseproxyRuleInputSchema>;
type SubRuleInput = z.infer<typeof reverseproxySubRuleInputSchema>;

const notFound = (code: 'ruleNotFound' | 'subRuleNotFound', field: string) =>
  fieldFailure({ field, code, params: {}, msg: reverseproxyIssues.describe(code) }, 404);

/**
 * REST calls of the web service module; see docs/API.md, "Web service (`reverseproxy`)". Bodies
 * and queries are parsed by the registry with the module's schemas; secrets are masked in every
 * answer (views.ts) and kept when sent back masked (basic-auth passwords by the supervisor,
 * header values and custom configs by secrets.ts).
 */
export function registerReverseproxyRoutes(r: Routes, api: ModuleApi<ReverseproxyConfig>): void {
  const serial = serialQueue();
  const live = () => {
    const rt = api.runtime();
    return rt instanceof ReverseproxyRuntime ? rt : undefined;
  };
  const view = (rule: ReverseproxyRule) => ruleView(rule, live(), api.config().enabled);
  const findRule = (c: ReverseproxyConfig, key: string) => {
    const rule = c.rules.find((x) => x.key === key);
    if (!rule) throw notFound('ruleNotFound', 'key');
    return rule;
  };
  const findSub = (rule: ReverseproxyRule, sub: string | undefined) => {
    const found = rule.subRules.find((x) => x.key === sub);
    if (!found) throw notFound('subRuleNotFound', 'sub');
    return found;
  };
  /** The module's check across rules (`focus`: the rule this call changed), then validate → apply → save. */
  const save = async (next: ReverseproxyConfig, focus?: string) => {
    const clash = focus ? portConflict(next, focus) : undefined;
    if (clash) throw fieldFailure(clash, 409);
    await api.saveConfig(next);
    return api.config();
  };
  const ruleAnswer = (config: ReverseproxyConfig, key: string): ReverseproxyRuleResponse => ({
    ret: 0,
    rule: view(findRule(config, key)),
  });
  /** A sub rule as sent, with its key (kept when it names a stored one) and its stored free-text secrets. */
  const subRuleOf = (input: SubRuleInput, stored: ReverseproxySubRule[], taken: { key: string }[], at: string) => {
    const old = stored.find((x) => x.key === input.key);
    const key = old?.key ?? newKey(taken);
    taken.push({ key });
    return keepFreeTextSecrets({ ...input, key }, old, at);
  };
  /** A rule as sent: sub rules keyed, masked header values and custom configs back from `old`. */
  const ruleOf = (input: RuleInput, key: string, old?: ReverseproxyRule): ReverseproxyRule => {
    const stored = old?.subRules ?? [];
    const taken = input.subRules.filter((s) => s.key).map((s) => ({ key: s.key as string }));
    return {
      ...input,
      key,
      defaultRule: keepFreeTextSecrets(input.defaultRule, old?.defaultRule, 'defaultRule.'),
      subRules: input.subRules.map((s, i) => subRuleOf(s, stored, taken, `subRules.${i}.`)),
    };
  };

  r.add({
    method: 'GET',
    path: '/api/reverseproxy/rules',
    access: 'token',
    summary: 'Web service: the module switch and every rule with its sub rules, live status and latest log lines',
    handler: (): ReverseproxyListResponse => {
      const config = api.config();
      return { ret: 0, enabled: config.enabled, list: config.rules.map(view) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/reverseproxy/rules',
    access: 'token',
    summary: 'Web service: add a rule (keys are assigned by the server)',
    body: reverseproxyRuleInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<ReverseproxyAddRuleResponse> => {
        const prev = api.config();
        const key = newKey(prev.rules);
        const saved = await save({ ...prev, rules: [...prev.rules, ruleOf(input.body, key)] }, key);
        return { ...ruleAnswer(saved, key), key };
      }),
  });

  r.add({
    method: 'GET',
    path: '/api/reverseproxy/rules/:key',
    access: 'token',
    summary: 'Web service: one rule with status',
    handler: (_req, _reply, input): ReverseproxyRuleResponse => ruleAnswer(api.config(), input.params.key),
  });

  r.add({
    method: 'PUT',
    path: '/api/reverseproxy/rules/:key',
    access: 'token',
    summary: 'Web service: replace a rule (its socket stays open when address and port are unchanged)',
    body: reverseproxyRuleInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<ReverseproxyRuleResponse> => {
        const prev = api.config();
        const old = findRule(prev, input.params.key);
        const rule = ruleOf(input.body, old.key, old);
        const saved = await save({ ...prev, rules: prev.rules.map((x) => (x.key === old.key ? rule : x)) }, old.key);
        return ruleAnswer(saved, old.key);
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/reverseproxy/rules/:key',
    access: 'token',
    summary: 'Web service: delete a rule (its socket closes, its logs are dropped)',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = findRule(prev, input.params.key);
        await save({ ...prev, rules: prev.rules.filter((x) => x.key !== old.key) });
        return { ret: 0 };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/reverseproxy/rules/:key/enable',
    access: 'token',
    summary: 'Web service: switch a rule on or off',
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<ReverseproxyRuleResponse> => {
        const prev = api.config();
        const old = findRule(prev, input.params.key);
        const { enabled } = input.body;
        const rules = prev.rules.map((x) => (x.key === old.key ? { ...x, enabled } : x));
        return ruleAnswer(await save({ ...prev, rules }, old.key), old.key);
      }),
  });

  /** Change the sub rules of rule `:key` and answer the rule. */
  const editSubs = (key: string, edit: (rule: ReverseproxyRule) => ReverseproxySubRule[]) =>
    serial(async (): Promise<ReverseproxyRuleResponse> => {
      const prev = api.config();
      const rule = findRule(prev, key);
      const subRules = edit(rule);
      const rules = prev.rules.map((x) => (x.key === rule.key ? { ...x, subRules } : x));
      return ruleAnswer(await save({ ...prev, rules }, rule.key), rule.key);
    });

  r.add({
    method: 'POST',
    path: '/api/reverseproxy/rules/:key/subrules',
    access: 'token',
    summary: 'Web service: add a sub rule to a rule',
    body: reverseproxySubRuleInputSchema,
    handler: (_req, _reply, input) =>
      editSubs(input.params.key, (rule) => [
        ...rule.subRules,
        keepFreeTextSecrets({ ...input.body, key: newKey(rule.subRules) }, undefined),
      ]),
  });

  r.add({
    method: 'PUT',
    path: '/api/reverseproxy/rules/:key/subrules/:sub',
    access: 'token',
    summary: 'Web service: replace a sub rule (secrets sent back masked are kept)',
    body: reverseproxySubRuleInputSchema,
    handler: (_req, _reply, input) =>
      editSubs(input.params.key, (rule) => {
        const old = findSub(rule, input.params.sub);
        const sub = keepFreeTextSecrets({ ...input.body, key: old.key }, old);
        return rule.subRules.map((x) => (x.key === old.key ? sub : x));
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/reverseproxy/rules/:key/subrules/:sub',
    access: 'token',
    summary: 'Web service: delete a sub rule',
    handler: (_req, _reply, input) =>
      editSubs(input.params.key, (rule) => {
        const old = findSub(rule, input.params.sub);
        return rule.subRules.filter((x) => x.key !== old.key);
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/reverseproxy/rules/:key/subrules/:sub/enable',
    access: 'token',
    summary: 'Web service: switch a sub rule on or off',
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      editSubs(input.params.key, (rule) => {
        const old = findSub(rule, input.params.sub);
        return rule.subRules.map((x) => (x.key === old.key ? { ...x, enabled: input.body.enabled } : x));
      }),
  });

  r.add({
    method: 'POST',
    path: '/api/reverseproxy/domains/replace',
    access: 'token',
    summary: 'Web service: replace a front-end domain in every sub rule of every rule',
    body: reverseproxyBatchDomainSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<ReverseproxyBatchResponse> => {
        const { oldDomain, newDomain } = input.body;
        const prev = api.config();
        let changed = 0;
        const rules = prev.rules.map((rule) => ({
          ...rule,
          subRules: rule.subRules.map((sub) => {
            if (!sub.domains.includes(oldDomain)) return sub;
            changed++;
            return { ...sub, domains: [...new Set(sub.domains.map((d) => (d === oldDomain ? newDomain : d)))] };
          }),
        }));
        if (changed > 0) await save({ ...prev, rules });
        return { ret: 0, changed };
      }),
  });

  r.add({
    method: 'GET',
    path: '/api/reverseproxy/rules/:key/logs',
    access: 'token',
    summary: 'Web service: log of a site (site=<sub rule key>, or default), paged',
    query: reverseproxyLogsQuerySchema,
    handler: (_req, _reply, input): ReverseproxyLogsResponse => {
      const q = input.query;
      const rule = findRule(api.config(), input.params.key);
      if (q.site !== REVERSEPROXY_DEFAULT_SITE) findSub(rule, q.site);
      const log = live()?.log(rule.key, q.site);
      const page = log?.page(q.page, q.pageSize, q.order) ?? { total: 0, logs: [] };
      return { ret: 0, page: q.page, pageSize: q.pageSize, ...page };
    },
  });
}
