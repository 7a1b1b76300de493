import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { FilebrowserLogCode, LogLevel } from '@lucky/shared';
import { Server } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { StorageError, type StorageErrorCode, type StorageService } from '../../../core/storage/types.js';
import { putInPlace } from './finish.js';
import { UploadStates } from './state.js';
import { isRefusal, StorageUploadStore, tusRefusal } from './store.js';

/** Failures putting a complete upload in place that a retry would meet again. */
const FINAL = new Set<StorageErrorCode>(['isDir', 'exists', 'notDir', 'conflict', 'badPath', 'readOnly', 'denied']);

/** Where tus is served (the routes register the same paths). */
export const UPLOADS_PATH = '/api/filebrowser/uploads';

/** Limits the tests shorten. */
export interface UploadTuning {
  /**
   * An upload body must bring `minBytes` in every `windowMs` or its connection is cut: node's own
   * time-outs are for inactivity (a byte a second keeps them off) or the whole request (300 s,
   * which a large upload on a slow link needs to exceed).
   */
  windowMs: number;
  minBytes: number;
  /** How often unfinished uploads past the expiry are looked for. */
  sweepEveryMs: number;
}

export const DEFAULT_UPLOAD_TUNING: UploadTuning = { windowMs: 30_000, minBytes: 16 * 1024, sweepEveryMs: 10 * 60_000 };

export interface UploadServiceOptions {
  storages: StorageService;
  configDir: string;
  expiryHours: () => number;
  line: (level: LogLevel, code: FilebrowserLogCode, params: Record<string, unknown>) => void;
}

/**
 * Resumable uploads: tus 1.0.0 (creation, termination, expiration) by @tus/server over our Storage.
 * The admin routes check the token, then hand the raw request and response to the tus server.
 */
export class UploadService {
  readonly store: StorageUploadStore;
  readonly tuning: UploadTuning = { ...DEFAULT_UPLOAD_TUNING };
  private readonly server: Server;
  /** The console's path prefix (security entrance) of each request, for the Location it answers. */
  private readonly prefixes = new WeakMap<IncomingMessage, string>();

  constructor(private readonly o: UploadServiceOptions) {
    this.store = new StorageUploadStore({
      storages: o.storages,
      states: new UploadStates(path.join(o.configDir, 'filebrowser', 'uploads')),
      expiryMs: () => o.expiryHours() * 3_600_000,
    });
    this.server = new Server({
      path: UPLOADS_PATH,
      datastore: this.store,
      // The console is one origin: no CORS answers (tus' default would allow every origin).
      allowedOrigins: () => false,
      // A path, not a URL: right behind a reverse proxy and under the security entrance.
      generateUrl: (req, { id }) => {
        const raw = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
        return `${(raw && this.prefixes.get(raw)) ?? ''}${UPLOADS_PATH}/${id}`;
      },
      onUploadFinish: async (_req, upload) => this.finish(upload.id),
      // A complete upload whose placing failed (the storage was away) is placed when the client
      // asks where it stands: tus-js-client takes offset = length for done and sends no PATCH.
      onIncomingRequest: async (req, id) => {
        if (req.method === 'HEAD' && (await this.store.completeButUnplaced(id))) await this.finish(id);
      },
      onResponseError: (_req, err) => {
        // tus' own refusals (409 offset, 412, 404 …) keep their answer; ours are already shaped.
        if (isRefusal(err)) return undefined;
        return tusRefusal(err);
      },
    });
  }

  /** Answers one tus request (the token was checked by the route). */
  async handle(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const original = req.originalUrl ?? req.url;
    const prefix = original.endsWith(req.url) ? original.slice(0, original.length - req.url.length) : '';
    this.prefixes.set(req.raw, prefix);
    reply.hijack();
    reply.raw.setHeader('x-content-type-options', 'nosniff');
    reply.raw.setHeader('cache-control', 'no-store');
    const stopGuard = req.method === 'PATCH' || req.method === 'POST' ? this.guardRate(req) : () => undefined;
    try {
      await this.server.handle(req.raw, reply.raw);
    } finally {
      stopGuard();
    }
  }

  /** Cuts the connection of a body that brings less than `minBytes` in a `windowMs` (a trickle). */
  private guardRate(req: FastifyRequest): () => void {
    const socket = req.raw.socket;
    let seen = socket.bytesRead;
    const timer = setInterval(() => {
      const now = socket.bytesRead;
      if (now - seen < this.tuning.minBytes) socket.destroy();
      seen = now;
    }, this.tuning.windowMs);
    timer.unref();
    const stop = () => clearInterval(timer);
    req.raw.once('close', stop);
    return stop;
  }

  /** The last byte is in: the file goes in place, the log says so, the client reads the outcome in headers. */
  private async finish(id: string) {
    const { state, storage } = await this.store.opened(id);
    try {
      await this.store.unstage(state, storage);
      const done = await putInPlace(storage, state);
      await this.store.markFinished(state);
      if (done.result === 'done')
        this.o.line(4, 'uploaded', { storage: state.storage, path: done.path, bytes: state.size });
      // The status stays tus' own (201 for a creation that carried the whole file, else 204).
      return {
        headers: { 'Upload-Result': done.result, 'Upload-Path': encodeURIComponent(done.path) },
      };
    } catch (err) {
      // A refusal that no retry changes (a folder in the way): the upload is dropped, not left
      // complete and stuck; a storage that is away keeps it for the client's retry.
      if (err instanceof StorageError && FINAL.has(err.code)) await this.store.forget(state);
      throw tusRefusal(err);
    }
  }

  /** Removes the unfinished uploads past the expiry; logs how many. */
  async sweep(now?: number): Promise<number> {
    const count = await this.store.deleteExpired(now);
    if (count > 0) this.o.line(4, 'uploadsExpired', { count });
    return count;
  }
}
