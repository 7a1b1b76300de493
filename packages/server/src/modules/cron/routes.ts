import {
  CRON_LIMITS,
  type CronConfig,
  type CronExportResponse,
  type CronHistoryResponse,
  type CronImportResponse,
  type CronIssueCode,
  type CronListResponse,
  type CronPreviewResponse,
  type CronRunNowResponse,
  type CronSettingsResponse,
  type CronTask,
  type CronTaskInput,
  type CronTaskView,
  cronImportBodySchema,
  cronIssues,
  cronPreviewBodySchema,
  cronSettingsBodySchema,
  cronTaskInputSchema,
  MODULE_KEYS,
} from '@lucky/shared';
import type { z } from 'zod';
import type { Routes } from '../../core/http/registry.js';
import { fieldFailure } from '../../core/http/reply.js';
import { addServiceLogRoutes } from '../../core/logs/logRoutes.js';
import { newKey, serialQueue } from '../../core/modules/keyed.js';
import { addKeyedListRoutes } from '../../core/modules/keyedListRoutes.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { CronRuntime } from './runtime.js';
import { ExpressionError, parseExpression, previewTimes, zoneKnown } from './schedule.js';
import { maskTask, restoreTask } from './secrets.js';
import { readState } from './state.js';

type Parsed = z.infer<typeof cronTaskInputSchema>;

const refuse = (field: string, code: CronIssueCode, params: Record<string, unknown> = {}, status = 400) =>
  fieldFailure({ field, code, params, msg: cronIssues.describe(code, params) }, status);

/** Checks the schema cannot make: the expression through croner, modules by name. */
function checkTask(task: Parsed, zone: string, prefix = ''): void {
  if (task.schedule.kind === 'cron') {
    try {
      const job = parseExpression(task.schedule.expression, zone);
      if (job.nextRun() === null) throw refuse(`${prefix}schedule.expression`, 'expressionNeverRuns');
    } catch (err) {
      if (err instanceof ExpressionError)
        throw refuse(`${prefix}schedule.expression`, 'expressionInvalid', { detail: err.message });
      throw err;
    }
  }
  for (const [i, a] of task.actions.entries()) {
    if ((a.type === 'module' || a.type === 'action') && !(MODULE_KEYS as readonly string[]).includes(a.module))
      throw refuse(`${prefix}actions.${i}.module`, 'moduleUnknown', { module: a.module });
  }
}

/** REST calls of the cron module: /api/cron/… (bodies parsed by the registry). */
export function registerCronRoutes(r: Routes, api: ModuleApi<CronConfig>): void {
  const serial = serialQueue();
  const live = () => {
    const rt = api.runtime();
    return rt instanceof CronRuntime ? rt : undefined;
  };
  const notFound = () => refuse('key', 'taskNotFound', {}, 404);
  const find = (config: CronConfig, key: string) => {
    const task = config.tasks.find((t) => t.key === key);
    if (!task) throw notFound();
    return task;
  };
  const uniqueName = (config: CronConfig, name: string, key?: string, field = 'name') => {
    if (config.tasks.some((t) => t.name === name && t.key !== key)) throw refuse(field, 'nameTaken', { name });
  };
  /** Views: the live status while the module runs, the stored history's last run while it is off. */
  const views = (config: CronConfig): CronTaskView[] => {
    const rt = live();
    const stored = rt ? undefined : readState(api.configDir).state;
    return config.tasks.map((t) => {
      const last = stored?.tasks[t.key]?.runs[0];
      const status = rt
        ? rt.taskStatus(t.key)
        : {
            running: 0,
            queued: false,
            ...(last ? { lastRun: { start: last.start, result: last.result, durationMs: last.durationMs } } : {}),
          };
      return { ...maskTask(t), status };
    });
  };
  const viewOf = (key: string) => {
    const v = views(api.config()).find((t) => t.key === key);
    if (!v) throw notFound();
    return v;
  };

  r.add({
    method: 'GET',
    path: '/api/cron/tasks',
    access: 'token',
    summary: 'Cron: the module switch, the display time zone and every task with its status (next and last run)',
    handler: (): CronListResponse => {
      const config = api.config();
      return {
        ret: 0,
        enabled: config.enabled,
        historySize: config.historySize,
        timeZone: api.timeZone(),
        list: views(config),
      };
    },
  });

  r.add({
    method: 'PUT',
    path: '/api/cron/settings',
    access: 'token',
    summary: 'Cron: the module settings (runs kept per task)',
    body: cronSettingsBodySchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<CronSettingsResponse> => {
        await api.saveConfig({ ...api.config(), historySize: input.body.historySize });
        return { ret: 0, historySize: api.config().historySize };
      }),
  });

  addKeyedListRoutes(r, api, {
    path: '/api/cron/tasks',
    field: 'tasks',
    body: cronTaskInputSchema,
    serial,
    notFound,
    check: (prev, body, old) => {
      uniqueName(prev, body.name, old?.key);
      checkTask(body, api.timeZone());
    },
    // Secret parts of the free text sent back masked take their stored values (secrets.ts).
    make: (body, key, old): CronTask => ({ ...restoreTask(body, old), key }),
    view: (t) => viewOf(t.key),
    answer: 'task',
    summaries: {
      add: 'Cron: add a task (the server assigns its key)',
      edit: 'Cron: replace a task (masked secret parts sent back are kept)',
      enable: 'Cron: pause or resume a task (its switch)',
      delete: 'Cron: delete a task (a run going on finishes)',
    },
  });

  r.add({
    method: 'POST',
    path: '/api/cron/tasks/:key/run',
    access: 'token',
    summary: 'Cron: run a task now (its overlap policy applies); answers started, queued or skipped',
    handler: (_req, _reply, input): CronRunNowResponse => {
      find(api.config(), input.params.key);
      const outcome = live()?.runNow(input.params.key);
      if (!outcome) throw refuse('key', 'moduleDisabled', {}, 409);
      return { ret: 0, outcome };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/cron/tasks/:key/history',
    access: 'token',
    summary: `Cron: a task's last runs, newest first (each action's output up to ${CRON_LIMITS.outputBytes} bytes)`,
    handler: (_req, _reply, input): CronHistoryResponse => {
      const task = find(api.config(), input.params.key);
      const rt = live();
      const list = rt ? rt.history(task.key) : (readState(api.configDir).state.tasks[task.key]?.runs ?? []);
      return { ret: 0, list };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/cron/preview',
    access: 'token',
    summary: `Cron: the next ${CRON_LIMITS.previewCount} times of an expression in a zone ('' = the display zone)`,
    body: cronPreviewBodySchema,
    handler: (_req, _reply, input): CronPreviewResponse => {
      const zone = input.body.zone || api.timeZone();
      if (!zoneKnown(zone)) throw refuse('zone', 'zoneInvalid', { zone });
      let times: string[];
      try {
        times = previewTimes(input.body.expression, zone, CRON_LIMITS.previewCount, Date.now());
      } catch (err) {
        if (err instanceof ExpressionError) throw refuse('expression', 'expressionInvalid', { detail: err.message });
        throw err;
      }
      if (times.length === 0) throw refuse('expression', 'expressionNeverRuns');
      return { ret: 0, zone, times };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/cron/export',
    access: 'token',
    summary: 'Cron: every task as JSON for import elsewhere (keys dropped, secret parts masked)',
    handler: (): CronExportResponse => ({
      ret: 0,
      tasks: api.config().tasks.map(({ key: _key, ...t }): CronTaskInput => maskTask(t)),
    }),
  });

  r.add({
    method: 'POST',
    path: '/api/cron/import',
    access: 'token',
    summary: 'Cron: add tasks from an export (`replace` drops the current ones first); names must be free',
    body: cronImportBodySchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<CronImportResponse> => {
        const prev = api.config();
        const kept = input.body.mode === 'replace' ? [] : prev.tasks;
        const added: CronTask[] = [];
        for (const [i, t] of input.body.tasks.entries()) {
          const field = `tasks.${i}.`;
          const taken = [...kept, ...added].some((x) => x.name === t.name);
          if (taken) throw refuse(`${field}name`, 'nameTaken', { name: t.name });
          checkTask(t, api.timeZone(), field);
          added.push({ ...restoreTask(t, undefined), key: newKey([...kept, ...added]) });
        }
        await api.saveConfig({ ...prev, tasks: [...kept, ...added] });
        return { ret: 0, added: added.length };
      }),
  });

  addServiceLogRoutes(r, {
    path: '/api/cron/logs',
    service: 'Cron',
    holds: 'runs started and finished, failed actions, skipped and missed runs',
    log: () => live()?.log,
  });
}
