// The task dialog's rules, apart from React: a new task and a new action of each type, the check
// the server makes (the shared schema, in the module's codes) reported per field, and how a module
// action's target lands in its input.
import {
  type CronActionInput,
  type CronActionType,
  type CronTaskInput,
  type CronTaskView,
  cronIssues,
  cronTaskInputSchema,
} from '@lucky/shared';
import type { Failure } from '../../api/callErrors';
import { DEFAULT_EXPRESSION } from './cronFields';

export function newAction(type: CronActionType): CronActionInput {
  const common = { onFailure: 'stop', timeoutSeconds: 60 } as const;
  switch (type) {
    case 'shell':
      return { type, command: '', env: '', cwd: '', ...common };
    case 'http':
      return { type, method: 'GET', url: '', headers: '', body: '', expectStatus: '200-299', ...common };
    case 'module':
      return { type, module: '', enabled: true, ...common };
    case 'action':
      return { type, module: '', action: '', input: {}, ...common };
    case 'backup':
      return { type, folder: '', keep: 7, ...common };
  }
}

export function newTask(): CronTaskInput {
  return {
    name: '',
    enabled: true,
    schedule: { kind: 'cron', expression: DEFAULT_EXPRESSION },
    actions: [newAction('shell')],
    missed: 'skip',
    overlap: 'skip',
  };
}

/** A stored task as the dialog edits it (without its key and status). */
export function taskToInput(task: CronTaskView): CronTaskInput {
  const { key: _key, status: _status, ...input } = task;
  return structuredClone(input);
}

/** Every problem the server would refuse, with its field path (`actions.0.command`). */
export function checkTask(input: CronTaskInput, otherNames: readonly string[] = []): Failure[] {
  const r = cronTaskInputSchema.safeParse(input);
  const out: Failure[] = r.success
    ? []
    : r.error.issues.map((i) => {
        const { field, code, params } = cronIssues.fromZod(i, cronTaskInputSchema);
        return { field, code, params };
      });
  const name = input.name.trim();
  if (name && otherNames.includes(name) && !out.some((f) => f.field === 'name'))
    out.push({ field: 'name', code: 'nameTaken', params: { name } });
  return out;
}

/** The first problem of one form field, or undefined. */
export function issueOfField(issues: readonly Failure[], name: readonly (string | number)[]): Failure | undefined {
  const dotted = name.join('.');
  return issues.find((f) => f.field === dotted);
}

/** An action moved one place up (-1) or down (+1); the list unchanged at its ends. */
export function moveItem<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return [...list];
  const out = [...list];
  const [item] = out.splice(index, 1);
  out.splice(to, 0, item as T);
  return out;
}

/**
 * The input member a module action's target goes in. The actions list names the targets but not
 * the member; these are the offered actions' own input schemas (DDNS `syncNow`, ACME `renewNow`,
 * Wake-on-LAN `wake`), `key` for any other.
 */
const TARGET_FIELDS: Record<string, string> = {
  'ddns.syncNow': 'task',
  'acme.renewNow': 'certificate',
  'wol.wake': 'device',
};
export const targetFieldOf = (module: string, action: string): string => TARGET_FIELDS[`${module}.${action}`] ?? 'key';

/** A parsed export file's tasks, or undefined when it is not one (the server checks each task). */
export function tasksOfExport(text: string): unknown[] | undefined {
  try {
    const data: unknown = JSON.parse(text);
    const tasks = Array.isArray(data) ? data : (data as { tasks?: unknown } | null)?.tasks;
    return Array.isArray(tasks) ? tasks : undefined;
  } catch {
    return undefined;
  }
}
