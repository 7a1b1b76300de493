import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FilebrowserUploadMeta, filebrowserIssues, filebrowserUploadMetaSchema, isFileName } from '@lucky/shared';
import { DataStore, Upload } from '@tus/utils';
import { parseInput } from '../../../core/http/registry.js';
import { ApiFailure, fieldFailure } from '../../../core/http/reply.js';
import { type Storage, StorageError, type StorageService } from '../../../core/storage/types.js';
import { joinPath, storageFailure } from '../storageAccess.js';
import type { UploadState, UploadStates } from './state.js';

/** What the tus server sends for a refusal: our failure shape as the body. */
export interface TusRefusal {
  status_code: number;
  body: string;
}

/** An ApiFailure (or a StorageError) as a tus refusal, the JSON body the rest of the API answers. */
export function tusRefusal(err: unknown): TusRefusal {
  if (!(err instanceof ApiFailure) && !(err instanceof StorageError)) {
    const msg = `internal error: ${err instanceof Error ? err.message : String(err)}`;
    return { status_code: 500, body: JSON.stringify({ ret: 1, msg, code: 'internal' }) };
  }
  const f = err instanceof ApiFailure ? err : storageFailure(err);
  const body = { ret: f.ret, msg: f.message, ...(f.field ? { field: f.field } : {}), ...f.extra };
  return { status_code: f.status, body: JSON.stringify(body) };
}

const issue = (field: string, code: Parameters<typeof filebrowserIssues.describe>[0], params = {}, status = 400) =>
  fieldFailure({ field, code, params, msg: filebrowserIssues.describe(code, params) }, status);

export const uploadNotFound = () => tusRefusal(issue('', 'uploadNotFound', {}, 404));

/** Finished uploads remembered (HEAD answers them complete). */
const FINISHED_KEPT = 1024;

/** At most this many UTF-8 bytes of the name go into the partial file's name (255-byte file systems). */
const PART_NAME_BYTES = 160;

/** `.<name>.<id>.part`, the name cut (on a character) so the whole stays a legal file name. */
export function partName(name: string, id: string): string {
  let short = name;
  while (Buffer.byteLength(short) > PART_NAME_BYTES) short = short.slice(0, -1);
  return `.${short}.${id}.part`;
}

export interface UploadStoreOptions {
  storages: StorageService;
  states: UploadStates;
  /** Unfinished uploads are forgotten this long after their creation (the current setting). */
  expiryMs: () => number;
  now?: () => number;
}

/**
 * The tus server's DataStore over our Storage: the bytes go to a hidden partial file in the target
 * folder (written with mode `offset`, so a resumed PATCH continues in place), the bookkeeping to a
 * state file per upload. The storage is looked up per request (storage management may replace it).
 */
export class StorageUploadStore extends DataStore {
  private readonly now: () => number;
  /** Ids of uploads finished lately, with their size. */
  private readonly finished = new Map<string, number>();

  constructor(private readonly o: UploadStoreOptions) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
    this.now = o.now ?? Date.now;
  }

  /** The upload's state and its storage, or the tus refusal `uploadNotFound` / `storageUnavailable`. */
  async opened(id: string): Promise<{ state: UploadState; storage: Storage }> {
    const state = await this.o.states.load(id);
    if (!state) throw uploadNotFound();
    const storage = this.o.storages.get(state.storage);
    if (!storage) throw tusRefusal(issue('storage', 'storageUnavailable', { storage: state.storage }, 404));
    return { state, storage };
  }

  /** Checks the metadata, makes the folders of a folder upload, and an empty partial file. */
  override async create(upload: Upload): Promise<Upload> {
    try {
      const size = upload.size;
      // tus validates the header's digits; a length JavaScript cannot count exactly is refused here.
      if (size === undefined || !Number.isSafeInteger(size))
        throw fieldFailure({
          field: 'Upload-Length',
          code: 'invalid',
          params: {},
          msg: 'Upload-Length: not a safe integer',
        });
      const meta = parseInput(filebrowserUploadMetaSchema, upload.metadata ?? {}, filebrowserIssues);
      const storage = this.o.storages.get(meta.storage);
      if (!storage) throw issue('storage', 'storageUnavailable', { storage: meta.storage }, 404);
      const segments = relativeSegments(meta.relativePath);
      // A read-only storage refuses writes itself; saying so before any folder is tried is clearer.
      if (storage.readOnly) throw new StorageError('readOnly', meta.dir);
      const base = await storage.stat(meta.dir).catch((e) => {
        throw storageFailure(e, 'dir');
      });
      if (base.kind !== 'dir') throw storageFailure(new StorageError('notDir', base.path), 'dir');
      let dir = base.path;
      for (const folder of segments.slice(0, -1)) {
        dir = joinPath(dir, folder);
        await makeFolder(storage, dir);
      }
      const free = (await storage.space().catch(() => ({ free: undefined }))).free;
      if (free !== undefined && free < size) throw issue('', 'uploadTooLarge', { free, size }, 507);
      const name = segments[segments.length - 1];
      const part = joinPath(dir, partName(name, upload.id));
      const staged = !canWriteAtOffset(storage);
      if (staged) {
        await fs.mkdir(this.o.states.dir, { recursive: true, mode: 0o700 });
        await fs.writeFile(this.o.states.stagedFile(upload.id), '', { mode: 0o600 });
      } else {
        const w = await storage.write(part, { mode: 'create' });
        await new Promise<void>((resolve, reject) => {
          w.once('error', reject);
          w.end(resolve);
        });
      }
      const createdAt = this.now();
      await this.o.states.save({
        id: upload.id,
        storage: storage.key,
        dir,
        name,
        part,
        ...(staged ? { staged } : {}),
        size,
        conflict: meta.conflict,
        ...(meta.mtime !== undefined ? { mtime: meta.mtime } : {}),
        createdAt,
      });
      upload.creation_date = new Date(createdAt).toISOString();
      return upload;
    } catch (err) {
      if (isRefusal(err)) throw err;
      throw tusRefusal(err);
    }
  }

  /** Appends the PATCH body at `offset`; the new offset is the partial file's size afterwards. */
  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const { state, storage } = await this.opened(id);
    if (state.staged) return this.writeStaged(stream, id, offset);
    try {
      const w = await storage.write(state.part, { mode: 'offset', offset });
      // A copy of the chunk is not kept: the Transform only passes it on (backpressure holds).
      await pipeline(stream, new Transform({ transform: (c, _e, cb) => cb(null, c) }), w);
    } catch (err) {
      if (isRefusal(err)) throw err;
      if (err instanceof StorageError || err instanceof ApiFailure) throw tusRefusal(err);
      // The body broke off (the client went away): what reached the disk counts, HEAD reports it
      // and the client resumes from there.
      const written = await storage.stat(state.part).catch(() => undefined);
      if (written) return written.size;
      throw err;
    }
    return (await storage.stat(state.part).catch((e) => Promise.reject(tusRefusal(e)))).size;
  }

  /** A staged upload's bytes into its local file at `offset` (tus checked it is the file's size). */
  private async writeStaged(stream: Readable, id: string, offset: number): Promise<number> {
    const file = this.o.states.stagedFile(id);
    try {
      await pipeline(stream, createWriteStream(file, { flags: 'r+', start: offset }));
    } catch (err) {
      if (isRefusal(err)) throw err;
      // A broken-off body: what reached the file counts (as above).
    }
    return (await fs.stat(file)).size;
  }

  /** Copies a complete staged upload to its partial file on the storage (then it is in place as any other). */
  async unstage(state: UploadState, storage: Storage): Promise<void> {
    if (!state.staged) return;
    const file = this.o.states.stagedFile(state.id);
    const w = await storage.write(state.part, { mode: 'replace' });
    await pipeline(createReadStream(file), w);
    await fs.rm(file, { force: true });
  }

  override async getUpload(id: string): Promise<Upload> {
    // Finished a moment ago: complete (a client that lost the last answer learns it from HEAD).
    const finished = this.finished.get(id);
    if (finished !== undefined) return new Upload({ id, size: finished, offset: finished });
    const { state, storage } = await this.opened(id);
    const part = state.staged
      ? await fs.stat(this.o.states.stagedFile(id)).catch(() => undefined)
      : await storage.stat(state.part).catch(() => undefined);
    if (!part) throw uploadNotFound();
    return new Upload({
      id,
      size: state.size,
      offset: part.size,
      creation_date: new Date(state.createdAt).toISOString(),
    });
  }

  /** Whether every byte of this (still known) upload is in: its placing failed before. */
  async completeButUnplaced(id: string): Promise<boolean> {
    if (this.finished.has(id)) return false;
    const upload = await this.getUpload(id).catch(() => undefined);
    return upload !== undefined && upload.offset === upload.size;
  }

  /** Termination: the partial file and the state go. */
  override async remove(id: string): Promise<void> {
    const state = await this.o.states.load(id);
    if (!state) throw uploadNotFound();
    await this.forget(state);
  }

  /** Removes the partial file (when its storage is there) and the state. */
  async forget(state: UploadState): Promise<void> {
    const storage = this.o.storages.get(state.storage);
    await storage?.delete(state.part).catch(() => undefined);
    if (state.staged) await fs.rm(this.o.states.stagedFile(state.id), { force: true });
    await this.o.states.remove(state.id);
  }

  /** The upload is finished: its state goes (the partial file was moved or removed). */
  async markFinished(state: UploadState): Promise<void> {
    this.finished.set(state.id, state.size);
    // Remembered in memory only, the newest few: enough for the answer that follows and a retry.
    if (this.finished.size > FINISHED_KEPT) this.finished.delete(this.finished.keys().next().value as string);
    await this.o.states.remove(state.id);
  }

  override getExpiration(): number {
    return this.o.expiryMs();
  }

  /** Removes the uploads created more than the expiry ago; answers how many. */
  override async deleteExpired(now = this.now()): Promise<number> {
    let count = 0;
    for (const id of await this.o.states.ids()) {
      const state = await this.o.states.load(id);
      if (!state || state.createdAt + this.getExpiration() > now) continue;
      await this.forget(state);
      count++;
    }
    return count;
  }
}

/**
 * Whether a PATCH can go straight into the partial file on the storage. A remote WebDAV server
 * has no partial PUT we can count on, so its uploads are gathered locally first.
 */
function canWriteAtOffset(storage: Storage): boolean {
  return storage.kind === 'local';
}

/** A folder upload's folders and the file's name, each checked as one name (NFC). */
function relativeSegments(relativePath: string): string[] {
  const segments = relativePath.split('/').map((s) => s.normalize('NFC'));
  if (!segments.every(isFileName)) throw issue('relativePath', 'nameInvalid');
  return segments;
}

/** Makes a folder of a folder upload; one that is there already is fine (another file made it). */
async function makeFolder(storage: Storage, dir: string): Promise<void> {
  try {
    await storage.mkdir(dir);
  } catch (err) {
    if (!(err instanceof StorageError && err.code === 'exists')) throw storageFailure(err, 'relativePath');
    const there = await storage.stat(dir);
    if (there.kind !== 'dir') throw storageFailure(new StorageError('notDir', dir), 'relativePath');
  }
}

export function isRefusal(err: unknown): err is TusRefusal {
  return typeof err === 'object' && err !== null && 'status_code' in err && 'body' in err;
}

export type { FilebrowserUploadMeta };
