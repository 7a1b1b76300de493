// The cron module's shared half (scheduled tasks): config schema, issue codes, reasons, log
// lines, API bodies and views. The server runs its own scheduler (no system cron); cron
// expressions are read in the base setting `timeZone` ('' = the machine's zone).
import { z } from 'zod';
import { type CodedText, fillTemplate } from '../contract/coded.js';
import type { LogPageResponse } from '../contract/logPage.js';
import { logPageQuerySchema } from '../contract/logPage.js';
import { moduleSwitchShape } from '../contract/switch.js';
import { issueKit } from './fieldIssue.js';

/** Bounds of the module (one place, the screen shows them too). */
export const CRON_LIMITS = {
  tasks: 256,
  actionsPerTask: 20,
  /** Bytes of output kept per action (stdout + stderr, or the HTTP answer's body). */
  outputBytes: 8192,
  /** Runs kept per task (a ring: the oldest goes first). */
  historyMax: 100,
  historyDefault: 20,
  /** Seconds an action may take at most. */
  timeoutMax: 86_400,
  /** Backups kept in a backup folder at most. */
  keepMax: 365,
  /** Times `POST /api/cron/preview` answers. */
  previewCount: 5,
} as const;

/**
 * Issue codes (the zod messages) with their English text; the UI translates `cron.err_<code>`.
 * zod's own checks answer the generic codes (tooSmall, tooBig, invalidType, invalidValue, invalid).
 */
export const CRON_MESSAGES = {
  nameRequired: 'a name is required',
  nameTaken: 'another task is called {name}',
  itemNotFound: 'no such task',
  taskNotFound: 'no such task',
  expressionRequired: 'a cron expression is required',
  expressionInvalid: 'not a cron expression (5 or 6 fields, seconds first when 6): {detail}',
  expressionNeverRuns: 'the expression never matches a time',
  zoneInvalid: 'not a known time zone: {zone}',
  actionsRequired: 'a task needs at least one action',
  commandRequired: 'a command is required',
  envLineInvalid: 'an environment line is NAME=value: {line}',
  urlInvalid: 'not an http:// or https:// URL',
  headerLineInvalid: 'a header line is Name: value: {line}',
  statusListInvalid: 'expected status codes are a list like 200-299, 304',
  moduleRequired: 'choose a module',
  moduleUnknown: 'no module called {module}',
  moduleSelf: 'a task cannot switch the scheduled-task module itself',
  actionNameRequired: 'choose an action',
  folderInvalid: 'the backup folder is an absolute path',
  importInvalid: 'the file is not an export of scheduled tasks: {detail}',
  moduleDisabled: 'the scheduled-task module is switched off',
  secretMaskUnmatched: 'this field shows ****** for stored secrets that no longer fit it; type the secret again',
} as const;
export type CronIssueCode = keyof typeof CRON_MESSAGES;
export const cronIssues = issueKit(CRON_MESSAGES);

/**
 * Why a run or an action failed, or was skipped (`CodedText`; the UI translates
 * `cron.reason_<code>`).
 */
export const CRON_REASONS = {
  exitCode: 'the command exited with code {code}',
  killed: 'the command was ended by signal {signal}',
  spawnFailed: 'the command could not be started: {detail}',
  timeout: 'no result within {seconds} s',
  httpFailed: 'the request failed: {detail}',
  httpStatus: 'the answer was {status}, expected {expected}',
  moduleSwitchFailed: 'module {module} could not be switched: {detail}',
  actionRefused: '{module}.{action} refused: {code} {detail}',
  backupFailed: 'the backup could not be written: {detail}',
  overlapSkipped: 'skipped: the previous run was still going',
  missedSkipped: 'skipped: the run fell while the program was off',
  earlierFailed: 'not run: an earlier action failed',
  cancelled: 'stopped: the task was changed or removed, or the module switched off',
} as const;
export type CronReasonCode = keyof typeof CRON_REASONS;

/** Lines of the module's log (English, `{name}` from the params); the UI translates `cron.log_<code>`. */
export const CRON_LOG = {
  started: 'task {task} started ({trigger})',
  finished: 'task {task} finished: {result} in {ms} ms',
  actionFailed: 'task {task}, action {index} ({type}): {reason}',
  overlapSkipped: 'task {task}: skipped, the previous run is still going',
  queued: 'task {task}: queued behind the running run',
  missedRun: 'task {task}: the run due at {at} was missed while the program was off; running it now',
  missedSkipped: 'task {task}: the run due at {at} was missed while the program was off; skipped',
  backupWritten: 'task {task}: configuration backed up to {path}',
  moduleSwitched: 'task {task}: module {module} switched {state}',
  stateUnreadable: 'the state file could not be read, last runs are forgotten: {detail}',
} as const;
export type CronLogCode = keyof typeof CRON_LOG;

/** English of a log line. */
export function cronLogText(code: CronLogCode, params: Record<string, unknown>): string {
  return fillTemplate(CRON_LOG[code], params);
}

/** English of a reason. */
export function cronReasonText(code: CronReasonCode, params: Record<string, unknown>): string {
  return fillTemplate(CRON_REASONS[code], params);
}

// ---- schedule ---------------------------------------------------------------------------------

export const CRON_INTERVAL_UNITS = ['seconds', 'minutes', 'hours'] as const;
export type CronIntervalUnit = (typeof CRON_INTERVAL_UNITS)[number];

/** Fields of a cron expression: 5 (minute first) or 6 (second first). Checked fully by the server. */
const expressionField = z
  .string()
  .trim()
  .min(1, 'expressionRequired')
  .max(200)
  .refine((s) => {
    const n = s.split(/\s+/).length;
    return n === 5 || n === 6 || s.startsWith('@');
  }, 'expressionInvalid');

export const cronScheduleSchema = z.discriminatedUnion('kind', [
  /** A cron expression (seconds optional), read in the display time zone (`base.timeZone`). */
  z.object({ kind: z.literal('cron'), expression: expressionField }),
  /** Every N units, counted from the module's start (or the task's save). */
  z.object({
    kind: z.literal('interval'),
    every: z.number().int().min(1).max(100_000),
    unit: z.enum(CRON_INTERVAL_UNITS).default('minutes'),
  }),
]);
export type CronSchedule = z.infer<typeof cronScheduleSchema>;

// ---- actions ----------------------------------------------------------------------------------

export const CRON_ACTION_TYPES = ['shell', 'http', 'module', 'action', 'backup'] as const;
export type CronActionType = (typeof CRON_ACTION_TYPES)[number];

export const CRON_HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

const lines = (s: string) =>
  s
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** `NAME=value` lines (blank lines ignored). */
export function parseEnvLines(text: string): { name: string; value: string }[] {
  return lines(text).map((l) => {
    const i = l.indexOf('=');
    return { name: l.slice(0, i), value: l.slice(i + 1) };
  });
}
const envLineOk = (l: string) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(l);

/** `Name: value` lines (blank lines ignored). */
export function parseHeaderLines(text: string): { name: string; value: string }[] {
  return lines(text).map((l) => {
    const i = l.indexOf(':');
    return { name: l.slice(0, i).trim(), value: l.slice(i + 1).trim() };
  });
}
const headerLineOk = (l: string) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*:/.test(l);

/** `200-299, 304` → [[200,299],[304,304]]; undefined when it is not such a list. */
export function parseStatusList(text: string): [number, number][] | undefined {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) return undefined;
  const out: [number, number][] = [];
  for (const p of parts) {
    const m = /^(\d{3})(?:\s*-\s*(\d{3}))?$/.exec(p);
    if (!m) return undefined;
    const lo = Number(m[1]);
    const hi = Number(m[2] ?? m[1]);
    if (lo < 100 || hi > 599 || lo > hi) return undefined;
    out.push([lo, hi]);
  }
  return out;
}

/** What every action has: stop the task or go on when it fails, and its time-out. */
const commonAction = {
  onFailure: z.enum(['stop', 'continue']).default('stop'),
  timeoutSeconds: z.number().int().min(1).max(CRON_LIMITS.timeoutMax).default(60),
};

export const cronActionSchema = z
  .discriminatedUnion('type', [
    /** `sh -c <command>`; output (stdout + stderr) kept up to CRON_LIMITS.outputBytes. */
    z.object({
      type: z.literal('shell'),
      command: z.string().trim().min(1, 'commandRequired').max(8192),
      /** Extra environment, `NAME=value` per line. */
      env: z.string().max(8192).default(''),
      /** Working folder ('' = the module's config folder). */
      cwd: z.string().trim().max(1024).default(''),
      ...commonAction,
    }),
    /** An HTTP request through the program's outbound client. */
    z.object({
      type: z.literal('http'),
      method: z.enum(CRON_HTTP_METHODS).default('GET'),
      url: z
        .string()
        .trim()
        .max(2048)
        .refine((u) => /^https?:\/\/[^\s/]+/i.test(u), 'urlInvalid'),
      /** `Name: value` per line. */
      headers: z.string().max(8192).default(''),
      body: z.string().max(65_536).default(''),
      /** Status codes that count as success. */
      expectStatus: z
        .string()
        .trim()
        .max(200)
        .refine((s) => parseStatusList(s) !== undefined, 'statusListInvalid')
        .default('200-299'),
      ...commonAction,
    }),
    /** Switch a whole module on or off (as `PUT /api/modules/<key>/enabled`). */
    z.object({
      type: z.literal('module'),
      module: z.string().trim().min(1, 'moduleRequired').max(64),
      enabled: z.boolean(),
      ...commonAction,
    }),
    /**
     * Any action another module offers (`GET /api/modules/actions`): DDNS `syncNow`, ACME
     * `renewNow`, Wake-on-LAN `wake`, a rule's switch … `input` is that action's input.
     */
    z.object({
      type: z.literal('action'),
      module: z.string().trim().min(1, 'moduleRequired').max(64),
      action: z.string().trim().min(1, 'actionNameRequired').max(64),
      input: z.record(z.string(), z.unknown()).default({}),
      ...commonAction,
    }),
    /** Write the config backup (the settings' download) into a folder, keeping the newest `keep`. */
    z.object({
      type: z.literal('backup'),
      folder: z
        .string()
        .trim()
        .max(1024)
        .refine((p) => p.startsWith('/'), 'folderInvalid'),
      keep: z.number().int().min(1).max(CRON_LIMITS.keepMax).default(7),
      ...commonAction,
    }),
  ])
  .superRefine((a, ctx) => {
    if (a.type === 'shell') {
      const bad = lines(a.env).find((l) => !envLineOk(l));
      if (bad !== undefined)
        ctx.addIssue({ code: 'custom', path: ['env'], message: 'envLineInvalid', params: { line: bad } });
    }
    if (a.type === 'http') {
      const bad = lines(a.headers).find((l) => !headerLineOk(l));
      if (bad !== undefined)
        ctx.addIssue({ code: 'custom', path: ['headers'], message: 'headerLineInvalid', params: { line: bad } });
    }
    if (a.type === 'module' && a.module === 'cron')
      ctx.addIssue({ code: 'custom', path: ['module'], message: 'moduleSelf' });
  });
export type CronAction = z.infer<typeof cronActionSchema>;
export type CronActionInput = z.input<typeof cronActionSchema>;

// ---- task -------------------------------------------------------------------------------------

/** After the program was off: `skip` the missed run, or `runOnce` (once, however many were missed). */
export const CRON_MISSED_POLICIES = ['skip', 'runOnce'] as const;
/** When a run is due while the previous one still runs: `skip` it, `queue` one, or `allow` both. */
export const CRON_OVERLAP_POLICIES = ['skip', 'queue', 'allow'] as const;

const taskShape = {
  name: z.string().trim().min(1, 'nameRequired').max(64),
  enabled: z.boolean().default(true),
  schedule: cronScheduleSchema,
  actions: z.array(cronActionSchema).min(1, 'actionsRequired').max(CRON_LIMITS.actionsPerTask),
  missed: z.enum(CRON_MISSED_POLICIES).default('skip'),
  overlap: z.enum(CRON_OVERLAP_POLICIES).default('skip'),
};

/** A task as the browser sends it (the server assigns the key). */
export const cronTaskInputSchema = z.object(taskShape);
export const cronTaskSchema = z.object({ key: z.string().regex(/^[A-Za-z0-9]{1,32}$/), ...taskShape });

/** The config slice; `{}` parses to the module switched on with no tasks (state: stopped). */
export const cronConfigSchema = z.object({
  ...moduleSwitchShape(true),
  /** Runs kept per task. */
  historySize: z.number().int().min(1).max(CRON_LIMITS.historyMax).default(CRON_LIMITS.historyDefault),
  tasks: z.array(cronTaskSchema).max(CRON_LIMITS.tasks).default([]),
});

/**
 * Free-text fields that may hold secrets in parts (URL tokens, Authorization headers, body
 * members): masked part by part on read, put back on save.
 */
export const CRON_FREE_TEXT_SECRETS = [
  'tasks.*.actions.*.url',
  'tasks.*.actions.*.headers',
  'tasks.*.actions.*.body',
] as const;

export type CronTaskInput = z.input<typeof cronTaskInputSchema>;
export type CronTask = z.infer<typeof cronTaskSchema>;
export type CronConfig = z.infer<typeof cronConfigSchema>;

// ---- API bodies -------------------------------------------------------------------------------

/** POST /api/cron/preview — the next five times of an expression ('' zone = the display zone). */
export const cronPreviewBodySchema = z.object({
  expression: expressionField,
  zone: z.string().trim().max(64).default(''),
});
/** POST /api/cron/import — tasks from an export; `replace` drops the current tasks first. */
export const cronImportBodySchema = z.object({
  tasks: z.array(cronTaskInputSchema).max(CRON_LIMITS.tasks),
  mode: z.enum(['add', 'replace']).default('add'),
});
export const cronLogsQuerySchema = logPageQuerySchema;
/** PUT /api/cron/settings — the module's own settings (the switch is `PUT /api/modules/cron/enabled`). */
export const cronSettingsBodySchema = z.object({
  historySize: z.number().int().min(1).max(CRON_LIMITS.historyMax),
});
export type CronSettingsBody = z.infer<typeof cronSettingsBodySchema>;

// ---- views: what the GET routes answer --------------------------------------------------------

export const CRON_RUN_RESULTS = ['ok', 'failed', 'timeout', 'skipped'] as const;
export type CronRunResult = (typeof CRON_RUN_RESULTS)[number];
/** What started a run: its schedule, `run now`, or the missed-run policy at start. */
export type CronTrigger = 'schedule' | 'manual' | 'missed';

export interface CronActionRun {
  type: CronActionType;
  result: CronRunResult;
  durationMs: number;
  /** Shell: the exit code. */
  exitCode?: number;
  /** HTTP: the answer's status. */
  status?: number;
  /** Output (shell stdout + stderr, HTTP body, an action's detail), at most CRON_LIMITS.outputBytes. */
  output: string;
  /** True when output was cut. */
  truncated: boolean;
  /** Why it failed, timed out or was skipped. */
  reason?: CodedText & { code: CronReasonCode };
}

/** One run in a task's history (newest first). */
export interface CronRun {
  id: number;
  trigger: CronTrigger;
  /** ISO 8601, UTC. */
  start: string;
  durationMs: number;
  result: CronRunResult;
  actions: CronActionRun[];
  reason?: CodedText & { code: CronReasonCode };
}

export interface CronTaskStatus {
  /** Runs going now. */
  running: number;
  /** A run waits behind the running one (overlap `queue`). */
  queued: boolean;
  /** The next scheduled time (ISO), when the task and the module are on. */
  nextRun?: string;
  /** The last run's start and result. */
  lastRun?: { start: string; result: CronRunResult };
}

/** A task as read: free-text secrets masked. */
export type CronTaskView = CronTask & { status: CronTaskStatus };

/** GET /api/cron/tasks */
export interface CronListResponse {
  ret: 0;
  /** The module switch. */
  enabled: boolean;
  historySize: number;
  /** The zone expressions are read in (IANA name; the machine's when the base setting is ''). */
  timeZone: string;
  list: CronTaskView[];
}

export interface CronTaskResponse {
  ret: 0;
  task: CronTaskView;
}

/** PUT /api/cron/settings */
export interface CronSettingsResponse {
  ret: 0;
  historySize: number;
}

/** POST /api/cron/tasks/:key/run */
export interface CronRunNowResponse {
  ret: 0;
  /** `started`, `queued` (behind the running one) or `skipped` (overlap policy). */
  outcome: 'started' | 'queued' | 'skipped';
}

/** GET /api/cron/tasks/:key/history */
export interface CronHistoryResponse {
  ret: 0;
  list: CronRun[];
}

/** POST /api/cron/preview */
export interface CronPreviewResponse {
  ret: 0;
  zone: string;
  /** ISO 8601 with the zone's offset, CRON_LIMITS.previewCount of them (fewer when it ends). */
  times: string[];
}

/** GET /api/cron/export — tasks without keys, free-text secrets masked. */
export interface CronExportResponse {
  ret: 0;
  tasks: CronTaskInput[];
}

/** POST /api/cron/import */
export interface CronImportResponse {
  ret: 0;
  added: number;
}

export type CronLogsResponse = LogPageResponse;
