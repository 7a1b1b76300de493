// The one request client (spec §4, §7, §8). Every admin call goes through
// here so the session rules hold everywhere:
// - relative URLs (`api/...`, `version`): the console works under the
//   security entrance and behind a path-prefixing reverse proxy;
// - `_=<time>` cache buster, `Authorization: <token>`, 5 s time-out;
// - `ret === -1` ends the session; more than two failures in a row (time-out,
//   network error, 5xx) send the user to /login; any other answer resets that run;
// - backend error messages are shown for two minutes.
import {
  BACKEND_ERROR_DISPLAY_MS,
  MAX_CONSECUTIVE_FAILURES,
  REQUEST_TIMEOUT_MS,
  RET_OK,
  RET_SESSION_INVALID,
} from '@lucky/shared';
import { getItem, removeItem } from './storage';

/** Every admin answer carries `ret`; the rest depends on the call. */
export interface ApiReply {
  ret: number;
  msg?: string;
  field?: string;
  /** Names the message so it can be shown in the user's language (`errors.<code>`). */
  code?: string;
  /** The code's numbers, e.g. `{min, max}` of a refused number. */
  params?: Record<string, unknown>;
}

/**
 * The server's message in the user's language: `errors.<code>` (or the generic `common.err_<code>`)
 * when the locale has it, else its `msg`. A number refused as too small / too big with both ends
 * of its range reads as the range (`errors.outOfRange`).
 */
export function replyText(reply: ApiReply | undefined): string | undefined {
  if (reply?.code) {
    const params = reply.params ?? {};
    const ranged =
      (reply.code === 'tooSmall' || reply.code === 'tooBig') &&
      typeof params.min === 'number' &&
      typeof params.max === 'number';
    // The program-wide text, then the generic field codes (common.err_tooBig …).
    const keys = ranged ? ['errors.outOfRange'] : [`errors.${reply.code}`, `common.err_${reply.code}`];
    for (const key of keys) {
      const text = hooks.t(key, { ...(reply as unknown as Record<string, unknown>), ...params });
      if (text && text !== key) return text;
    }
  }
  return reply?.msg || undefined;
}

export type ApiErrorKind = 'ret' | 'session' | 'http' | 'timeout' | 'network' | 'invalid' | 'aborted';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly ret?: number;
  readonly status?: number;
  readonly reply?: ApiReply;

  constructor(kind: ApiErrorKind, message: string, extra: { ret?: number; status?: number; reply?: ApiReply } = {}) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.ret = extra.ret;
    this.status = extra.status;
    this.reply = extra.reply;
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  query?: Query;
  /** Sent as JSON. */
  body?: unknown;
  /** Send the stored token (default true). Public calls (`version`, `2FAStatus`…) pass false. */
  auth?: boolean;
  /** Show no message on failure; the caller handles (or ignores) it. */
  silent?: boolean;
  /** Count time-outs/network errors/5xx towards the logout run (default true). Reconnect loops pass false. */
  countFailures?: boolean;
  timeoutMs?: number;
  /** The caller's own cancel (e.g. react-query unmounting); never counted or shown. */
  signal?: AbortSignal;
}

export type NoticeLevel = 'error' | 'warning';

/** What the client needs from the app; injected so the client stays free of React. */
export interface ClientHooks {
  /** Show a message; `durationMs` 0 = the default display time of the UI kit. */
  notify(level: NoticeLevel, text: string, durationMs: number): void;
  /** Go to the login route (the hash router listens to the location). */
  goToLogin(): void;
  /** Translate an i18n key; the client uses keys under `common.` and `errors.`. */
  t(key: string, vars?: Record<string, unknown>): string;
}

/** How long a client-side failure (time-out, network) stays on screen. */
const TRANSPORT_ERROR_DISPLAY_MS = 6000;

const defaultHooks: ClientHooks = {
  notify: (level, text) => (level === 'error' ? console.error(text) : console.warn(text)),
  goToLogin: () => {
    window.location.hash = '#/login';
  },
  t: (key) => key,
};

let hooks: ClientHooks = defaultHooks;
let consecutiveFailures = 0;

export function configureClient(next: Partial<ClientHooks>): void {
  hooks = { ...hooks, ...next };
}

/** For tests: restore the default hooks and the failure run. */
export function resetClient(): void {
  hooks = defaultHooks;
  consecutiveFailures = 0;
}

export function failureCount(): number {
  return consecutiveFailures;
}

/** `api/logs` + query + cache buster; a leading slash is dropped so the URL stays relative. */
export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null) params.set(k, String(v));
  }
  params.set('_', String(Date.now()));
  const rel = path.replace(/^\/+/, '');
  return `${rel}${rel.includes('?') ? '&' : '?'}${params.toString()}`;
}

function authHeader(auth: boolean): Record<string, string> {
  if (!auth) return {};
  const token = getItem('token');
  return token ? { Authorization: token } : {};
}

function recordFailure(opts: RequestOptions): void {
  if (opts.countFailures === false) return;
  consecutiveFailures++;
  if (consecutiveFailures > MAX_CONSECUTIVE_FAILURES) {
    // Start a fresh run so one outage sends the user to /login once, not on every poll.
    consecutiveFailures = 0;
    hooks.goToLogin();
  }
}

function recordAnswer(): void {
  consecutiveFailures = 0;
}

function endSession(): void {
  // Without a token the user was never signed in: no "expired" notice, just the login page.
  if (getItem('token')) hooks.notify('warning', hooks.t('common.loginExpired'), 0);
  removeItem('token');
  hooks.goToLogin();
}

function showBackendError(opts: RequestOptions, text: string): void {
  if (!opts.silent) hooks.notify('error', text, BACKEND_ERROR_DISPLAY_MS);
}

function parseReply(text: string): ApiReply | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && typeof (v as ApiReply).ret === 'number' ? (v as ApiReply) : undefined;
  } catch {
    return undefined;
  }
}

/** Turns an HTTP answer into a reply or an ApiError, applying the session rules. Shared by fetch and XHR. */
export function settleAnswer<T extends ApiReply>(status: number, text: string, opts: RequestOptions): T {
  const reply = parseReply(text);
  if (status >= 500) {
    recordFailure(opts);
    const msg = replyText(reply) || hooks.t('common.serverError', { status });
    showBackendError(opts, msg);
    throw new ApiError('http', msg, { status, ret: reply?.ret, reply });
  }
  recordAnswer();
  if (!reply) {
    const msg = hooks.t('common.invalidReply', { status });
    showBackendError(opts, msg);
    throw new ApiError('invalid', msg, { status });
  }
  if (reply.ret === RET_SESSION_INVALID) {
    endSession();
    throw new ApiError('session', hooks.t('common.loginExpired'), { status, ret: reply.ret, reply });
  }
  if (reply.ret !== RET_OK) {
    const msg = replyText(reply) || hooks.t('common.requestFailed', { ret: reply.ret });
    showBackendError(opts, msg);
    throw new ApiError('ret', msg, { status, ret: reply.ret, reply });
  }
  return reply as T;
}

function transportError(kind: 'timeout' | 'network', opts: RequestOptions): ApiError {
  recordFailure(opts);
  const msg = hooks.t(kind === 'timeout' ? 'common.timeout' : 'common.networkError');
  if (!opts.silent) hooks.notify('error', msg, TRANSPORT_ERROR_DISPLAY_MS);
  return new ApiError(kind, msg);
}

interface RawAnswer {
  response: Response;
  /** Clears the time-out once the caller has read the body. */
  done(): void;
  timedOut(): boolean;
}

/** fetch with the time-out and the caller's signal merged; throws ApiError for transport failures. */
async function send(method: string, path: string, opts: RequestOptions, init: RequestInit): Promise<RawAnswer> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort();
  if (opts.signal?.aborted) controller.abort();
  opts.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const done = () => {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCallerAbort);
  };
  try {
    const response = await fetch(buildUrl(path, opts.query), {
      ...init,
      method,
      cache: 'no-store',
      signal: controller.signal,
      headers: { ...authHeader(opts.auth !== false), ...(init.headers as Record<string, string> | undefined) },
    });
    return { response, done, timedOut: () => timedOut };
  } catch {
    done();
    if (timedOut) throw transportError('timeout', opts);
    if (opts.signal?.aborted) throw new ApiError('aborted', 'aborted');
    throw transportError('network', opts);
  }
}

/** Reads the body under the same time-out; a body cut off mid-way counts like the request failing. */
async function readText(answer: RawAnswer, opts: RequestOptions): Promise<string> {
  try {
    return await answer.response.text();
  } catch {
    if (answer.timedOut()) throw transportError('timeout', opts);
    if (opts.signal?.aborted) throw new ApiError('aborted', 'aborted');
    throw transportError('network', opts);
  } finally {
    answer.done();
  }
}

export async function request<T extends ApiReply = ApiReply>(
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<T> {
  const init: RequestInit = {};
  if (opts.body !== undefined) {
    init.body = JSON.stringify(opts.body);
    init.headers = { 'Content-Type': 'application/json' };
  }
  const answer = await send(method, path, opts, init);
  const text = await readText(answer, opts);
  return settleAnswer<T>(answer.response.status, text, opts);
}

export const get = <T extends ApiReply = ApiReply>(path: string, opts?: RequestOptions) =>
  request<T>('GET', path, opts);
export const post = <T extends ApiReply = ApiReply>(path: string, body?: unknown, opts?: RequestOptions) =>
  request<T>('POST', path, { ...opts, body });
export const put = <T extends ApiReply = ApiReply>(path: string, body?: unknown, opts?: RequestOptions) =>
  request<T>('PUT', path, { ...opts, body });
export const del = <T extends ApiReply = ApiReply>(path: string, opts?: RequestOptions) =>
  request<T>('DELETE', path, opts);

export interface UploadOptions extends Omit<RequestOptions, 'body' | 'timeoutMs'> {
  /** Multipart field name (default `file`). */
  field?: string;
  /** 0..100 while the body is sent. */
  onProgress?: (percent: number) => void;
}

/**
 * Multipart upload through XHR, the only browser API that reports upload
 * progress. No 5 s time-out here: a release package over a slow link takes
 * longer, and a stalled connection still ends in a network error.
 */
export function upload<T extends ApiReply = ApiReply>(path: string, file: Blob, opts: UploadOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(path, opts.query));
    for (const [k, v] of Object.entries(authHeader(opts.auth !== false))) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && opts.onProgress) opts.onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      try {
        resolve(settleAnswer<T>(xhr.status, xhr.responseText, opts));
      } catch (err) {
        reject(err);
      }
    };
    xhr.onerror = () => reject(transportError('network', opts));
    xhr.onabort = () => reject(new ApiError('aborted', 'aborted'));
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append(opts.field ?? 'file', file, file instanceof File ? file.name : 'upload');
    xhr.send(form);
  });
}

export interface Download {
  blob: Blob;
  /** From Content-Disposition, if the server named the file. */
  filename?: string;
}

function filenameFrom(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1];
}

/**
 * GET a file. An error status, or a JSON reply with `ret` ≠ 0 in place of an
 * attachment, is handled like any other error reply. (A config backup is JSON
 * itself, so JSON alone does not mean "error".)
 */
export async function download(
  path: string,
  opts: RequestOptions & { method?: 'GET' | 'POST' } = {},
): Promise<Download> {
  // A POST (an archive made for a list the caller names) sends `body` as JSON.
  const init: RequestInit =
    opts.body === undefined ? {} : { body: JSON.stringify(opts.body), headers: { 'Content-Type': 'application/json' } };
  const answer = await send(opts.method ?? 'GET', path, opts, init);
  const { response } = answer;
  if (response.status >= 400) {
    const reply = settleAnswer(response.status, await readText(answer, opts), opts);
    throw new ApiError('http', reply.msg ?? String(response.status), { status: response.status, reply });
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    if (answer.timedOut()) throw transportError('timeout', opts);
    throw opts.signal?.aborted ? new ApiError('aborted', 'aborted') : transportError('network', opts);
  } finally {
    answer.done();
  }
  const disposition = response.headers.get('Content-Disposition');
  const type = response.headers.get('Content-Type') ?? '';
  if (!disposition && type.includes('application/json')) {
    const reply = parseReply(await blob.text());
    if (reply && reply.ret !== RET_OK) settleAnswer(response.status, JSON.stringify(reply), opts);
  }
  recordAnswer();
  return { blob, filename: filenameFrom(disposition) };
}

/** Hands a blob to the browser as a file download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke later: some browsers start reading the URL only after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
