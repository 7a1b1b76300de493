import { promises as fs } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  FILEBROWSER_LIMITS,
  type FilebrowserBatchResponse,
  type FilebrowserConfig,
  type FilebrowserEntry,
  type FilebrowserExistsResponse,
  type FilebrowserItemResult,
  type FilebrowserListResponse,
  type FilebrowserTextResponse,
  type FilebrowserTicketResponse,
  filebrowserDeleteBodySchema,
  filebrowserExistsBodySchema,
  filebrowserFileQuerySchema,
  filebrowserIssues,
  filebrowserListQuerySchema,
  filebrowserMkdirBodySchema,
  filebrowserRenameBodySchema,
  filebrowserTextBodySchema,
  filebrowserThumbQuerySchema,
  filebrowserTicketBodySchema,
  filebrowserTransferBodySchema,
  filebrowserZipQuerySchema,
} from '@lucky/shared';
import type { FastifyRequest } from 'fastify';
import type { Routes } from '../../../core/http/registry.js';
import { ApiFailure, fieldFailure } from '../../../core/http/reply.js';
import type { ModuleApi } from '../../../core/modules/types.js';
import { baseName, checkPath, parentOf } from '../../../core/storage/paths.js';
import { type Storage, type StorageEntry, StorageError } from '../../../core/storage/types.js';
import { clientGone, contentDisposition, FILE_SAFETY_HEADERS, sendFile } from '../download.js';
import { fileTypeOf } from '../fileTypes.js';
import type { FilebrowserRuntime } from '../runtime.js';
import { joinPath, onStorage, runningModule, storageFailure, storageOf } from '../storageAccess.js';
import { ThumbnailError } from '../thumbnails.js';
import { itemFailure, namesIn, transferOne } from '../transfer.js';
import { inTrash, moveToTrash } from '../trash.js';
import { zipStream } from '../zip.js';

/**
 * Body limits of the calls that carry many names or a file's text (the app's 1 MiB is for
 * settings): 10,000 names of up to 255 characters, a text of 2 MiB characters, as JSON.
 */
const BATCH_BODY_BYTES = 16 * 1024 * 1024;
const TEXT_BODY_BYTES = FILEBROWSER_LIMITS.editBytes.max * 6 + 64 * 1024;

const view = (e: StorageEntry): FilebrowserEntry => ({
  name: e.name,
  kind: e.kind,
  size: e.size,
  mtimeMs: e.mtimeMs,
  type: fileTypeOf(e.name, e.kind),
  etag: e.etag,
});

const coded = (code: 'notAnImage' | 'thumbnailsOff', params: Record<string, unknown>, status: number) =>
  fieldFailure({ field: 'path', code, params, msg: filebrowserIssues.describe(code, params) }, status);

/** A folder's entry, or `notDir`. */
async function folder(storage: Storage, path: string): Promise<StorageEntry> {
  const e = await storage.stat(path);
  if (e.kind !== 'dir') throw new StorageError('notDir', e.path);
  return e;
}

/** A write route on a read-only storage: refused whole, before anything is looked at. */
function writable(storage: Storage, path: string): void {
  if (storage.readOnly) throw storageFailure(new StorageError('readOnly', path));
}

async function writeText(storage: Storage, path: string, content: string, mode: 'create' | 'replace') {
  const out = await storage.write(path, { mode });
  await pipeline(Readable.from([Buffer.from(content, 'utf8')]), out);
}

/**
 * Browsing and changing files: list, read (with a ticket for links without headers), thumbnails,
 * zip downloads, new folder / text file, save, rename, move / copy, delete (to the trash when on),
 * and which names are taken.
 */
export function registerBrowseRoutes(r: Routes, api: ModuleApi<FilebrowserConfig>): void {
  const live = () => api.runtime() as FilebrowserRuntime | undefined;
  /**
   * `?storage&ticket` of a request without a valid token: a ticket issued for that storage lets
   * it in; one that is not (expired, forged, of another storage or another run) is `ticketInvalid`,
   * with ret -1 as a missing token.
   */
  const ticketed = (req: FastifyRequest): boolean | ApiFailure => {
    const q = (req.query ?? {}) as Record<string, unknown>;
    if (typeof q.ticket !== 'string') return false;
    const rt = live();
    if (rt && typeof q.storage === 'string' && rt.tickets.valid(q.ticket, q.storage)) return true;
    return new ApiFailure(401, -1, filebrowserIssues.describe('ticketInvalid'), undefined, {
      code: 'ticketInvalid',
      params: {},
    });
  };
  const storageName = (key: string) => api.storages.list().find((s) => s.key === key)?.name ?? key;

  r.add({
    method: 'GET',
    path: '/api/filebrowser/list',
    access: 'token',
    summary: 'File manager: a folder’s entries (unsorted), its own entry and whether the storage is read-only',
    query: filebrowserListQuerySchema,
    handler: async (_req, _reply, { query }): Promise<FilebrowserListResponse> => {
      runningModule(api);
      const storage = storageOf(api, query.storage);
      return onStorage(async () => {
        const dir = await folder(storage, query.path);
        const entries = await storage.list(dir.path);
        return {
          ret: 0,
          storage: storage.key,
          path: dir.path,
          readOnly: storage.readOnly,
          entry: view(dir),
          entries: entries.map(view),
        };
      });
    },
  });

  r.add({
    method: 'POST',
    path: '/api/filebrowser/ticket',
    access: 'token',
    audit: false,
    summary: 'File manager: a read ticket for one storage (an hour), for links that send no Authorization header',
    body: filebrowserTicketBodySchema,
    handler: (_req, _reply, { body }): FilebrowserTicketResponse => {
      const rt = runningModule(api);
      storageOf(api, body.storage);
      return { ret: 0, ...rt.tickets.issue(body.storage) };
    },
  });

  r.add({
    method: 'GET',
    path: '/api/filebrowser/file',
    access: 'token',
    ticket: ticketed,
    raw: true,
    summary: 'File manager: a file’s bytes (ranges, ETag, conditional GET); token or read ticket',
    query: filebrowserFileQuerySchema,
    handler: async (req, reply, { query }) => {
      runningModule(api);
      const storage = storageOf(api, query.storage);
      const entry = await onStorage(() => storage.stat(query.path));
      if (entry.kind === 'dir') throw storageFailure(new StorageError('isDir', entry.path));
      return sendFile(req, reply, storage, entry, query.download === '1');
    },
  });

  r.add({
    method: 'GET',
    path: '/api/filebrowser/thumb',
    access: 'token',
    ticket: ticketed,
    raw: true,
    summary: 'File manager: an image’s thumbnail (WebP, made on first ask, cached); token or read ticket',
    query: filebrowserThumbQuerySchema,
    handler: async (req, reply, { query }) => {
      const rt = runningModule(api);
      if (!rt.config.thumbnails) throw coded('thumbnailsOff', {}, 409);
      const storage = storageOf(api, query.storage);
      const entry = await onStorage(() => storage.stat(query.path));
      // SVG is left out: rendering a stranger's SVG means running librsvg over it for an icon.
      if (entry.kind !== 'file' || fileTypeOf(entry.name, 'file') !== 'image' || /\.svgz?$/i.test(entry.name))
        throw coded('notAnImage', { path: entry.path }, 415);
      const signal = clientGone(reply);
      let thumb: { file: string };
      try {
        thumb = await rt.thumbnails.get(storage, entry, query.size, signal);
      } catch (err) {
        if (err instanceof ThumbnailError && err.why === 'aborted') return reply;
        if (err instanceof StorageError) throw storageFailure(err);
        const detail = (err as Error).message;
        rt.line(3, 'thumbnailFailed', { storage: storage.key, path: entry.path, detail });
        throw coded('notAnImage', { path: entry.path }, 415);
      }
      const etag = `"t${query.size}-${entry.etag.replace(/"/g, '')}"`;
      const headers = { ...FILE_SAFETY_HEADERS, etag, 'cache-control': 'private, no-cache' };
      if (req.headers['if-none-match'] === etag) return reply.code(304).headers(headers).send();
      const data = await fs.readFile(thumb.file);
      return reply.headers({ ...headers, 'content-type': 'image/webp' }).send(data);
    },
  });

  r.add({
    method: 'GET',
    path: '/api/filebrowser/zip',
    access: 'token',
    ticket: ticketed,
    raw: true,
    summary: 'File manager: entries of a folder (all without `name`) as a streamed zip; token or read ticket',
    query: filebrowserZipQuerySchema,
    handler: async (req, reply, { query }) => {
      runningModule(api);
      const storage = storageOf(api, query.storage);
      const { dir, entries } = await onStorage(async () => {
        const d = await folder(storage, query.dir);
        const list =
          query.name.length === 0
            ? (await storage.list(d.path)).sort((a, b) => (a.name < b.name ? -1 : 1))
            : await Promise.all(query.name.map((n) => storage.stat(joinPath(d.path, n))));
        return { dir: d, entries: list };
      }, 'dir');
      const base = query.name.length === 1 ? query.name[0] : dir.path === '/' ? storageName(storage.key) : dir.name;
      return (
        reply
          .headers({
            ...FILE_SAFETY_HEADERS,
            'content-type': 'application/zip',
            'content-disposition': contentDisposition('attachment', `${base}.zip`),
            'cache-control': 'no-store',
          })
          // A HEAD gets the headers only: the archive is not walked and read to be thrown away.
          .send(req.method === 'HEAD' ? Readable.from([]) : zipStream(storage, entries, clientGone(reply)))
      );
    },
  });

  r.add({
    method: 'POST',
    path: '/api/filebrowser/mkdir',
    access: 'token',
    summary: 'File manager: a new folder',
    body: filebrowserMkdirBodySchema,
    handler: async (_req, _reply, { body }) => {
      runningModule(api);
      const storage = storageOf(api, body.storage);
      writable(storage, body.dir);
      return onStorage(async () => {
        const p = joinPath(checkPath(body.dir), body.name);
        await storage.mkdir(p);
        return { ret: 0, entry: view(await storage.stat(p)) };
      });
    },
  });

  r.add({
    method: 'POST',
    path: '/api/filebrowser/text',
    access: 'token',
    bodyLimit: TEXT_BODY_BYTES,
    summary:
      'File manager: a new text file (create) or the editor’s save (replace; `etag` → changedOnDisk when it changed)',
    body: filebrowserTextBodySchema,
    handler: async (_req, _reply, { body }): Promise<FilebrowserTextResponse> => {
      const rt = runningModule(api);
      const storage = storageOf(api, body.storage);
      writable(storage, body.path);
      const p = await onStorage(async () => checkPath(body.path));
      if (body.mode === 'create' && p === '/') throw storageFailure(new StorageError('badPath', p, 'root'));
      const name = baseName(p);
      if (name.length > FILEBROWSER_LIMITS.name.max)
        throw storageFailure(new StorageError('badPath', p, 'nameTooLong'));
      if (body.mode === 'replace' && body.etag !== undefined) {
        const now = await onStorage(() => storage.stat(p));
        if (now.etag !== body.etag)
          throw fieldFailure(
            { field: 'etag', code: 'changedOnDisk', params: {}, msg: filebrowserIssues.describe('changedOnDisk') },
            409,
          );
      }
      const bytes = Buffer.byteLength(body.content, 'utf8');
      const entry = await onStorage(async () => {
        await writeText(storage, p, body.content, body.mode);
        return storage.stat(p);
      });
      rt.line(4, 'saved', { storage: storage.key, path: p, bytes });
      return { ret: 0, entry: view(entry) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/filebrowser/rename',
    access: 'token',
    summary: 'File manager: rename a file or folder in its folder',
    body: filebrowserRenameBodySchema,
    handler: async (_req, _reply, { body }) => {
      const rt = runningModule(api);
      const storage = storageOf(api, body.storage);
      writable(storage, body.path);
      const from = await onStorage(async () => checkPath(body.path));
      if (from === '/') throw storageFailure(new StorageError('badPath', from, 'root'));
      const entry = await onStorage(async () => {
        const to = joinPath(parentOf(from), body.name);
        if (to !== from) await storage.move(from, to, { overwrite: false });
        return storage.stat(to);
      });
      rt.line(4, 'renamed', { storage: storage.key, path: from, name: body.name });
      return { ret: 0, entry: view(entry) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/filebrowser/transfer',
    access: 'token',
    bodyLimit: BATCH_BODY_BYTES,
    summary: 'File manager: move or copy entries of a folder into another, on the same or another storage',
    body: filebrowserTransferBodySchema,
    handler: async (_req, _reply, { body }): Promise<FilebrowserBatchResponse> => {
      const rt = runningModule(api);
      const from = storageOf(api, body.from.storage, 'from.storage');
      const to = storageOf(api, body.to.storage, 'to.storage');
      writable(to, body.to.dir);
      if (body.op === 'move') writable(from, body.from.dir);
      const [srcDir, dstDir] = await onStorage(
        async () => [(await folder(from, body.from.dir)).path, (await folder(to, body.to.dir)).path] as const,
      );
      const taken = await onStorage(() => namesIn(to, dstDir), 'to.dir');
      const results: FilebrowserItemResult[] = [];
      for (const name of body.from.names) {
        let src: StorageEntry;
        try {
          src = await from.stat(joinPath(srcDir, name));
        } catch (err) {
          results.push(itemFailure(name, err));
          continue;
        }
        const { to: landed, ...result } = await transferOne({
          op: body.op,
          from,
          src,
          to,
          dir: dstDir,
          conflict: body.conflict,
          taken,
        });
        results.push(result);
        if (result.result === 'done' && landed)
          rt.line(4, body.op === 'move' ? 'moved' : 'copied', {
            from: `${from.key}:${src.path}`,
            to: `${to.key}:${landed}`,
          });
      }
      return { ret: 0, results };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/filebrowser/delete',
    access: 'token',
    bodyLimit: BATCH_BODY_BYTES,
    summary:
      'File manager: delete entries of a folder (to the storage’s .trash when the trash is on, unless permanent)',
    body: filebrowserDeleteBodySchema,
    handler: async (_req, _reply, { body }): Promise<FilebrowserBatchResponse> => {
      const rt = runningModule(api);
      const storage = storageOf(api, body.storage);
      writable(storage, body.dir);
      const dir = await onStorage(async () => (await folder(storage, body.dir)).path, 'dir');
      const toTrash = rt.config.trash && !body.permanent;
      const results: FilebrowserItemResult[] = [];
      for (const name of body.names) {
        const p = joinPath(dir, name);
        try {
          const e = await storage.stat(p);
          if (toTrash && !inTrash(e.path)) {
            const as = await moveToTrash(storage, e.path, e.name, e.kind);
            rt.line(4, 'trashed', { storage: storage.key, path: e.path });
            results.push({ name, result: 'done', as });
          } else {
            await storage.delete(e.path);
            rt.line(4, 'deleted', { storage: storage.key, path: e.path });
            results.push({ name, result: 'done' });
          }
        } catch (err) {
          results.push(itemFailure(name, err));
        }
      }
      return { ret: 0, results };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/filebrowser/exists',
    access: 'token',
    audit: false,
    bodyLimit: BATCH_BODY_BYTES,
    summary: 'File manager: which of these names are taken in a folder (before an upload or a paste)',
    body: filebrowserExistsBodySchema,
    handler: async (_req, _reply, { body }): Promise<FilebrowserExistsResponse> => {
      runningModule(api);
      const storage = storageOf(api, body.storage);
      const taken = await onStorage(async () => namesIn(storage, checkPath(body.dir)), 'dir');
      return { ret: 0, existing: body.names.filter((n) => taken.has(n.normalize('NFC'))) };
    },
  });
}
