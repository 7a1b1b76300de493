// The public side of share links, on the console's own listener without an admin login:
//
//   GET  /s/<id>                 the page: a file (name, size, download, image preview) or a folder
//   GET  /s/<id>/<sub/path>/     a folder below a shared folder
//   GET  /s/<id>/dl/<path>       the bytes (ranges, ETag)
//   GET  /s/<id>/zip[/<path>]    a folder as a streamed zip
//   POST /s/<id>                 the password form
//
// The module declares `/s/` a public path (index.ts publicPaths): it skips the security entrance and,
// with sharesOutsideLan, the LAN-only gate; the Host / Origin checks still hold. Paths inside the
// link are decoded once by the storage's rules (`..`, encoded separators, bad UTF-8 → 400) and
// appended to the shared path, so a request can only name what lies below it. Unknown, disabled,
// expired, exhausted and removed links all get one and the same 404 page.
import { timingSafeEqual } from 'node:crypto';
import type { FilebrowserConfig, FilebrowserShare } from '@lucky/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Routes } from '../../../core/http/registry.js';
import type { ModuleApi } from '../../../core/modules/types.js';
import { baseName, checkPath, decodeUrlPath, isWithin, parentOf } from '../../../core/storage/paths.js';
import { type Storage, type StorageEntry, StorageError } from '../../../core/storage/types.js';
import { clientGone, contentDisposition, FILE_SAFETY_HEADERS, sendFile } from '../download.js';
import { fileTypeOf } from '../fileTypes.js';
import type { FilebrowserRuntime } from '../runtime.js';
import { zipStream } from '../zip.js';
import {
  badRequestPage,
  filePage,
  folderPage,
  notFoundPage,
  PAGE_CSP,
  type PageLang,
  pageLang,
  passwordPage,
  word,
} from './page.js';
import { COOKIE_MS, COOKIE_NAME, type ShareService } from './service.js';
import { shareStateOf } from './view.js';

/** A path inside the share as URL segments (each name percent-encoded). */
const encodePath = (p: string): string =>
  p
    .split('/')
    .filter(Boolean)
    .map((s) => encodeURIComponent(s))
    .join('/');

/** The share with this id, compared in constant time against every stored id. */
function shareById(shares: readonly FilebrowserShare[], id: string): FilebrowserShare | undefined {
  const given = Buffer.from(id);
  let found: FilebrowserShare | undefined;
  for (const s of shares) {
    const have = Buffer.from(s.id);
    if (have.length === given.length && timingSafeEqual(have, given)) found = s;
  }
  return found;
}

/** Every value of our cookie in the Cookie header (the browser sends only this link's, by Path). */
function cookieValues(header: string | undefined): string[] {
  const out: string[] = [];
  for (const part of String(header ?? '')
    .slice(0, 8192)
    .split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE_NAME) out.push(part.slice(eq + 1).trim());
  }
  return out;
}

interface Ctx {
  req: FastifyRequest;
  reply: FastifyReply;
  lang: PageLang;
  ip: string;
}

const page = (c: Ctx, status: number, html: string): FastifyReply =>
  c.reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex, nofollow')
    .send(html);

const notFound = (c: Ctx) => page(c, 404, notFoundPage(c.lang));
const badRequest = (c: Ctx) => page(c, 400, badRequestPage(c.lang));

/** A storage failure as the link answers it: a bad path is the client's, anything else looks like no link. */
const failed = (c: Ctx, err: unknown) => {
  if (err instanceof StorageError) return err.code === 'badPath' ? badRequest(c) : notFound(c);
  throw err;
};

export function registerPublicShareRoutes(r: Routes, api: ModuleApi<FilebrowserConfig>): void {
  for (const method of ['GET', 'POST'] as const)
    r.add({
      method,
      path: '/s/*',
      access: 'public',
      raw: true,
      audit: false,
      summary:
        method === 'GET'
          ? 'Share link (no login): the page, a sub-folder, /dl/<path> bytes with ranges, /zip[/<path>] a streamed zip'
          : 'Share link (no login): the password form; a right one sets a cookie for this link',
      handler: async (req, reply, input) => {
        const c: Ctx = { req, reply, lang: pageLang(req.headers['accept-language']), ip: input.clientIp };
        const rt = api.runtime() as FilebrowserRuntime | undefined;
        if (!rt?.config) return notFound(c);
        try {
          return await serve(api, rt, c, method);
        } catch (err) {
          if (reply.sent) throw err;
          return failed(c, err);
        }
      },
    });
}

async function serve(
  api: ModuleApi<FilebrowserConfig>,
  rt: FilebrowserRuntime,
  c: Ctx,
  method: 'GET' | 'POST',
): Promise<FastifyReply> {
  // The URL as sent (not decoded; after the entrance's rewrite when it came under the entrance).
  const rawPath = c.req.url.split('?')[0];
  const rest = rawPath.slice('/s/'.length);
  const slash = rest.indexOf('/');
  const id = slash < 0 ? rest : rest.slice(0, slash);
  const tail = slash < 0 ? '' : rest.slice(slash);
  const share = shareById(rt.config.shares, id);
  if (!share) return notFound(c);
  const svc = rt.shares;
  await svc.state.load();
  if (shareStateOf(share, svc.state.get(share.key)) !== 'active') return notFound(c);
  const storage = api.storages.get(share.storage);
  if (!storage) return notFound(c);
  const base = `/s/${share.id}`;

  if (method === 'POST') {
    if (!share.password) return c.reply.redirect(base, 303);
    return passwordPost(rt, svc, c, share, base);
  }
  if (share.password && !cookieValues(c.req.headers.cookie).some((v) => svc.cookieValid(share, v)))
    return page(c, 401, passwordPage(c.lang, base));

  // What the tail asks for: `/dl/…`, `/zip[/…]`, or a folder below the share.
  let action: 'page' | 'dl' | 'zip' = 'page';
  let subRaw = tail || '/';
  if (tail === '/dl' || tail.startsWith('/dl/')) {
    action = 'dl';
    subRaw = tail.slice(3) || '/';
  } else if (tail === '/zip' || tail.startsWith('/zip/')) {
    action = 'zip';
    subRaw = tail.slice(4) || '/';
  }
  let sub: string;
  let target: string;
  try {
    sub = decodeUrlPath(subRaw);
    target = sub === '/' ? share.path : checkPath(`${share.path}/${sub}`);
  } catch (err) {
    return failed(c, err);
  }
  // By construction (no `..` survives the decode); checked anyway.
  if (!isWithin(share.path, target)) return badRequest(c);

  if (share.kind === 'file') {
    // A file link: its page, and its bytes under its own name (or none).
    if (action === 'zip') return notFound(c);
    if (action === 'dl' && sub !== '/' && sub !== `/${baseName(share.path)}`) return notFound(c);
    if (action === 'page' && sub !== '/') return notFound(c);
    const entry = await storage.stat(share.path);
    if (entry.kind !== 'file') return notFound(c);
    if (action === 'dl') return download(rt, svc, c, share, storage, entry);
    svc.state.touch(share.key);
    rt.line(4, 'shareOpened', { client: c.ip, storage: share.storage, path: share.path });
    const dl = `${base}/dl/${encodeURIComponent(entry.name)}`;
    const image = fileTypeOf(entry.name, 'file') === 'image';
    return page(
      c,
      200,
      filePage(c.lang, {
        name: entry.name,
        size: entry.size,
        mtimeMs: entry.mtimeMs,
        download: dl,
        // A preview is a download too: shown only when the link counts no downloads.
        preview: image && share.maxDownloads === 0 ? `${dl}?inline=1` : undefined,
        expiresAt: share.expiresAt,
      }),
    );
  }

  const entry = await storage.stat(target);
  if (action === 'dl') {
    if (entry.kind !== 'file') return notFound(c);
    return download(rt, svc, c, share, storage, entry);
  }
  if (entry.kind !== 'dir') return notFound(c);
  if (action === 'zip') return zip(rt, svc, c, share, storage, entry, sub);
  return folder(rt, svc, c, share, storage, entry, sub, base);
}

async function download(
  rt: FilebrowserRuntime,
  svc: ShareService,
  c: Ctx,
  share: FilebrowserShare,
  storage: Storage,
  entry: StorageEntry,
): Promise<FastifyReply> {
  svc.state.touch(share.key);
  const inline = (c.req.query as Record<string, unknown>)?.inline === '1';
  return sendFile(c.req, c.reply, storage, entry, !inline, () => {
    svc.state.counted(share.key);
    rt.line(4, 'shareDownload', { client: c.ip, path: entry.path, storage: share.storage, share: share.path });
  });
}

async function zip(
  rt: FilebrowserRuntime,
  svc: ShareService,
  c: Ctx,
  share: FilebrowserShare,
  storage: Storage,
  entry: StorageEntry,
  sub: string,
): Promise<FastifyReply> {
  svc.state.touch(share.key);
  const signal = clientGone(c.reply);
  const name = `${entry.name || share.storage}.zip`;
  // The folder's content at the archive's top.
  const children = await storage.list(entry.path, { signal });
  const stream = zipStream(storage, children, signal, (complete) => {
    if (!complete) return;
    svc.state.counted(share.key);
    rt.line(4, 'shareDownload', {
      client: c.ip,
      path: sub === '/' ? share.path : entry.path,
      storage: share.storage,
      share: share.path,
    });
  });
  return c.reply
    .header('content-type', 'application/zip')
    .header('content-disposition', contentDisposition('attachment', name))
    .header('cache-control', 'no-store')
    .headers(FILE_SAFETY_HEADERS)
    .send(stream);
}

async function folder(
  rt: FilebrowserRuntime,
  svc: ShareService,
  c: Ctx,
  share: FilebrowserShare,
  storage: Storage,
  entry: StorageEntry,
  sub: string,
  base: string,
): Promise<FastifyReply> {
  const list = await storage.list(entry.path);
  list.sort((a, b) =>
    a.kind !== b.kind ? (a.kind === 'dir' ? -1 : 1) : a.name.localeCompare(b.name, undefined, { numeric: true }),
  );
  svc.state.touch(share.key);
  if (sub === '/') rt.line(4, 'shareOpened', { client: c.ip, storage: share.storage, path: share.path });
  const rel = (name: string) => encodePath(`${sub}/${name}`);
  const top = baseName(share.path) || share.storage;
  return page(
    c,
    200,
    folderPage(c.lang, {
      title: sub === '/' ? top : baseName(sub),
      where: sub === '/' ? `${top}/` : `${top}${sub}/`,
      up: sub === '/' ? undefined : parentOf(sub) === '/' ? `${base}/` : `${base}/${encodePath(parentOf(sub))}/`,
      zip: sub === '/' ? `${base}/zip` : `${base}/zip/${encodePath(sub)}`,
      rows: list.map((e) => ({
        name: e.name,
        kind: e.kind,
        size: e.size,
        mtimeMs: e.mtimeMs,
        href: e.kind === 'dir' ? `${base}/${rel(e.name)}/` : `${base}/dl/${rel(e.name)}`,
      })),
      expiresAt: share.expiresAt,
    }),
  );
}

async function passwordPost(
  rt: FilebrowserRuntime,
  svc: ShareService,
  c: Ctx,
  share: FilebrowserShare,
  base: string,
): Promise<FastifyReply> {
  const body = c.req.body as Record<string, unknown> | undefined;
  const given = typeof body?.password === 'string' ? body.password : '';
  if (given === '' || given.length > 128) return page(c, 401, passwordPage(c.lang, base, word(c.lang, 'wrong')));
  const admitted = svc.throttle.admit(c.ip, share.key);
  if (!admitted.ok) {
    const minutes = Math.max(1, Math.ceil(admitted.retryAfterMs / 60_000));
    const text = admitted.reason === 'busy' ? word(c.lang, 'busy') : word(c.lang, 'locked', { minutes });
    c.reply.header('retry-after', String(Math.ceil(admitted.retryAfterMs / 1000)));
    return page(c, 429, passwordPage(c.lang, base, text));
  }
  let good: boolean | 'busy';
  try {
    good = await rt.ctx.auth.verifyGated(c.ip, given, share.password);
  } catch (err) {
    svc.throttle.settle(c.ip, share.key, 'refund');
    throw err;
  }
  if (good === 'busy') {
    svc.throttle.settle(c.ip, share.key, 'refund');
    c.reply.header('retry-after', '1');
    return page(c, 503, passwordPage(c.lang, base, word(c.lang, 'busy')));
  }
  if (!good) {
    const { lockedMs } = svc.throttle.settle(c.ip, share.key, 'failure');
    // Auto-ban counts wrong share passwords with every other service's failed sign-ins.
    rt.ctx.safe.failure(c.ip);
    rt.line(3, 'sharePasswordWrong', { client: c.ip, storage: share.storage, path: share.path });
    if (lockedMs > 0) rt.line(3, 'sharePasswordLocked', { client: c.ip, seconds: Math.ceil(lockedMs / 1000) });
    return page(c, 401, passwordPage(c.lang, base, word(c.lang, 'wrong')));
  }
  svc.throttle.settle(c.ip, share.key, 'success');
  const secure = (c.req.raw.socket as { encrypted?: boolean }).encrypted === true ? '; Secure' : '';
  c.reply.header(
    'set-cookie',
    `${COOKIE_NAME}=${svc.cookieFor(share)}; Path=${base}; HttpOnly; SameSite=Lax; Max-Age=${COOKIE_MS / 1000}${secure}`,
  );
  return c.reply.header('cache-control', 'no-store').redirect(base, 303);
}
