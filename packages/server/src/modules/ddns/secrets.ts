// Secrets never leave the server: reads show SECRET_MASK in their place, and a write that
// sends SECRET_MASK back keeps the stored value ('' clears it, anything else replaces it).
// Whole-value secrets (provider secret, proxy passwords) are masked whole; URLs, header lines
// and bodies only in their secret parts (shared/modules/secretText.ts has the rule), so the
// dialog still shows where a call goes. The same parts are scrubbed from the task's log lines.
import {
  bodyPieces,
  type DdnsSettings,
  type DdnsTask,
  type DdnsWebhook,
  headerPieces,
  maskPieces,
  restorePieces,
  SECRET_MASK,
  type SecretPiece,
  secretParts,
  urlOrigin,
  urlPieces,
} from '@lucky/shared';
import type { Logger } from '../../core/logs/logger.js';
import { issueOf } from './validate.js';

const mask = (s: string) => (s ? SECRET_MASK : '');
const keep = (incoming: unknown, stored: string | undefined) => (incoming === SECRET_MASK ? (stored ?? '') : incoming);

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

function maskWebhook(w: DdnsWebhook): DdnsWebhook {
  return { ...maskCall(w), proxy: { ...w.proxy, password: mask(w.proxy.password) } };
}

export function maskTask(t: DdnsTask): DdnsTask {
  return {
    ...t,
    dns: {
      ...t.dns,
      secret: mask(t.dns.secret),
      server: maskUrl(t.dns.server),
      callback: maskCall(t.dns.callback),
    },
    ipSource: { ...t.ipSource, urls: t.ipSource.urls.map(maskUrl) },
    proxy: { ...t.proxy, password: mask(t.proxy.password) },
    webhook: maskWebhook(t.webhook),
  };
}

export function maskSettings(s: DdnsSettings): DdnsSettings {
  return { ...s, webhook: maskWebhook(s.webhook) };
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);

/** One text field: the stored secrets back where the input shows the mask, else a field error. */
function restoreText(
  incoming: unknown,
  stored: string | undefined,
  pieces: (s: string) => SecretPiece[],
  field: string,
  sameOrigin = false,
): unknown {
  if (typeof incoming !== 'string' || !incoming.includes(SECRET_MASK)) return incoming;
  const old = stored ?? '';
  // A kept token must not follow the URL to another server: a new address needs it typed again.
  const out = sameOrigin && urlOrigin(incoming) !== urlOrigin(old) ? undefined : restorePieces(incoming, pieces(old));
  if (out === undefined) throw issueOf(field, 'secretMaskUnmatched');
  return out;
}

/** A list of lines: each line is matched with the stored line of the same masked form, else by position. */
function restoreLines(
  incoming: unknown,
  stored: string[] | undefined,
  pieces: (s: string) => SecretPiece[],
  field: string,
  sameOrigin = false,
): unknown {
  if (!Array.isArray(incoming)) return incoming;
  const old = stored ?? [];
  const masked = old.map((s) => maskPieces(pieces(s)));
  return incoming.map((line, i) => {
    if (typeof line !== 'string' || !line.includes(SECRET_MASK)) return line;
    const same = masked.indexOf(line);
    if (same >= 0) return old[same];
    return restoreText(line, old[i], pieces, `${field}.${i}`, sameOrigin);
  });
}

function restoreCall(c: Obj, stored: CallShape | undefined, at: string): Obj {
  return {
    ...c,
    url: restoreText(c.url, stored?.url, urlPieces, `${at}url`, true),
    headers: restoreLines(c.headers, stored?.headers, headerPieces, `${at}headers`),
    body: restoreText(c.body, stored?.body, bodyPieces, `${at}body`),
  };
}

/** Puts stored secrets back where the input holds the mask (input not validated yet). */
export function restoreWebhookSecrets(input: unknown, stored?: DdnsWebhook, at = 'webhook.'): unknown {
  const w = obj(input);
  if (!w) return input;
  const out = restoreCall(w, stored, at);
  const p = obj(w.proxy);
  if (p) out.proxy = { ...p, password: keep(p.password, stored?.proxy.password) };
  return out;
}

export function restoreTaskSecrets(input: unknown, stored?: DdnsTask): unknown {
  const t = obj(input);
  if (!t) return input;
  const out: Obj = { ...t };
  const dns = obj(t.dns);
  if (dns) {
    const d: Obj = {
      ...dns,
      secret: keep(dns.secret, stored?.dns.secret),
      server: restoreText(dns.server, stored?.dns.server, urlPieces, 'dns.server', true),
    };
    const cb = obj(dns.callback);
    if (cb) d.callback = restoreCall(cb, stored?.dns.callback, 'dns.callback.');
    out.dns = d;
  }
  const src = obj(t.ipSource);
  if (src)
    out.ipSource = {
      ...src,
      urls: restoreLines(src.urls, stored?.ipSource.urls, urlPieces, 'ipSource.urls', true),
    };
  const proxy = obj(t.proxy);
  if (proxy) out.proxy = { ...proxy, password: keep(proxy.password, stored?.proxy.password) };
  if (t.webhook !== undefined) out.webhook = restoreWebhookSecrets(t.webhook, stored?.webhook);
  return out;
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
 * A JSON value with the secrets masked in every string: statuses, histories and log lines
 * quote provider answers and addresses, which may echo a token back.
 */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const text = JSON.stringify(value);
  if (!secrets.some((s) => text.includes(s))) return value;
  return JSON.parse(text, (_k, v) => (typeof v === 'string' ? scrub(v, secrets) : v)) as T;
}
