// REST calls of the DDNS module; see docs/API.md, section "Dynamic DNS". Bodies and queries are
// parsed once by the registry with the module's codes; whole-value secrets sent back masked are
// kept by the supervisor's save, the free-text ones are put back here (secrets.ts). While the
// module is switched off there is no runtime: reads show every domain "stopped" and the log
// empty, and "sync now" answers 409 serviceOff.
import {
  type DdnsConfig,
  type DdnsLogsResponse,
  type DdnsSettingsResponse,
  type DdnsTask,
  type DdnsTaskAddResponse,
  type DdnsTaskListResponse,
  type DdnsTaskResponse,
  type DdnsTaskView,
  type DdnsWebhookTestResponse,
  ddnsIssues,
  ddnsLogsQuerySchema,
  ddnsSettingsPatchSchema,
  ddnsSyncQuerySchema,
  ddnsTaskInputSchema,
  ddnsWebhookTestBodySchema,
  enabledBodySchema,
} from '@lucky/shared';
import type { Routes } from '../../core/http/registry.js';
import { ApiFailure, fieldFailure } from '../../core/http/reply.js';
import { newKey, serialQueue } from '../../core/modules/keyed.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { testWebhook } from '../../core/webhook/call.js';
import { restoreWebhook, scrubDeep } from '../../core/webhook/secrets.js';
import { suffixSet } from './domains.js';
import { proxyOf } from './providerContext.js';
import { DdnsRuntime } from './runtime.js';
import { maskSettings, maskTask, restoreTaskText, restoreWebhookText, secretsOf } from './secrets.js';
import { TaskState } from './state.js';
import { refreshDomains } from './taskSync.js';
import { demoVars } from './webhookVars.js';

type RefusalCode = 'taskNotFound' | 'serviceOff' | 'taskDisabled';
const STATUS: Record<RefusalCode, number> = { taskNotFound: 404, serviceOff: 409, taskDisabled: 409 };
const refuse = (code: RefusalCode, field = '') =>
  fieldFailure({ field, code, params: {}, msg: ddnsIssues.describe(code) }, STATUS[code]);

/**
 * A refusal of the whole slice names `tasks.<i>.<field>`; the dialog knows only its task, so the
 * field is named relative to it.
 */
function relativeTo(err: unknown, prefix: string): unknown {
  if (!(err instanceof ApiFailure) || !err.field?.startsWith(prefix)) return err;
  const field = err.field.slice(prefix.length);
  return new ApiFailure(err.status, err.ret, err.message.replace(err.field, field), field, err.extra);
}

export function registerDdnsRoutes(r: Routes, api: ModuleApi<DdnsConfig>): void {
  const live = () => {
    const rt = api.runtime();
    return rt instanceof DdnsRuntime ? rt : undefined;
  };
  // One change at a time: each reads the config the previous one saved.
  const serial = serialQueue();
  const find = (config: DdnsConfig, key: string) => {
    const task = config.tasks.find((t) => t.key === key);
    if (!task) throw refuse('taskNotFound', 'key');
    return task;
  };
  const view = (task: DdnsTask, config = api.config()): DdnsTaskView => {
    let state = live()?.view(task.key);
    if (!state) {
      // The module is off (no runtime): the domains, nothing checked.
      const st = new TaskState();
      refreshDomains(task, st, suffixSet(config.multiLevelSuffixes));
      st.markAll('stopped', Date.now());
      state = st.view();
    }
    // Statuses and histories quote provider answers, which may echo a secret back.
    return { ...maskTask(task), state: scrubDeep(state, secretsOf(task, config.webhook)) };
  };
  const settingsView = (): DdnsSettingsResponse => {
    const { tasks: _tasks, ...settings } = api.config();
    return { ret: 0, settings: maskSettings(settings) };
  };
  /** Saves the config with the changed task; a refusal is named relative to the task. */
  const saveTask = async (prev: DdnsConfig, task: DdnsTask) => {
    const tasks = prev.tasks.some((t) => t.key === task.key)
      ? prev.tasks.map((t) => (t.key === task.key ? task : t))
      : [...prev.tasks, task];
    const index = tasks.findIndex((t) => t.key === task.key);
    try {
      await api.saveConfig({ ...prev, tasks });
    } catch (err) {
      throw relativeTo(err, `tasks.${index}.`);
    }
    return find(api.config(), task.key);
  };

  r.add({
    method: 'GET',
    path: '/api/ddns/tasks',
    access: 'token',
    summary: 'DDNS: the module switch and every task with its live state (IP, per-domain sync status, histories)',
    handler: (): DdnsTaskListResponse => {
      const config = api.config();
      return { ret: 0, enabled: config.enabled, list: config.tasks.map((t) => view(t, config)) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/ddns/tasks',
    access: 'token',
    summary: 'DDNS: add a task (the server assigns its key); it is checked at once when the module is on',
    body: ddnsTaskInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<DdnsTaskAddResponse> => {
        const prev = api.config();
        const key = newKey(prev.tasks);
        const saved = await saveTask(prev, { ...restoreTaskText(input.body), key });
        return { ret: 0, key, task: view(saved) };
      }),
  });

  r.add({
    method: 'GET',
    path: '/api/ddns/tasks/:key',
    access: 'token',
    summary: 'DDNS: one task with its live state',
    handler: (_req, _reply, input): DdnsTaskResponse => ({ ret: 0, task: view(find(api.config(), input.params.key)) }),
  });

  r.add({
    method: 'PUT',
    path: '/api/ddns/tasks/:key',
    access: 'token',
    summary: 'DDNS: replace a task (masked secrets keep their stored value); it is checked at once',
    body: ddnsTaskInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<DdnsTaskResponse> => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        const saved = await saveTask(prev, { ...restoreTaskText(input.body, old), key: old.key });
        return { ret: 0, task: view(saved) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/ddns/tasks/:key',
    access: 'token',
    summary: 'DDNS: delete a task (its records stay at the provider)',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        await api.saveConfig({ ...prev, tasks: prev.tasks.filter((t) => t.key !== old.key) });
        return { ret: 0 };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/ddns/tasks/:key/enable',
    access: 'token',
    summary: 'DDNS: switch a task on (checked at once) or off (its domains show "stopped")',
    body: enabledBodySchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<DdnsTaskResponse> => {
        const prev = api.config();
        const old = find(prev, input.params.key);
        const saved = await saveTask(prev, { ...old, enabled: input.body.enabled });
        return { ret: 0, task: view(saved) };
      }),
  });

  r.add({
    method: 'POST',
    path: '/api/ddns/tasks/:key/sync',
    access: 'token',
    summary: 'DDNS: check a task now, asking the provider for every record (?wait=1 answers when done)',
    query: ddnsSyncQuerySchema,
    handler: async (_req, _reply, input): Promise<DdnsTaskResponse> => {
      const task = find(api.config(), input.params.key);
      const rt = live();
      if (!rt) throw refuse('serviceOff');
      if (!task.enabled) throw refuse('taskDisabled');
      const run = rt.runTask(task.key, true);
      if (input.query.wait) await run;
      return { ret: 0, task: view(task) };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/ddns/tasks/:key/logs',
    access: 'token',
    summary: 'DDNS: a page of the task log, newest first (the last 100 lines; empty while the module is off)',
    query: ddnsLogsQuerySchema,
    handler: (_req, _reply, input): DdnsLogsResponse => {
      const config = api.config();
      const task = find(config, input.params.key);
      const { page, pageSize } = input.query;
      const lines = live()?.logs(task.key, page, pageSize) ?? { total: 0, logs: [] };
      // Lines quote provider answers and URLs, in their text and their params.
      return { ret: 0, ...scrubDeep(lines, secretsOf(task, config.webhook)), page, pageSize };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/ddns/webhook/test',
    access: 'token',
    summary: 'DDNS: call a webhook once with demo data and report the answer (works while the module is off)',
    body: ddnsWebhookTestBodySchema,
    handler: async (_req, _reply, input): Promise<DdnsWebhookTestResponse> => {
      const config = api.config();
      const task = input.body.key ? find(config, input.body.key) : undefined;
      const w = restoreWebhook(input.body.webhook, task ? task.webhook : config.webhook);
      const rt = live();
      return testWebhook(
        w,
        demoVars(new Date()),
        { http: rt?.http, signal: rt?.signal, moduleProxy: () => (task ? proxyOf(task.proxy) : undefined) },
        task ? secretsOf(task) : [],
      );
    },
  });

  r.add({
    method: 'GET',
    path: '/api/ddns/settings',
    access: 'token',
    summary: 'DDNS: global settings (module switch, first-check delay, interval, suffixes, global webhook)',
    handler: settingsView,
  });

  r.add({
    method: 'PUT',
    path: '/api/ddns/settings',
    access: 'token',
    summary:
      'DDNS: change global settings (any subset; `enabled` switches the module, as PUT /api/modules/ddns/enabled)',
    body: ddnsSettingsPatchSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<DdnsSettingsResponse> => {
        const prev = api.config();
        const patch = input.body;
        const next: DdnsConfig = { ...prev };
        if (patch.enabled !== undefined) next.enabled = patch.enabled;
        if (patch.firstCheckDelay !== undefined) next.firstCheckDelay = patch.firstCheckDelay;
        if (patch.interval !== undefined) next.interval = patch.interval;
        if (patch.multiLevelSuffixes !== undefined) next.multiLevelSuffixes = patch.multiLevelSuffixes;
        if (patch.webhook !== undefined) next.webhook = restoreWebhookText(patch.webhook, prev.webhook);
        await api.saveConfig(next);
        return settingsView();
      }),
  });
}
