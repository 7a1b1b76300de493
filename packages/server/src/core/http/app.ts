import { existsSync } from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { BuiltModule } from '@lucky/shared';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { matchApiToken } from '../auth/sessions.js';
import { certResolverFor } from '../certs/resolver.js';
import { certStoreFor } from '../certs/store.js';
import type { Core } from '../core.js';
import { isLanAddress, setCgnatIsLan } from '../net/lan.js';
import { isKnockUrl } from '../safe/knock.js';
import type { KeyPair } from '../tls/adminCert.js';
import { PACKAGES_DIR } from '../version.js';
import { RELAY_HEADER, relayedClient } from './adminRelay.js';
import { adminAdmission } from './admission.js';
import { resolveClientIp } from './clientIp.js';
import { type HostPolicy, hostAllowed, hostPolicy, originAllowed, ownHostNames, refusalPage } from './hostGuard.js';
import { DualListener } from './listener.js';
import { GENERIC_ISSUES, type RouteContext, type RouteDef, RouteRegistry, routeInput } from './registry.js';
import { ApiFailure, codeOfStatus, fieldFailure, sendFailure } from './reply.js';

declare module 'fastify' {
  interface FastifyRequest {
    clientIp: string;
  }
}

export const WEB_DIST = path.join(PACKAGES_DIR, 'web', 'dist');
const ENTRANCE_MISS = '/__no_entrance__';
/** `/<entrance>` without the slash: redirected, so the page's relative asset paths resolve. */
const ENTRANCE_BARE = '/__entrance_bare__';

export interface AdminApp {
  app: FastifyInstance;
  registry: RouteRegistry;
  listener: DualListener;
}

/** Who is calling: a login session or an API token; undefined when the token is bad. */
async function authenticate(
  core: Core,
  req: FastifyRequest,
): Promise<{ sessionId?: string; actor: string } | undefined> {
  let token = req.headers.authorization ?? '';
  if (token.startsWith('Bearer ')) token = token.slice(7);
  token = token.trim();
  if (!token || token.length > 4096) return undefined;
  const config = core.store.get();
  if (token.startsWith('lkt_')) {
    const rec = matchApiToken(token, config.auth.apiTokens);
    if (!rec) return undefined;
    core.authState.tokenUsed(rec.id, req.clientIp);
    return { actor: `token:${rec.name}` };
  }
  const session = await core.sessions.verify(token, config.base.adminAccount);
  return session ? { sessionId: session.id, actor: session.account } : undefined;
}

export async function buildAdminApp(core: Core, tls: KeyPair): Promise<AdminApp> {
  let listener: DualListener | undefined;
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    // The security entrance: a secret path prefix the console answers under.
    rewriteUrl: (req) => {
      const url = req.url ?? '/';
      const entrance = core.store.get().base.securityEntrance;
      if (!entrance) return url;
      // A module's public pages (share links) are meant to be handed out: not behind the entrance;
      // nor is the knock URL (core/safe/knock.ts), a public path of the core.
      if (core.modules.publicPathOf(url) || isKnockUrl(core.store.get().safe, url)) return url;
      const prefix = `/${entrance}`;
      if (url === prefix) return ENTRANCE_BARE;
      if (url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) return url.slice(prefix.length) || '/';
      return ENTRANCE_MISS;
    },
    serverFactory: (handler) => {
      // The console answers with a stored certificate for its own name (e.g. nas.example.com),
      // and with its self-signed one for any other name or a bare IP address.
      const sni = certResolverFor(certStoreFor(core.store)).matchingSniCallback({ minVersion: 'TLSv1.2' });
      listener = new DualListener(handler, tls, sni, adminAdmission(core));
      return listener.http;
    },
  });
  if (!listener) throw new Error('server factory was not called');
  const dual: DualListener = listener;

  // Every LAN decision in this process (admin gate, accept-time check, modules) follows the setting.
  setCgnatIsLan(core.store.get().base.cgnatIsLan);
  core.store.onChange((next) => setCgnatIsLan(next.base.cgnatIsLan));
  const certs = certStoreFor(core.store);
  let policy: { config: unknown; at: number; policy: HostPolicy } | undefined;
  /** The names the admin answers to, made again when the config changes (or after a minute: hostname). */
  const namesPolicy = (): HostPolicy => {
    const config = core.store.get();
    const now = Date.now();
    if (policy?.config === config && now - policy.at < 60_000) return policy.policy;
    const names = [...ownHostNames(), ...config.base.adminHostNames];
    for (const c of certs.loaded()) if (c.record.enable) names.push(...c.leaf.domains);
    policy = { config, at: now, policy: hostPolicy(names) };
    return policy.policy;
  };

  // A rebinding page may retry in a loop: at most one refusal line per 10 s, with the count.
  let refusedAt = 0;
  let refusedQuiet = 0;
  const logRefusal = (text: string) => {
    const now = Date.now();
    if (now - refusedAt < 10_000) {
      refusedQuiet++;
      return;
    }
    core.log.warn(refusedQuiet ? `${text} (and ${refusedQuiet} more refusals not logged)` : text);
    refusedAt = now;
    refusedQuiet = 0;
  };

  app.decorateRequest('clientIp', '');
  app.addHook('onRequest', async (req, reply) => {
    const base = core.store.get().base;
    // Relayed by our own web service (adminRelay.ts): the client it names is the caller, for the
    // LAN gate, the login throttle, logs and sessions alike. Forged or stale values are ignored.
    const relayed = relayedClient(req.headers[RELAY_HEADER], req.socket.remoteAddress);
    req.clientIp = relayed?.ip ?? resolveClientIp(req.socket.remoteAddress, req.headers, base.trustedProxies);
    // A module's public path open outside the LAN (share links with sharesOutsideLan) skips the
    // LAN gate only; the Host / Origin checks below hold for it as for every request.
    const publicPath = core.modules.publicPathOf(req.url);
    const knock = isKnockUrl(core.store.get().safe, req.url);
    const outsideOk = publicPath?.outsideLan === true || knock;
    if (!base.allowInternetAccess && !outsideOk && !isLanAddress(req.clientIp, { cgnat: base.cgnatIsLan })) {
      core.log.warn(`refused admin access from outside the LAN: ${req.clientIp}`);
      return reply.code(403).send({
        ret: 1,
        code: 'outsideLan',
        msg: 'access from outside the LAN is switched off (settings: allow internet access)',
        ip: req.clientIp,
      });
    }
    // The security lists (core/safe), per request for the real client (a relayed or proxied one
    // passed the accept-time check on its proxy's address): a public path is its module's scope,
    // the knock URL is open to anyone neither blocked nor banned, the rest is the admin console's.
    const scope = publicPath ? (publicPath.module as BuiltModule) : 'admin';
    const decision = core.safe.decide(req.clientIp, scope);
    const knockOpen = knock && decision.rule !== 'block' && decision.rule !== 'ban';
    if (!decision.allowed && !knockOpen) {
      core.safe.logRefusal(req.clientIp, scope, decision.rule);
      if (req.url.startsWith('/api/'))
        return reply
          .code(403)
          .send({ ret: 1, code: 'forbidden', msg: 'this address is refused by the security lists' });
      return reply.code(403).type('text/plain').send('403 forbidden');
    }
    if (req.url === ENTRANCE_MISS) return reply.code(404).type('text/plain').send('404 page not found');
    // DNS rebinding (hostGuard.ts), before any route or auth. The web service decided by its own
    // rule's host matching for a relayed request, so only its Origin is checked (against the Host
    // the client sent the web service).
    const host = req.headers.host;
    if (!relayed && !hostAllowed(host, namesPolicy())) {
      core.log.warn(
        `refused admin request for host ${JSON.stringify(String(host).slice(0, 100))} from ${req.clientIp}`,
      );
      return reply
        .code(421)
        .type('text/html; charset=utf-8')
        .send(refusalPage(String(host), 'host'));
    }
    if (!originAllowed(req.method, req.headers.origin, relayed ? relayed.host : host, namesPolicy())) {
      logRefusal(
        `refused cross-site ${req.method} from origin ${JSON.stringify(String(req.headers.origin).slice(0, 100))}`,
      );
      return reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(refusalPage(String(host ?? ''), 'origin'));
    }
    if (req.url === ENTRANCE_BARE) return reply.redirect(`/${base.securityEntrance}/`, 308);
    const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
    if (base.forceHttps && !encrypted) {
      const host = req.headers.host ?? 'localhost';
      return reply.redirect(`https://${host}${req.originalUrl ?? req.url}`, 308);
    }
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'SAMEORIGIN');
    return payload;
  });

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof ApiFailure) return sendFailure(reply, err);
    if (err instanceof ZodError) {
      const issue = err.issues[0];
      return sendFailure(reply, fieldFailure(GENERIC_ISSUES.fromZod(issue)));
    }
    const e = err as { statusCode?: number; code?: string; message: string };
    if (e.statusCode && e.statusCode < 500) {
      const status = e.code === 'FST_REQ_FILE_TOO_LARGE' ? 413 : e.statusCode;
      return reply.code(status).send({ ret: 1, msg: e.message, code: codeOfStatus(status) });
    }
    core.log.error(`${req.method} ${req.url}: ${e.message}`);
    return reply.code(500).send({ ret: 1, msg: `internal error: ${e.message}`, code: 'internal' });
  });
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/'))
      return reply
        .code(404)
        .send({ ret: 1, msg: `unknown call ${req.method} ${req.url.split('?')[0]}`, code: 'notFound' });
    return reply.code(404).type('text/plain').send('404 page not found');
  });

  // tus uploads (the file manager) read their PATCH bodies themselves, streamed to the storage:
  // no parse, no body limit (the handler's own rate floor and the storage's space bound them).
  app.addContentTypeParser('application/offset+octet-stream', (_req, payload, done) => done(null, payload));
  // HTML forms post url-encoded bodies; only a module's public pages take them (the share link's
  // password). Everywhere else such a body stays a 415, as before: the admin API takes JSON, which a
  // cross-site form cannot send.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (req, body, done) => {
      if (!core.modules.publicPathOf(req.url) && !isKnockUrl(core.store.get().safe, req.url))
        return done(
          Object.assign(new Error(`Unsupported Media Type: ${req.headers['content-type']}`), { statusCode: 415 }),
        );
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  await app.register(multipart, { limits: { files: 1, fileSize: 200 * 1024 * 1024, fields: 10 } });

  if (existsSync(path.join(WEB_DIST, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: WEB_DIST,
      // `/` is served below: @fastify/static's index lookup misses with preCompressed.
      index: false,
      // Looked up per request, so a rebuilt or updated UI is served without a restart.
      wildcard: true,
      preCompressed: true,
      dotfiles: 'deny',
      setHeaders: (res, file) => {
        // Vite's assets carry content hashes; index.html must always be revalidated.
        res.header(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    app.get('/', (_req, reply) => reply.sendFile('index.html'));
  } else {
    app.get('/', async (_req, reply) =>
      reply.type('text/plain').send('The web UI is not built. Run `npm run build` (or `npm start`).'),
    );
  }

  const wrap = (def: RouteDef) => {
    const audited = def.audit ?? def.method !== 'GET';
    const action = `${def.method} ${def.path}`;
    return async (req: FastifyRequest, reply: FastifyReply) => {
      const ctx: RouteContext = { clientIp: req.clientIp };
      if (def.access === 'token') {
        const who = await authenticate(core, req);
        const ticket = who ? false : (def.ticket?.(req) ?? false);
        if (who) {
          ctx.sessionId = who.sessionId;
          ctx.actor = who.actor;
        } else if (ticket === true) ctx.actor = 'ticket';
        else if (ticket) return sendFailure(reply, ticket);
        else return reply.code(401).send({ ret: -1, msg: 'login expired', code: 'loginExpired' });
      }
      // The handler may name the actor (a login naming the admin account): the audit reads it from its input.
      let who: RouteContext = ctx;
      try {
        const input = routeInput(def, req, ctx);
        who = input;
        const result = await def.handler(req, reply, input);
        if (audited) core.audit.record({ clientIp: ctx.clientIp, actor: who.actor, action, ret: 0 });
        if (reply.sent) return reply;
        return result;
      } catch (err) {
        if (audited) {
          const f = err as { ret?: number; message?: string };
          core.audit.record({ clientIp: ctx.clientIp, actor: who.actor, action, ret: f.ret ?? 1, msg: f.message });
        }
        if (err instanceof ApiFailure) return sendFailure(reply, err);
        throw err;
      }
    };
  };
  const registry = new RouteRegistry(app, wrap);
  return { app, registry, listener: dual };
}
