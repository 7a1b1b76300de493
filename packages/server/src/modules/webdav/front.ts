// What every WebDAV request passes before the protocol engine: the client's address (the peer, or
// the client a trusted proxy names), the address rules, Basic auth through the module's password
// checker (ctx.auth: throttle per address, the fair scrypt gate, the verified-password cache),
// then the engine with the user's access per mount. Write-ish requests and refusals are logged.

import { createHash } from 'node:crypto';
import type { WebdavConfig, WebdavLogLine, WebdavMount, WebdavRefusal, WebdavUser } from '@lucky/shared';
import type { ServiceAuth, ServiceAuthResult } from '../../core/auth/serviceAuth.js';
import { StreamResponse } from '../../core/serve/h2/stream.js';
import { sendPage } from '../../core/serve/pages.js';
import type { ServeRequest, ServeResponse } from '../../core/serve/request.js';
import type { AddressRules } from './addressRules.js';
import { CHALLENGE, parseBasic } from './basicAuth.js';
import type { DavAccess, DavHandler } from './engine.js';

/** What the front reads per request: replaced whole on reload (a request keeps the one it started with). */
export interface FrontState {
  config: WebdavConfig;
  rules: AddressRules;
  /** Enabled users by folded name. */
  users: ReadonlyMap<string, WebdavUser>;
  /** Enabled mounts by name. */
  mounts: ReadonlyMap<string, WebdavMount>;
  engine: DavHandler;
}

export interface FrontHooks {
  state(): FrontState;
  /** A request body that brings no byte for this long is cut (a PUT that never ends). */
  bodyIdleMs: number;
  auth: ServiceAuth;
  /** A coded log line (level 2 error … 5 debug). */
  log(level: 2 | 3 | 4 | 5, code: WebdavLogLine, params: Record<string, unknown>): void;
  /** The address `client` was refused (logged at most once a minute per address by the caller). */
  refused(client: string, why: WebdavRefusal): void;
  /**
   * The global security lists (ctx.safe) for the request's client: the listener asked them for the
   * peer at accept, this asks again for the client a trusted proxy names, and for a peer banned
   * since its connection opened (guessing on a kept-alive connection). They log their refusals.
   */
  admits(client: string): boolean;
}

/** Methods an anonymous client may use on public mounts when anonymous read is on. */
const ANONYMOUS_METHODS = new Set(['GET', 'HEAD', 'PROPFIND']);
/** Methods whose outcome is logged (the reads are too many to log one by one). */
const LOGGED_METHODS = new Set(['PUT', 'DELETE', 'MKCOL', 'COPY', 'MOVE', 'PROPPATCH', 'LOCK', 'UNLOCK']);

/** The folded form of a user name: sign-in names are matched as the schema keeps them unique. */
export const foldName = (name: string) => name.normalize('NFC').toLowerCase();

/** The request path for the log: decoded where it decodes, without the query, bounded. */
function logPath(url: string | undefined): string {
  const raw = (url ?? '/').split('?')[0];
  let path = raw;
  try {
    path = decodeURIComponent(raw);
  } catch {
    // Left as sent: the engine refuses it anyway.
  }
  return path.length > 512 ? `${path.slice(0, 512)}…` : path;
}

/** A request whose body is still arriving: how far it got, last seen moving at `at`. */
interface Incoming {
  req: ServeRequest;
  res: ServeResponse;
  client: string;
  /** Whether the whole body has arrived. */
  complete: () => boolean;
  /** A count that grows while body bytes arrive. */
  progress: () => number;
  seen: number;
  at: number;
}

/**
 * How to watch a request's body arrive, per engine: an HTTP/1 request by its connection's bytes
 * until the parser has it whole, an HTTP/2 stream by its own DATA bytes until END_STREAM.
 */
function bodyWatch(req: ServeRequest, res: ServeResponse): Pick<Incoming, 'complete' | 'progress'> | undefined {
  if (res instanceof StreamResponse) return { complete: () => res.remoteEnded, progress: () => res.received };
  if ('complete' in req) {
    const r = req as ServeRequest & { complete: boolean };
    return { complete: () => r.complete, progress: () => r.socket.bytesRead };
  }
  return undefined;
}

export class Front {
  /** Requests answered (any outcome), for the status figures. */
  requests = 0;
  private readonly incoming = new Set<Incoming>();
  /** Checks under way by (client, user, password) digest: a burst of requests shares one. */
  private readonly checking = new Map<string, Promise<ServiceAuthResult>>();
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly hooks: FrontHooks) {}

  /** Stop watching bodies (the runtime stops). */
  close(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.incoming.clear();
  }

  /**
   * Watch a request's body until it is whole: a body that brings no byte for `bodyIdleMs` is cut,
   * so a PUT that trickles to a halt does not hold its connection (or stream) and its half-written
   * upload. The listener's whole-request deadline is a day (listenOptions): an upload that keeps
   * moving may take long.
   */
  private watchBody(req: ServeRequest, res: ServeResponse, client: string): void {
    const watch = bodyWatch(req, res);
    if (!watch || watch.complete()) return;
    const entry: Incoming = { req, res, client, ...watch, seen: watch.progress(), at: Date.now() };
    this.incoming.add(entry);
    res.once('close', () => this.incoming.delete(entry));
    this.sweeper ??= setInterval(() => this.sweep(), Math.max(100, Math.min(5000, this.hooks.bodyIdleMs / 4)));
    this.sweeper.unref?.();
  }

  private sweep(): void {
    const now = Date.now();
    for (const e of this.incoming) {
      if (e.complete()) {
        this.incoming.delete(e);
        continue;
      }
      const seen = e.progress();
      if (seen !== e.seen) {
        e.seen = seen;
        e.at = now;
      } else if (now - e.at >= this.hooks.bodyIdleMs) {
        this.incoming.delete(e);
        const seconds = Math.round(this.hooks.bodyIdleMs / 1000);
        this.hooks.log(3, 'bodyStalled', { client: e.client, method: e.req.method, path: logPath(e.req.url), seconds });
        e.res.destroy();
      }
    }
    if (this.incoming.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  readonly handle = (req: ServeRequest, res: ServeResponse): void => {
    this.requests++;
    const state = this.hooks.state();
    const client = state.rules.clientOf(req.socket.remoteAddress, req.headers);
    const head = req.method === 'HEAD';
    const why = state.rules.refusal(client);
    if (why) {
      this.hooks.refused(client, why);
      sendPage(res, 403, '', {}, head);
      return;
    }
    if (!this.hooks.admits(client)) {
      sendPage(res, 403, '', {}, head);
      return;
    }
    const credentials = parseBasic(req.headers.authorization);
    if (credentials === undefined) {
      const method = req.method ?? '';
      // OPTIONS without credentials is a 401 too: Windows' redirector probes with it and signs in only when asked.
      if (state.config.anonymousReadOnly && ANONYMOUS_METHODS.has(method)) {
        this.serve(req, res, state, client, anonymous(state));
        return;
      }
      this.challenge(res, head);
      return;
    }
    if (credentials === null) {
      this.hooks.log(3, 'authFailed', { client, user: '' });
      this.challenge(res, head);
      return;
    }
    const { user, password } = credentials;
    const found = state.users.get(foldName(user));
    this.check(client, found?.name ?? user, password, found)
      .then((result) => {
        if (result.ok && found) {
          this.serve(req, res, state, client, userAccess(state, found));
          return;
        }
        if (result.ok) return this.challenge(res, head);
        const seconds = Math.max(1, Math.ceil((result.retryAfterMs ?? 1000) / 1000));
        if (result.reason === 'bad') {
          this.hooks.log(3, 'authFailed', { client, user: user.slice(0, 64) });
          this.challenge(res, head);
        } else if (result.reason === 'locked') {
          this.hooks.log(3, 'authLocked', { client, seconds });
          sendPage(res, 429, '', { 'retry-after': String(seconds) }, head);
        } else {
          this.hooks.log(3, 'authBusy', { client });
          sendPage(res, 503, '', { 'retry-after': String(seconds) }, head);
        }
      })
      .catch((err: Error) => {
        this.hooks.log(2, 'handlerError', { client, method: req.method, path: logPath(req.url), detail: err.message });
        sendPage(res, 500, '', {}, head);
      });
  };

  /**
   * One password check for a burst of requests with the same credentials from one client: a
   * client that opens its connections at once (Windows, rclone's transfers and checkers) sends
   * them before the first check has put the password in the cache, and the throttle would answer
   * the third one `busy`. A guessing client's different passwords are checked (and counted) each.
   */
  private check(client: string, user: string, password: string, found: WebdavUser | undefined) {
    const id = createHash('sha256').update(`${client}\0${user}\0${password}`).digest('base64');
    let pending = this.checking.get(id);
    if (!pending) {
      // A user without a stored hash is checked against the dummy hash: the time does not tell.
      pending = this.hooks.auth
        .check(client, user, password, () => found?.password || undefined)
        .finally(() => this.checking.delete(id));
      this.checking.set(id, pending);
    }
    return pending;
  }

  private challenge(res: ServeResponse, head: boolean): void {
    sendPage(res, 401, '', { 'www-authenticate': CHALLENGE }, head);
  }

  private serve(req: ServeRequest, res: ServeResponse, state: FrontState, client: string, who: DavAccess): void {
    const method = req.method ?? '';
    this.watchBody(req, res, client);
    if (LOGGED_METHODS.has(method)) {
      const path = logPath(req.url);
      const length = Number(req.headers['content-length'] ?? 0) || 0;
      res.once('close', () => {
        const user = who.user || '-';
        if (!res.writableFinished) this.hooks.log(3, 'requestCut', { client, user, method, path });
        else
          this.hooks.log(4, 'request', {
            client,
            user,
            method,
            path,
            status: res.statusCode,
            bytes: method === 'PUT' ? length : 0,
          });
      });
    }
    try {
      state.engine(req, res, who);
    } catch (err) {
      this.hooks.log(2, 'handlerError', { client, method, path: logPath(req.url), detail: (err as Error).message });
      sendPage(res, 500, '', {}, method === 'HEAD');
    }
  }
}

/** A signed-in user's access: their level on each enabled mount they were given. */
function userAccess(state: FrontState, user: WebdavUser): DavAccess {
  return {
    user: user.name,
    access: (name) => {
      const mount = state.mounts.get(name);
      return mount ? user.access[mount.key] : undefined;
    },
  };
}

/** Nobody signed in (anonymous read on): read-only on the public mounts. */
function anonymous(state: FrontState): DavAccess {
  return { user: '', access: (name) => (state.mounts.get(name)?.public ? 'ro' : undefined) };
}
