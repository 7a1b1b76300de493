// HTTP actions carry free text that may hold secrets (a token in the URL, an Authorization
// header, a password in the body): reads mask those parts, saves put the stored parts back
// (matched to the stored action at the same place of the same task).
import type { CronAction, CronTask } from '@lucky/shared';
import { maskTemplate, restoreTemplate } from '../../core/webhook/secrets.js';

type Http = Extract<CronAction, { type: 'http' }>;
const lines = (s: string) => (s === '' ? [] : s.split(/\r?\n/));

function maskHttp(a: Http): Http {
  const m = maskTemplate({ url: a.url, headers: lines(a.headers), body: a.body });
  return { ...a, url: m.url, headers: m.headers.join('\n'), body: m.body };
}

/** A task as a read shows it. */
export function maskTask<T extends Pick<CronTask, 'actions'>>(task: T): T {
  return { ...task, actions: task.actions.map((a) => (a.type === 'http' ? maskHttp(a) : a)) };
}

/** The stored secret parts back into an incoming task; a mask that fits nothing refuses the field. */
export function restoreTask<T extends Pick<CronTask, 'actions'>>(
  task: T,
  stored: Pick<CronTask, 'actions'> | undefined,
): T {
  return {
    ...task,
    actions: task.actions.map((a, i) => {
      if (a.type !== 'http') return a;
      const old = stored?.actions[i];
      const prev = old?.type === 'http' ? { url: old.url, headers: lines(old.headers), body: old.body } : undefined;
      const r = restoreTemplate({ url: a.url, headers: lines(a.headers), body: a.body }, prev, `actions.${i}.`);
      return { ...a, url: r.url, headers: r.headers.join('\n'), body: r.body };
    }),
  };
}
