// Secrets never leave the server. Whole-value secrets (provider secret, proxy passwords) are the
// one mechanism of every module: named in DDNS_SECRETS, masked by maskSecrets on read and kept by
// the supervisor when sent back as SECRET_MASK. URLs, header lines and bodies are free text: only
// their secret parts are masked (shared/modules/secretText.ts has the rule), so the dialog still
// shows where a call goes, and this file puts the stored parts back on save. The same parts are
// scrubbed from statuses, task log lines and program log lines.
import {
  bodyPieces,
  DDNS_SECRETS,
  type DdnsSettings,
  type DdnsTask,
  type DdnsWebhook,
  ddnsIssues,
  headerPieces,
  keepSecrets,
  maskPieces,
  maskSecrets,
  restorePieces,
  SECRET_MASK,
  type SecretPiece,
  secretParts,
  urlOrigin,
  urlPieces,
} from '@lucky/shared';
import { fieldFailure } from '../../core/http/reply.js';
import type { Logger } from '../../core/logs/logger.js';

/** The secret paths below one task, and below the global settings. */
const TASK_SECRETS = DDNS_SECRETS.filter((p) => p.startsWith('tasks.*.')).map((p) => p.slice('tasks.*.'.length));
const SETTINGS_SECRETS = DDNS_SECRETS.filter((p) => !p.startsWith('tasks.'));
const WEBHOOK_SECRETS = SETTINGS_SECRETS.map((p) => p.slice('webhook.'.length));

const maskUrl = (u: string) => maskPieces(urlPieces(u));
const maskBody = (b: string) => maskPieces(bodyPieces(b));
const maskHeaders = (list: string[]) => list.map((h) => maskPieces(headerPieces(h)));

/** The callback and webhook request parts: url, headers, body. */
interface CallShape {
  url: string;
  headers: string[];
  body: string;
}
function maskCall<T extends CallShape>(c: T): T {
  return { ...c, url: maskUrl(c.url), headers: maskHeaders(c.headers), body: maskBody(c.body) };
}

/** A task as a read shows it. */
export function maskTask(t: DdnsTask): DdnsTask {
  const m = maskSecrets(t, TASK_SECRETS);
  return {
    ...m,
    dns: { ...m.dns, server: maskUrl(m.dns.server), callback: maskCall(m.dns.callback) },
    ipSource: { ...m.ipSource, urls: m.ipSource.urls.map(maskUrl) },
    webhook: maskCall(m.webhook),
  };
}

/** The global settings as a read shows them. */
export function maskSettings(s: DdnsSettings): DdnsSettings {
  const m = maskSecrets(s, SETTINGS_SECRETS);
  return { ...m, webhook: maskCall(m.webhook) };
}

const unmatched = (field: string) =>
  fieldFailure({ field, code: 'secretMaskUnmatched', params: {}, msg: ddnsIssues.describe('secretMaskUnmatched') });

/** One text field: the stored secrets back where the input shows the mask, else a field failure. */
function restoreText(
  incoming: string,
  stored: string | undefined,
  pieces: (s: string) => SecretPiece[],
  field: string,
  sameOrigin = false,
): string {
  if (!incoming.includes(SECRET_MASK)) return incoming;
  const old = stored ?? '';
  // A kept token must not follow the URL to another server: a new address needs it typed again.
  const out = sameOrigin && urlOrigin(incoming) !== urlOrigin(old) ? undefined : restorePieces(incoming, pieces(old));
  if (out === undefined) throw unmatched(field);
  return out;
}

/** A list of lines: each line is matched with the stored line of the same masked form, else by position. */
function restoreLines(
  incoming: string[],
  stored: string[] | undefined,
  pieces: (s: string) => SecretPiece[],
  field: string,
  sameOrigin = false,
): string[] {
  const old = stored ?? [];
  const masked = old.map((s) => maskPieces(pieces(s)));
  return incoming.map((line, i) => {
    if (!line.includes(SECRET_MASK)) return line;
    const same = masked.indexOf(line);
    if (same >= 0) return old[same];
    return restoreText(line, old[i], pieces, `${field}.${i}`, sameOrigin);
  });
}

function restoreCall<T extends CallShape>(c: T, stored: CallShape | undefined, at: string): T {
  return {
    ...c,
    url: restoreText(c.url, stored?.url, urlPieces, `${at}url`, true),
    headers: restoreLines(c.headers, stored?.headers, headerPieces, `${at}headers`),
    body: restoreText(c.body, stored?.body, bodyPieces, `${at}body`),
  };
}

/** The stored secret parts back into the webhook's free text (its password is the supervisor's). */
export function restoreWebhookText(w: DdnsWebhook, stored?: DdnsWebhook, at = 'webhook.'): DdnsWebhook {
  return restoreCall(w, stored, at);
}

/**
 * A webhook that is called, not saved (the test button): free text and the whole-value password
 * both come back from the stored webhook.
 */
export function restoreWebhook(w: DdnsWebhook, stored?: DdnsWebhook): DdnsWebhook {
  return keepSecrets(restoreWebhookText(w, stored), stored, WEBHOOK_SECRETS);
}

/** The stored secret parts back into a task's free text (URLs, header lines, bodies). */
export function restoreTaskText<T extends Omit<DdnsTask, 'key'>>(t: T, stored?: DdnsTask): T {
  return {
    ...t,
    dns: {
      ...t.dns,
      server: restoreText(t.dns.server, stored?.dns.server, urlPieces, 'dns.server', true),
      callback: restoreCall(t.dns.callback, stored?.dns.callback, 'dns.callback.'),
    },
    ipSource: {
      ...t.ipSource,
      urls: restoreLines(t.ipSource.urls, stored?.ipSource.urls, urlPieces, 'ipSource.urls', true),
    },
    webhook: restoreWebhookText(t.webhook, stored?.webhook),
  };
}

/** Secret strings of a webhook / callback request and of a proxy password. */
function callSecrets(c: CallShape, out: string[]): void {
  out.push(...secretParts(urlPieces(c.url)));
  for (const h of c.headers) out.push(...secretParts(headerPieces(h)));
  out.push(...secretParts(bodyPieces(c.body)));
}

/** Ready for scrub(): short strings dropped (they would garble the text), encoded forms added, longest first. */
function scrubList(list: string[]): string[] {
  const all = new Set<string>();
  for (const s of list) {
    if (s.length < 4) continue;
    all.add(s);
    // Also as it appears percent-encoded in a URL the task built.
    const enc = encodeURIComponent(s);
    if (enc !== s) all.add(enc);
  }
  return [...all].sort((a, b) => b.length - a.length);
}

/** Every secret string of a webhook (for scrubbing a test call's answer). */
export function webhookSecrets(w: DdnsWebhook): string[] {
  const out = [w.proxy.password];
  callSecrets(w, out);
  return scrubList(out);
}

/** Every secret string of a task (and the global webhook it may call), for scrubbing text. */
export function secretsOf(task: DdnsTask, global?: DdnsWebhook): string[] {
  const out = [task.dns.secret, task.proxy.password, task.webhook.proxy.password];
  out.push(...secretParts(urlPieces(task.dns.server)));
  for (const u of task.ipSource.urls) out.push(...secretParts(urlPieces(u)));
  callSecrets(task.dns.callback, out);
  callSecrets(task.webhook, out);
  if (global) {
    out.push(global.proxy.password);
    callSecrets(global, out);
  }
  return scrubList(out);
}

/** `text` with every occurrence of the given secrets replaced by SECRET_MASK. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(SECRET_MASK);
  return out;
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

/**
 * A JSON value with the secrets masked in every string: statuses, histories and log lines (their
 * text and params) quote provider answers and addresses, which may echo a token back.
 */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const text = JSON.stringify(value);
  if (!secrets.some((s) => text.includes(s))) return value;
  return JSON.parse(text, (_k, v) => (typeof v === 'string' ? scrub(v, secrets) : v)) as T;
}
