import {
  keepSecrets,
  maskSecrets,
  STUN_SECRETS,
  type StunConfig,
  type StunDdnsTasksResponse,
  type StunGatewaysResponse,
  type StunListResponse,
  type StunLogsResponse,
  type StunNatTypeResponse,
  type StunRuleResponse,
  type StunSettingsResponse,
  type StunWebhookTestResponse,
  stunLogsQuerySchema,
  stunNatTypeBodySchema,
  stunRuleInputSchema,
  stunSettingsPatchSchema,
  stunWebhookTestBodySchema,
} from '@lucky/shared';
import { z } from 'zod';
import type { Routes } from '../../core/http/registry.js';
import { conflict } from '../../core/http/reply.js';
import { serialQueue } from '../../core/modules/keyed.js';
import { addKeyedListRoutes } from '../../core/modules/keyedListRoutes.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { restoreWebhook } from '../../core/webhook/secrets.js';
import { checkChange, refuse } from './checks.js';
import { MappingError } from './mapping.js';
import { StunRuntime } from './runtime.js';
import { RULE_SECRETS, ruleView, settingsView, summaryView } from './views.js';

const gatewaysQuerySchema = z.object({ localAddress: z.string().trim().max(64).default('') });

/**
 * REST calls of the STUN module; see docs/API.md, section "STUN". Bodies and queries are parsed
 * by the registry; the module's checks (names, local ports across rules, the DDNS task) run on
 * the new config; the supervisor keeps secrets sent back masked, applies, then saves. While the
 * module is off there is no runtime: rules read as stopped and the live calls answer
 * `moduleDisabled` (spec §8 "STUN module disabled").
 */
export function registerStunRoutes(r: Routes, api: ModuleApi<StunConfig>): void {
  const serial = serialQueue();
  const live = () => {
    const rt = api.runtime();
    return rt instanceof StunRuntime ? rt : undefined;
  };
  const running = () => {
    const rt = live();
    if (!rt) throw conflict('STUN module disabled', undefined, 'moduleDisabled');
    return rt;
  };
  const notFound = () => refuse('key', 'ruleNotFound', {}, 404);
  const find = (config: StunConfig, key: string) => {
    const rule = config.rules.find((x) => x.key === key);
    if (!rule) throw notFound();
    return rule;
  };
  const save = async (prev: StunConfig, next: StunConfig, focus?: string) => {
    checkChange(keepSecrets(next, prev, STUN_SECRETS), focus);
    await api.saveConfig(next);
  };
  const view = (key: string) => ruleView(maskSecrets(find(api.config(), key), RULE_SECRETS), live());
  /** A live call that failed (no server answered, no interface …): a coded refusal, never a bare 500. */
  const failedAs = async <T>(code: 'natTypeFailed' | 'gatewaysFailed', run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      const detail = err instanceof MappingError ? err.reason.text : (err as Error).message;
      throw refuse('', code, { detail }, 409);
    }
  };

  addKeyedListRoutes(r, api, {
    path: '/api/stun/rules',
    field: 'rules',
    body: stunRuleInputSchema,
    serial,
    notFound,
    secrets: RULE_SECRETS,
    checkChange: (next, _prev, key) => checkChange(next, key),
    view: (rule) => ruleView(rule, live()),
    answer: 'rule',
    addAnswersKey: true,
    list: {
      summary: 'STUN: rules with their mappings (public address, state, reason), NAT type and last log lines',
      answer: (config, list): StunListResponse => ({ ret: 0, summary: summaryView(config, live()), list }),
    },
    summaries: {
      add: 'STUN: add a rule (the server assigns its key)',
      one: 'STUN: one rule with its mappings',
      edit: 'STUN: replace a rule (a changed rule opens its mappings again; masked secrets are kept)',
      delete: 'STUN: delete a rule (its mappings, router port mappings and firewall opening are removed)',
      enable: 'STUN: switch a rule on or off',
    },
  });

  r.add({
    method: 'POST',
    path: '/api/stun/rules/:key/reopen',
    access: 'token',
    summary: 'STUN: drop a rule’s mappings and open them again now',
    handler: async (_req, _reply, input): Promise<StunRuleResponse> => {
      const rule = find(api.config(), input.params.key);
      await running().reopen(rule.key);
      return { ret: 0, rule: view(rule.key) };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/stun/rules/:key/logs',
    access: 'token',
    summary: 'STUN: a page of a rule’s log (newest first unless order=oldest)',
    query: stunLogsQuerySchema,
    handler: (_req, _reply, input): StunLogsResponse => {
      const rule = find(api.config(), input.params.key);
      const q = input.query;
      const log = live()?.rule(rule.key)?.log;
      const page = log ? log.page(q.page, q.pageSize, q.order) : { total: 0, logs: [] };
      return { ret: 0, ...page, page: q.page, pageSize: q.pageSize, order: q.order };
    },
  });

  r.add({
    method: 'DELETE',
    path: '/api/stun/rules/:key/logs',
    access: 'token',
    summary: 'STUN: clear a rule’s log',
    handler: (_req, _reply, input) => {
      const rule = find(api.config(), input.params.key);
      live()?.rule(rule.key)?.log.clear();
      return { ret: 0 };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/stun/rules/:key/nat-type',
    access: 'token',
    summary: 'STUN: detect the NAT behaviour (RFC 5780) through a rule’s channel and servers',
    handler: async (_req, _reply, input): Promise<StunNatTypeResponse> => {
      const rule = find(api.config(), input.params.key);
      return { ret: 0, natType: await failedAs('natTypeFailed', () => running().detectNatForRule(rule.key)) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/stun/nat-type',
    access: 'token',
    summary: 'STUN: detect the NAT behaviour (RFC 5780) on demand',
    body: stunNatTypeBodySchema,
    handler: async (_req, _reply, input): Promise<StunNatTypeResponse> => ({
      ret: 0,
      natType: await failedAs('natTypeFailed', () => running().detectNat(input.body)),
    }),
  });

  r.add({
    method: 'GET',
    path: '/api/stun/settings',
    access: 'token',
    summary: 'STUN: global settings (module switch, STUN servers, keep-alive, defaults, global webhook)',
    handler: (): StunSettingsResponse => {
      const config = api.config();
      return { ret: 0, settings: settingsView(config), summary: summaryView(config, live()) };
    },
  });

  r.add({
    method: 'PUT',
    path: '/api/stun/settings',
    access: 'token',
    summary: 'STUN: change global settings (any subset; `enabled` is the module switch)',
    body: stunSettingsPatchSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<StunSettingsResponse> => {
        const prev = api.config();
        const patch = Object.fromEntries(Object.entries(input.body).filter(([, v]) => v !== undefined));
        await save(prev, { ...prev, ...patch });
        const saved = api.config();
        return { ret: 0, settings: settingsView(saved), summary: summaryView(saved, live()) };
      }),
  });

  r.add({
    method: 'POST',
    path: '/api/stun/webhook/test',
    access: 'token',
    summary:
      'STUN: call a webhook with demo addresses (the dialog’s fields; masked secrets filled from the stored rule)',
    body: stunWebhookTestBodySchema,
    handler: async (_req, _reply, input): Promise<StunWebhookTestResponse> => {
      const config = api.config();
      const stored = input.body.key ? find(config, input.body.key).webhook : config.webhook;
      return running().testWebhook(restoreWebhook(input.body.webhook, stored));
    },
  });

  r.add({
    method: 'GET',
    path: '/api/stun/gateways',
    access: 'token',
    summary: 'STUN: UPnP gateways answering SSDP discovery (from an address of this box, or any)',
    query: gatewaysQuerySchema,
    handler: async (_req, _reply, input): Promise<StunGatewaysResponse> => ({
      ret: 0,
      gateways: await failedAs('gatewaysFailed', () => running().gateways(input.query.localAddress)),
    }),
  });

  r.add({
    method: 'GET',
    path: '/api/stun/ddns-tasks',
    access: 'token',
    summary: 'STUN: the DDNS tasks a rule may update when its public address changes',
    handler: (): StunDdnsTasksResponse => ({ ret: 0, tasks: live()?.ddnsTasks() ?? [] }),
  });
}
