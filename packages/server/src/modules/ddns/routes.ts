// REST calls of the DDNS module; see docs/API.md, section "Dynamic DNS".
import { randomInt } from 'node:crypto';
import {
  type DdnsConfig,
  type DdnsTask,
  type DdnsTaskView,
  ddnsConfigSchema,
  ddnsEnableSchema,
  ddnsSettingsSchema,
  ddnsTaskInputSchema,
  ddnsWebhookTestBodySchema,
} from '@lucky/shared';
import type { FastifyRequest } from 'fastify';
import type { RouteRegistry } from '../../core/http/registry.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { HttpClients } from '../../core/outbound/client.js';
import { suffixSet } from './domains.js';
import { DdnsRuntime } from './runtime.js';
import {
  maskSettings,
  maskTask,
  restoreTaskSecrets,
  restoreWebhookSecrets,
  scrub,
  scrubDeep,
  secretsOf,
  webhookSecrets,
} from './secrets.js';
import { TaskState } from './state.js';
import { refreshDomains } from './taskSync.js';
import { issueOf, parseInput } from './validate.js';
import { callWebhook, demoVars } from './webhook.js';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newKey = () => Array.from({ length: 16 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('');
const keyOf = (req: FastifyRequest) => (req.params as { key: string }).key;
const bodyObject = (req: FastifyRequest) =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : null;

export function registerDdnsRoutes(r: RouteRegistry, api: ModuleApi<DdnsConfig>): void {
  const live = () => {
    const rt = api.runtime();
    return rt instanceof DdnsRuntime ? rt : undefined;
  };
  // One change at a time: each reads the config the previous one saved.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn);
    chain = run.catch(() => {});
    return run;
  };
  const find = (config: DdnsConfig, key: string) => {
    const task = config.tasks.find((t) => t.key === key);
    if (!task) throw issueOf('key', 'taskNotFound');
    return task;
  };
  const view = (task: DdnsTask, config = api.config()): DdnsTaskView => {
    const rt = live();
    let state = rt?.view(task.key);
    if (!state) {
      // The module is not running (failed to start): the domains, nothing checked.
      const st = new TaskState();
      refreshDomains(task, st, suffixSet(config.multiLevelSuffixes));
      st.markAll('stopped', Date.now());
      state = st.view();
    }
    // Statuses and histories quote provider answers, which may echo a secret back.
    return { ...maskTask(task), state: scrubDeep(state, secretsOf(task, config.webhook)) };
  };
  /** Validate the whole config with the changed task (its problems named relative to it) and save. */
  const saveTask = async (prev: DdnsConfig, task: DdnsTask) => {
    const tasks = prev.tasks.some((t) => t.key === task.key)
      ? prev.tasks.map((t) => (t.key === task.key ? task : t))
      : [...prev.tasks, task];
    const index = tasks.findIndex((t) => t.key === task.key);
    const next = parseInput(ddnsConfigSchema, { ...prev, tasks }, `tasks.${index}.`);
    await api.saveConfig(next);
    return find(api.config(), task.key);
  };

  r.add({
    method: 'GET',
    path: '/api/ddns/tasks',
    access: 'token',
    summary: 'DDNS: every task with its live state (IP, per-domain sync status, histories)',
    handler: () => {
      const config = api.config();
      return { ret: 0, enabled: config.enabled, list: config.tasks.map((t) => view(t, config)) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/ddns/tasks',
    access: 'token',
    summary: 'DDNS: add a task (the server assigns its key); it is checked at once when on',
    body: ddnsTaskInputSchema,
    handler: (req) =>
      serial(async () => {
        const input = parseInput(ddnsTaskInputSchema, restoreTaskSecrets(req.body));
        const prev = api.config();
        let key = newKey();
        while (prev.tasks.some((t) => t.key === key)) key = newKey();
        const saved = await saveTask(prev, { ...input, key });
        return { ret: 0, key, task: view(saved) };
      }),
  });

  r.add({
    method: 'GET',
    path: '/api/ddns/tasks/:key',
    access: 'token',
    summary: 'DDNS: one task with its live state',
    handler: (req) => ({ ret: 0, task: view(find(api.config(), keyOf(req))) }),
  });

  r.add({
    method: 'PUT',
    path: '/api/ddns/tasks/:key',
    access: 'token',
    summary: 'DDNS: replace a task (masked secrets keep their stored value); it is checked at once',
    body: ddnsTaskInputSchema,
    handler: (req) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, keyOf(req));
        const input = parseInput(ddnsTaskInputSchema, restoreTaskSecrets(req.body, old));
        const saved = await saveTask(prev, { ...input, key: old.key });
        return { ret: 0, task: view(saved) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/ddns/tasks/:key',
    access: 'token',
    summary: 'DDNS: delete a task (its records stay at the provider)',
    handler: (req) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, keyOf(req));
        await api.saveConfig({ ...prev, tasks: prev.tasks.filter((t) => t.key !== old.key) });
        return { ret: 0 };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/ddns/tasks/:key/enable',
    access: 'token',
    summary: 'DDNS: switch a task on (checked at once) or off (its domains show "stopped")',
    body: ddnsEnableSchema,
    handler: (req) =>
      serial(async () => {
        const { enabled } = parseInput(ddnsEnableSchema, req.body);
        const prev = api.config();
        const old = find(prev, keyOf(req));
        const saved = await saveTask(prev, { ...old, enabled });
        return { ret: 0, task: view(saved) };
      }),
  });

  r.add({
    method: 'POST',
    path: '/api/ddns/tasks/:key/sync',
    access: 'token',
    summary: 'DDNS: check a task now, asking the provider for every record (?wait=1 answers when done)',
    handler: async (req) => {
      const config = api.config();
      const task = find(config, keyOf(req));
      if (!config.enabled) throw issueOf('', 'serviceOff');
      if (!task.enabled) throw issueOf('', 'taskDisabled');
      const rt = live();
      if (!rt) throw issueOf('', 'serviceOff');
      const run = rt.runTask(task.key, true);
      const wait = (req.query as Record<string, string> | undefined)?.wait;
      if (wait === '1' || wait === 'true') await run;
      return { ret: 0, task: view(task) };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/ddns/tasks/:key/logs',
    access: 'token',
    summary: 'DDNS: the task log (newest first, at most 100 lines)',
    handler: (req) => {
      const config = api.config();
      const task = find(config, keyOf(req));
      return { ret: 0, logs: scrubDeep(live()?.logs(task.key) ?? [], secretsOf(task, config.webhook)) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/ddns/webhook/test',
    access: 'token',
    summary: 'DDNS: call a webhook once with demo data and report the answer',
    body: ddnsWebhookTestBodySchema,
    handler: async (req) => {
      const raw = bodyObject(req);
      if (!raw) throw issueOf('', 'invalidType');
      const config = api.config();
      const key = typeof raw.key === 'string' ? raw.key : '';
      const task = key ? find(config, key) : undefined;
      const stored = task ? task.webhook : config.webhook;
      const body = parseInput(ddnsWebhookTestBodySchema, {
        ...raw,
        webhook: restoreWebhookSecrets(raw.webhook, stored),
      });
      const w = body.webhook;
      const rt = live();
      const http = rt ? undefined : new HttpClients();
      try {
        const r = rt
          ? await rt.testWebhook(w, task?.proxy)
          : await callWebhook(
              w,
              demoVars(new Date()),
              { http: http!, taskProxy: task?.proxy, delay: async () => {} },
              0,
            );
        // The answer may echo what was sent (a token in the URL, a header): masked like a read.
        const secrets = [...webhookSecrets(w), ...(task ? secretsOf(task) : [])].sort((a, b) => b.length - a.length);
        return {
          ret: 0,
          ok: r.ok,
          ...(r.status !== undefined ? { status: r.status } : {}),
          msg: scrub(r.msg, secrets),
          response: scrub(r.response, secrets),
        };
      } finally {
        await http?.close();
      }
    },
  });

  r.add({
    method: 'GET',
    path: '/api/ddns/settings',
    access: 'token',
    summary: 'DDNS: global settings (service switch, first-check delay, interval, suffixes, global webhook)',
    handler: () => {
      const { tasks: _tasks, ...settings } = api.config();
      return { ret: 0, settings: maskSettings(settings) };
    },
  });

  r.add({
    method: 'PUT',
    path: '/api/ddns/settings',
    access: 'token',
    summary: 'DDNS: change global settings (any subset; the switch starts or stops every task)',
    body: ddnsSettingsSchema.partial(),
    handler: (req) =>
      serial(async () => {
        const prev = api.config();
        const { tasks, ...current } = prev;
        const body = bodyObject(req);
        if (!body) throw issueOf('', 'invalidType');
        const merged: Record<string, unknown> = { ...current, ...body };
        if (body.webhook !== undefined) merged.webhook = restoreWebhookSecrets(body.webhook, prev.webhook);
        const settings = parseInput(ddnsSettingsSchema, merged);
        await api.saveConfig({ ...settings, tasks });
        const { tasks: _t, ...out } = api.config();
        return { ret: 0, settings: maskSettings(out) };
      }),
  });
}
