import { randomInt } from 'node:crypto';
import {
  isSecretName,
  looksLikeToken,
  REVERSEPROXY_MESSAGES as M,
  type ReverseproxyConfig,
  type ReverseproxyRule,
  type ReverseproxyService,
  reverseproxyBatchDomainSchema,
  reverseproxyConfigSchema,
  reverseproxyLogsQuerySchema,
  reverseproxyRuleInputSchema,
  reverseproxySubRuleInputSchema,
} from '@lucky/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { RouteRegistry } from '../../core/http/registry.js';
import { badRequest, conflict, notFound } from '../../core/http/reply.js';
import type { ZodType } from 'zod';
import type { ModuleApi } from '../../core/modules/types.js';
import { ReverseproxyRuntime } from './runtime.js';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newKey = () => Array.from({ length: 16 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('');
const enableBody = z.object({ enable: z.boolean() });
const logsQuery = reverseproxyLogsQuerySchema.extend({ site: z.string().min(1).default('default') });

type Header = ReverseproxyService['requestHeaders'][number];
/** A header towards the back end that carries a credential (Authorization, *token*, *key*, …). */
const secretHeader = (h: Header) => h.value !== '' && (isSecretName(h.name) || looksLikeToken(h.value));

/**
 * Secrets never leave the server: the basic-auth password and the values of credential headers
 * sent to the back end read as '' with `passwordSet` / `valueSet` telling one is stored.
 */
function masked<T extends ReverseproxyService>(s: T) {
  return {
    ...s,
    basicAuth: { ...s.basicAuth, password: '', passwordSet: s.basicAuth.password !== '' },
    requestHeaders: s.requestHeaders.map((h) => (secretHeader(h) ? { ...h, value: '', valueSet: true } : h)),
  };
}

/**
 * An edit that sends an empty password keeps the stored one (the GET never shows it); so does a
 * header sent with an empty value, taking the stored value of the same name (in order).
 */
function keepPassword<T extends ReverseproxyService>(next: T, old: ReverseproxyService | undefined): T {
  if (!old) return next;
  const basicAuth =
    next.basicAuth.password || !old.basicAuth.password
      ? next.basicAuth
      : { ...next.basicAuth, password: old.basicAuth.password };
  const unused = old.requestHeaders.filter(secretHeader);
  const requestHeaders = next.requestHeaders.map((h) => {
    if (h.value !== '') return h;
    const i = unused.findIndex((o) => o.name.toLowerCase() === h.name.toLowerCase());
    if (i < 0) return h;
    const [stored] = unused.splice(i, 1);
    return { ...h, value: stored.value };
  });
  return { ...next, basicAuth, requestHeaders };
}

const params = (req: FastifyRequest) => req.params as { key: string; sub?: string };

/** REST calls of the web service module; see docs/API.md, "Web service (`reverseproxy`)". */
export function registerReverseproxyRoutes(r: RouteRegistry, api: ModuleApi<ReverseproxyConfig>): void {
  const live = () => {
    const rt = api.runtime();
    return rt instanceof ReverseproxyRuntime ? rt : undefined;
  };
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn);
    chain = run.catch(() => {});
    return run;
  };
  const findRule = (c: ReverseproxyConfig, key: string) => {
    const rule = c.rules.find((x) => x.key === key);
    if (!rule) throw notFound(M.ruleNotFound);
    return rule;
  };
  const view = (rule: ReverseproxyRule) => {
    const rt = live();
    const status = rt?.ruleStatus(rule.key) ?? { state: rule.enable ? 'stopped' : 'disabled', warnings: [] };
    const sites = ['default', ...rule.subRules.map((x) => x.key)];
    const lastLogs: Record<string, unknown[]> = {};
    for (const site of sites) {
      const show =
        site === 'default'
          ? rule.defaultRule.log.showLatest
          : (rule.subRules.find((x) => x.key === site)?.log.showLatest ?? 10);
      lastLogs[site] = rt?.log(rule.key, site)?.newest(show) ?? [];
    }
    return {
      ...rule,
      defaultRule: masked(rule.defaultRule),
      subRules: rule.subRules.map(masked),
      status,
      lastLogs,
    };
  };
  /** Validate the whole slice (field paths relative to the rule list), check ports, save, apply. */
  const save = async (next: ReverseproxyConfig, focus?: string) => {
    const valid = parseWith(reverseproxyConfigSchema, next, M);
    const rule = valid.rules.find((x) => x.key === focus);
    if (rule?.enable) {
      const clash = valid.rules.find(
        (o) =>
          o.key !== rule.key &&
          o.enable &&
          o.port === rule.port &&
          (o.address === rule.address || o.address === '' || rule.address === ''),
      );
      if (clash) throw conflict(`${M.portConflict} (${clash.name || clash.key})`, 'port', 'portConflict');
    }
    await api.saveConfig(valid);
    return valid;
  };
  /** Sub rules of a rule input get keys; existing keys are kept. */
  const withKeys = (input: z.infer<typeof reverseproxyRuleInputSchema>, key: string): ReverseproxyRule => ({
    ...input,
    key,
    subRules: input.subRules.map((s) => ({ ...s, key: s.key || newKey() })),
  });

  r.add({
    method: 'GET',
    path: '/api/reverseproxy/rules',
    access: 'token',
    summary: 'Web service: rules with their sub rules, live status and the latest access log lines',
    handler: () => ({ ret: 0, list: api.config().rules.map(view) }),
  });

  r.add({
    method: 'POST',
    path: '/api/reverseproxy/rules',
    access: 'token',
    summary: 'Web service: add a rule (keys are assigned by the server)',
    body: reverseproxyRuleInputSchema,
    handler: (req) =>
      serial(async () => {
        const input = parseWith(reverseproxyRuleInputSchema, req.body, M);
        const prev = api.config();
        const key = newKey();
        const saved = await save({ ...prev, rules: [...prev.rules, withKeys(input, key)] }, key);
        return { ret: 0, key, rule: view(findRule(saved, key)) };
      }),
  });

  r.add({
    method: 'GET',
    path: '/api/reverseproxy/rules/:key',
    access: 'token',
    summary: 'Web service: one rule with status',
    handler: (req) => ({ ret: 0, rule: view(findRule(api.config(), params(req).key)) }),
  });

  r.add({
    method: 'PUT',
    path: '/api/reverseproxy/rules/:key',
    access: 'token',
    summary: 'Web service: replace a rule (its socket stays open when address and port are unchanged)',
    body: reverseproxyRuleInputSchema,
    handler: (req) =>
      serial(async () => {
        const prev = api.config();
        const old = findRule(prev, params(req).key);
        const input = withKeys(parseWith(reverseproxyRuleInputSchema, req.body, M), old.key);
        const rule: ReverseproxyRule = {
          ...input,
          defaultRule: keepPassword(input.defaultRule, old.defaultRule),
          subRules: input.subRules.map((x) =>
            keepPassword(
              x,
              old.subRules.find((o) => o.key === x.key),
            ),
          ),
        };
        const saved = await save({ ...prev, rules: prev.rules.map((x) => (x.key === old.key ? rule : x)) }, old.key);
        return { ret: 0, rule: view(findRule(saved, old.key)) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/reverseproxy/rules/:key',
    access: 'token',
    summary: 'Web service: delete a rule (its socket closes, its logs are dropped)',
    handler: (req) =>
      serial(async () => {
        const prev = api.config();
        const old = findRule(prev, params(req).key);
        await save({ ...prev, rules: prev.rules.filter((x) => x.key !== old.key) });
        return { ret: 0 };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/reverseproxy/rules/:key/enable',
    access: 'token',
    summary: 'Web service: switch a rule on or off',
    body: enableBody,
    handler: (req) =>
      serial(async () => {
        const { enable } = parseWith(enableBody, req.body);
        const prev = api.config();
        const old = findRule(prev, params(req).key);
        const saved = await save({ ...prev, rules: prev.rules.map((x) => (x.key === old.key ? { ...x, enable } : x)) }, old.key);
        return { ret: 0, rule: view(findRule(saved, old.key)) };
      }),
  });

  const editSub = (
    req: FastifyRequest,
    edit: (rule: ReverseproxyRule, sub: string | undefined) => ReverseproxyRule['subRules'],
  ) =>
    serial(async () => {
      const prev = api.config();
      const rule = findRule(prev, params(req).key);
      const subRules = edit(rule, params(req).sub);
      const saved = await save(
        { ...prev, rules: prev.rules.map((x) => (x.key === rule.key ? { ...x, subRules } : x)) },
        rule.key,
      );
      return { ret: 0, rule: view(findRule(saved, rule.key)) };
    });
  const mustHaveSub = (rule: ReverseproxyRule, sub: string | undefined) => {
    if (!rule.subRules.some((x) => x.key === sub)) throw notFound(M.subRuleNotFound);
  };

  r.add({
    method: 'POST',
    path: '/api/reverseproxy/rules/:key/subrules',
    access: 'token',
    summary: 'Web service: add a sub rule to a rule',
    body: reverseproxySubRuleInputSchema,
    handler: (req) =>
      editSub(req, (rule) => [
        ...rule.subRules,
        { ...parseWith(reverseproxySubRuleInputSchema, req.body, M), key: newKey() },
      ]),
  });

  r.add({
    method: 'PUT',
    path: '/api/reverseproxy/rules/:key/subrules/:sub',
    access: 'token',
    summary: 'Web service: replace a sub rule',
    body: reverseproxySubRuleInputSchema,
    handler: (req) =>
      editSub(req, (rule, sub) => {
        mustHaveSub(rule, sub);
        const input = parseWith(reverseproxySubRuleInputSchema, req.body, M);
        return rule.subRules.map((x) => (x.key === sub ? keepPassword({ ...input, key: x.key }, x) : x));
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/reverseproxy/rules/:key/subrules/:sub',
    access: 'token',
    summary: 'Web service: delete a sub rule',
    handler: (req) =>
      editSub(req, (rule, sub) => {
        mustHaveSub(rule, sub);
        return rule.subRules.filter((x) => x.key !== sub);
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/reverseproxy/rules/:key/subrules/:sub/enable',
    access: 'token',
    summary: 'Web service: switch a sub rule on or off',
    body: enableBody,
    handler: (req) =>
      editSub(req, (rule, sub) => {
        mustHaveSub(rule, sub);
        const { enable } = parseWith(enableBody, req.body);
        return rule.subRules.map((x) => (x.key === sub ? { ...x, enable } : x));
      }),
  });

  r.add({
    method: 'POST',
    path: '/api/reverseproxy/domains/replace',
    access: 'token',
    summary: 'Web service: replace a front-end domain in every sub rule of every rule',
    body: reverseproxyBatchDomainSchema,
    handler: (req) =>
      serial(async () => {
        const { oldDomain, newDomain } = parseWith(reverseproxyBatchDomainSchema, req.body, M);
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
    summary: 'Web service: access log of a sub rule (site=<sub rule key>, or default), paged',
    query: logsQuery,
    handler: (req) => {
      const q = parseWith(logsQuery, req.query);
      const rule = findRule(api.config(), params(req).key);
      if (q.site !== 'default') mustHaveSub(rule, q.site);
      const log = live()?.log(rule.key, q.site);
      const page = log?.page(q.page, q.pageSize, q.order) ?? { total: 0, logs: [] };
      return { ret: 0, page: q.page, pageSize: q.pageSize, ...page };
    },
  });
}

/** Validate with a shared schema; the first issue becomes `{ret:1, msg, field[, code]}` (this module's messages are English text, mapped back to their code). */
function parseWith<T>(schema: ZodType<T>, input: unknown, codes?: Readonly<Record<string, string>>): T {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path.join('.');
  const code = codes ? Object.keys(codes).find((k) => codes[k] === issue.message) : undefined;
  throw badRequest(field ? `${field}: ${issue.message}` : issue.message, field || undefined, code);
}
