// Secrets never leave the server. Whole-value secrets (provider secret, proxy passwords) are the
// one mechanism of every module: named in DDNS_SECRETS, masked by maskSecrets on read and kept by
// the supervisor when sent back as SECRET_MASK. URLs, header lines and bodies are free text: only
// their secret parts are masked (the core's core/webhook/secrets.ts, on shared secretText.ts's
// rule), so the dialog still shows where a call goes, and the stored parts are put back on save.
// The same parts are scrubbed from statuses, task log lines and program log lines.
import {
  DDNS_SECRETS,
  type DdnsSettings,
  type DdnsTask,
  type DdnsWebhook,
  maskSecrets,
  secretParts,
  urlPieces,
} from '@lucky/shared';
import type { Logger } from '../../core/logs/logger.js';
import {
  maskTemplate,
  maskUrl,
  restoreLines,
  restoreTemplate,
  restoreText,
  scrub,
  scrubList,
  templateSecrets,
} from '../../core/webhook/secrets.js';

/** The secret paths below one task, and below the global settings. */
const TASK_SECRETS = DDNS_SECRETS.filter((p) => p.startsWith('tasks.*.')).map((p) => p.slice('tasks.*.'.length));
const SETTINGS_SECRETS = DDNS_SECRETS.filter((p) => !p.startsWith('tasks.'));

/** A task as a read shows it. */
export function maskTask(t: DdnsTask): DdnsTask {
  const m = maskSecrets(t, TASK_SECRETS);
  return {
    ...m,
    dns: { ...m.dns, server: maskUrl(m.dns.server), callback: maskTemplate(m.dns.callback) },
    ipSource: { ...m.ipSource, urls: m.ipSource.urls.map(maskUrl) },
    webhook: maskTemplate(m.webhook),
  };
}

/** The global settings as a read shows them. */
export function maskSettings(s: DdnsSettings): DdnsSettings {
  const m = maskSecrets(s, SETTINGS_SECRETS);
  return { ...m, webhook: maskTemplate(m.webhook) };
}

/** The stored secret parts back into the global webhook's free text (its password is the supervisor's). */
export function restoreWebhookText(w: DdnsWebhook, stored?: DdnsWebhook): DdnsWebhook {
  return restoreTemplate(w, stored, 'webhook.');
}

/** The stored secret parts back into a task's free text (URLs, header lines, bodies). */
export function restoreTaskText<T extends Omit<DdnsTask, 'key'>>(t: T, stored?: DdnsTask): T {
  return {
    ...t,
    dns: {
      ...t.dns,
      server: restoreText(t.dns.server, stored?.dns.server, urlPieces, 'dns.server', true),
      callback: restoreTemplate(t.dns.callback, stored?.dns.callback, 'dns.callback.'),
    },
    ipSource: {
      ...t.ipSource,
      urls: restoreLines(t.ipSource.urls, stored?.ipSource.urls, urlPieces, 'ipSource.urls', true),
    },
    webhook: restoreWebhookText(t.webhook, stored?.webhook),
  };
}

/** Every secret string of a task (and the global webhook it may call), for scrubbing text. */
export function secretsOf(task: DdnsTask, global?: DdnsWebhook): string[] {
  const out = [task.dns.secret, task.proxy.password, task.webhook.proxy.password];
  out.push(...secretParts(urlPieces(task.dns.server)));
  for (const u of task.ipSource.urls) out.push(...secretParts(urlPieces(u)));
  templateSecrets(task.dns.callback, out);
  templateSecrets(task.webhook, out);
  if (global) {
    out.push(global.proxy.password);
    templateSecrets(global, out);
  }
  return scrubList(out);
}

/** A logger whose lines have the secrets masked (lines about a task reach the program log). */
export function scrubbingLogger(log: Logger, secrets: readonly string[]): Logger {
  if (secrets.length === 0) return log;
  return {
    error: (m) => log.error(scrub(m, secrets)),
    warn: (m) => log.warn(scrub(m, secrets)),
    info: (m) => log.info(scrub(m, secrets)),
    debug: (m) => log.debug(scrub(m, secrets)),
    child: (tag) => scrubbingLogger(log.child(tag), secrets),
  };
}
