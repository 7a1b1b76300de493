// What every WebDAV request passes before the protocol engine: the client's address (the peer, or
// the client a trusted proxy names), the address rules, Basic auth through the module's password
// checker (ctx.auth: throttle per address, the fair scrypt gate, the verified-password cache),
// then the engine with the user's access per mount. Write-ish requests and refusals are logged.
import type { WebdavConfig, WebdavLogLine, WebdavMount, WebdavRefusal, WebdavUser } from '@lucky/shared';
import type { ServiceAuth } from '../../core/auth/serviceAuth.js';
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
  auth: ServiceAuth;
  /** A coded log line (level 2 error … 5 debug). */
  log(level: 2 | 3 | 4 | 5, code: WebdavLogLine, params: Record<string, unknown>): void;
  /** The address `client` was refused (logged at most once a minute per address by the caller). */
  refused(client: string, why: WebdavRefusal): void;
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

export class Front {
  /** Requests answered (any outcome), for the status figures. */
  requests = 0;

  constructor(private readonly hooks: FrontHooks) {}

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
    // A user without a stored hash is checked against the dummy hash: the time does not tell.
    this.hooks.auth
      .check(client, found?.name ?? user, password, () => found?.password || undefined)
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

  private challenge(res: ServeResponse, head: boolean): void {
    sendPage(res, 401, '', { 'www-authenticate': CHALLENGE }, head);
  }

  private serve(req: ServeRequest, res: ServeResponse, state: FrontState, client: string, who: DavAccess): void {
    const method = req.method ?? '';
    if (LOGGED_METHODS.has(method)) {
      const path = logPath(req.url);
      const length = Number(req.headers['content-length'] ?? 0) || 0;
      res.once('close', () => {
        this.hooks.log(4, 'request', {
          client,
          user: who.user || '-',
          method,
          path,
          status: res.writableFinished ? res.statusCode : 'cut off',
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
