// Secrets in request templates (webhooks, DDNS's callback) and other free-text fields of a
// module (an API URL, a list of echo URLs). The whole-value secret of a webhook — its proxy
// password, WEBHOOK_SECRETS — is the supervisor's (named in the module's `secrets`). URLs, header
// lines and bodies are free text: only their secret parts are masked (shared secretText.ts has
// the rule), so the dialog still shows where a call goes, and the stored parts are put back on
// save here. Text that quotes a call (an answer, a status, a log line) is scrubbed of the same
// parts.
import {
  bodyPieces,
  headerPieces,
  keepSecrets,
  maskPieces,
  restorePieces,
  SECRET_MASK,
  type SecretPiece,
  secretParts,
  urlOrigin,
  urlPieces,
  WEBHOOK_SECRETS,
  type WebhookSettings,
  webhookIssues,
} from '@lucky/shared';
import { fieldFailure } from '../http/reply.js';

/** The free-text parts of a request template. */
export interface RequestTemplate {
  url: string;
  headers: string[];
  body: string;
}

export const maskUrl = (u: string) => maskPieces(urlPieces(u));

/** A request template as a read shows it. */
export function maskTemplate<T extends RequestTemplate>(c: T): T {
  return {
    ...c,
    url: maskUrl(c.url),
    headers: c.headers.map((h) => maskPieces(headerPieces(h))),
    body: maskPieces(bodyPieces(c.body)),
  };
}

const unmatched = (field: string) =>
  fieldFailure({
    field,
    code: 'secretMaskUnmatched',
    params: {},
    msg: webhookIssues.describe('secretMaskUnmatched'),
  });

/**
 * One text field: the stored secrets back where the input shows the mask, else a field failure.
 * `sameOrigin`: a kept token must not follow a URL to another server (a new address needs it
 * typed again).
 */
export function restoreText(
  incoming: string,
  stored: string | undefined,
  pieces: (s: string) => SecretPiece[],
  field: string,
  sameOrigin = false,
): string {
  if (!incoming.includes(SECRET_MASK)) return incoming;
  const old = stored ?? '';
  const out = sameOrigin && urlOrigin(incoming) !== urlOrigin(old) ? undefined : restorePieces(incoming, pieces(old));
  if (out === undefined) throw unmatched(field);
  return out;
}

/** A list of lines: each line is matched with the stored line of the same masked form, else by position. */
export function restoreLines(
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

/** The stored secret parts back into a template's free text; a refusal names `at` + the field. */
export function restoreTemplate<T extends RequestTemplate>(c: T, stored: RequestTemplate | undefined, at: string): T {
  return {
    ...c,
    url: restoreText(c.url, stored?.url, urlPieces, `${at}url`, true),
    headers: restoreLines(c.headers, stored?.headers, headerPieces, `${at}headers`),
    body: restoreText(c.body, stored?.body, bodyPieces, `${at}body`),
  };
}

/**
 * A webhook that is called, not saved (the test button): free text and the whole-value password
 * both come back from the stored webhook.
 */
export function restoreWebhook<T extends WebhookSettings>(w: T, stored: T | undefined, at = 'webhook.'): T {
  return keepSecrets(restoreTemplate(w, stored, at), stored, WEBHOOK_SECRETS);
}

/** The secret strings of a template's free text, appended to `out`. */
export function templateSecrets(c: RequestTemplate, out: string[] = []): string[] {
  out.push(...secretParts(urlPieces(c.url)));
  for (const h of c.headers) out.push(...secretParts(headerPieces(h)));
  out.push(...secretParts(bodyPieces(c.body)));
  return out;
}

/** Ready for scrub(): short strings dropped (they would garble the text), encoded forms added, longest first. */
export function scrubList(list: string[]): string[] {
  const all = new Set<string>();
  for (const s of list) {
    if (s.length < 4) continue;
    all.add(s);
    // Also as it appears percent-encoded in a URL the call built.
    const enc = encodeURIComponent(s);
    if (enc !== s) all.add(enc);
  }
  return [...all].sort((a, b) => b.length - a.length);
}

/** Every secret string of a webhook, ready for scrub(). */
export function webhookSecrets(w: WebhookSettings): string[] {
  return scrubList(templateSecrets(w, [w.proxy.password]));
}

/** `text` with every occurrence of the given secrets replaced by SECRET_MASK. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(SECRET_MASK);
  return out;
}

/**
 * A JSON value with the secrets masked in every string: statuses, histories and log lines (their
 * text and params) quote answers and addresses, which may echo a token back.
 */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const text = JSON.stringify(value);
  if (!secrets.some((s) => text.includes(s))) return value;
  return JSON.parse(text, (_k, v) => (typeof v === 'string' ? scrub(v, secrets) : v)) as T;
}
