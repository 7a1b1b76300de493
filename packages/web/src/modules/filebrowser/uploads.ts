// The upload queue: every file goes up over tus (tus-js-client) to /api/filebrowser/uploads, a few
// at a time, with its progress and speed. A dropped connection is retried by the client on its own
// schedule and continues from the server's offset; a page reload finds the upload again through
// the client's URL storage (the fingerprint names storage, folder and path, so the same file sent
// to two folders is two uploads). A small external store, so the panel re-renders on its own.
import type { ConflictPolicy, FilebrowserUploadMeta } from '@lucky/shared';
import { useSyncExternalStore } from 'react';
import { DetailedError, Upload, type UploadOptions } from 'tus-js-client';
import { getItem } from '../../api/storage';
import { uploadEndpoint } from './api';

export type UploadState = 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled';

export interface UploadItem {
  id: number;
  storage: string;
  dir: string;
  relativePath: string;
  size: number;
  sent: number;
  /** Bytes per second over the last few seconds. */
  speed: number;
  state: UploadState;
  /** A coded failure of the server, or the transport's words. */
  error?: { code?: string; params?: Record<string, unknown>; text: string };
}

export interface UploadRequest {
  file: File;
  storage: string;
  dir: string;
  relativePath: string;
  conflict: ConflictPolicy;
}

/** Files sent at once (each is one connection; the browser allows six per host). */
const PARALLEL = 3;
/** The client's retry schedule after a dropped connection (then the item fails, retry is by hand). */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000];

interface Running {
  item: UploadItem;
  req: UploadRequest;
  upload?: Upload;
  /** Recent progress samples for the speed. */
  samples: { at: number; sent: number }[];
}

type Listener = () => void;

export class UploadQueue {
  private readonly runs = new Map<number, Running>();
  private readonly listeners = new Set<Listener>();
  private snapshot: UploadItem[] = [];
  private nextId = 1;
  /** Called when a file has arrived (the screen reloads that folder). */
  onFinished?: (storage: string, dir: string) => void;

  constructor(
    private readonly endpoint: () => string = uploadEndpoint,
    /** Tests put a scripted server and a Blob reader here (jsdom gets tus-js-client's Node build). */
    private readonly transport: Pick<UploadOptions, 'httpStack' | 'fileReader'> = {},
  ) {}

  subscribe = (fn: Listener) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  items = () => this.snapshot;

  add(reqs: UploadRequest[]): void {
    for (const req of reqs) {
      const item: UploadItem = {
        id: this.nextId++,
        storage: req.storage,
        dir: req.dir,
        relativePath: req.relativePath,
        size: req.file.size,
        sent: 0,
        speed: 0,
        state: 'queued',
      };
      this.runs.set(item.id, { item, req, samples: [] });
    }
    this.changed();
    this.pump();
  }

  cancel(id: number): void {
    const run = this.runs.get(id);
    if (!run || (run.item.state !== 'queued' && run.item.state !== 'uploading')) return;
    // Terminate: the server removes the partial file, and the fingerprint is forgotten.
    void run.upload?.abort(true).catch(() => undefined);
    this.update(run, { state: 'cancelled', speed: 0 });
    this.pump();
  }

  retry(id: number): void {
    const run = this.runs.get(id);
    if (!run || (run.item.state !== 'failed' && run.item.state !== 'cancelled')) return;
    run.upload = undefined;
    this.update(run, { state: 'queued', error: undefined, speed: 0 });
    this.pump();
  }

  /** Drops finished, failed and cancelled rows. */
  clearFinished(): void {
    for (const [id, run] of this.runs)
      if (run.item.state !== 'queued' && run.item.state !== 'uploading') this.runs.delete(id);
    this.changed();
  }

  private pump(): void {
    let running = [...this.runs.values()].filter((r) => r.item.state === 'uploading').length;
    for (const run of this.runs.values()) {
      if (running >= PARALLEL) break;
      if (run.item.state !== 'queued') continue;
      running++;
      this.start(run);
    }
  }

  private start(run: Running): void {
    const { file, storage, dir, relativePath, conflict } = run.req;
    const meta: Record<keyof FilebrowserUploadMeta, string> = {
      storage,
      dir,
      relativePath,
      conflict,
      mtime: String(file.lastModified || Date.now()),
    };
    const token = getItem('token') ?? '';
    const upload = new Upload(file, {
      endpoint: this.endpoint(),
      metadata: meta,
      headers: token ? { Authorization: token } : {},
      retryDelays: RETRY_DELAYS,
      ...this.transport,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      fingerprint: async () =>
        ['lucky-fb', storage, dir, relativePath, file.size, file.lastModified, this.endpoint()].join('\u0000'),
      // A refusal (4xx other than 409/423/429) is final: retrying sends the same refused request.
      onShouldRetry: (err) => {
        const status = err.originalResponse?.getStatus() ?? 0;
        return status === 0 || status >= 500 || status === 409 || status === 423 || status === 429;
      },
      onProgress: (sent, total) => {
        const now = performance.now();
        run.samples.push({ at: now, sent });
        while (run.samples.length > 2 && now - run.samples[0].at > 3000) run.samples.shift();
        const first = run.samples[0];
        const speed = now > first.at ? ((sent - first.sent) * 1000) / (now - first.at) : 0;
        this.update(run, { sent, size: total, speed: Math.max(0, speed) });
      },
      onSuccess: () => {
        this.update(run, { state: 'done', sent: run.item.size, speed: 0 });
        this.onFinished?.(storage, dir);
        this.pump();
      },
      onError: (err) => {
        if (run.item.state === 'cancelled') return;
        this.update(run, { state: 'failed', speed: 0, error: failureOf(err) });
        this.pump();
      },
    });
    run.upload = upload;
    run.samples = [];
    this.update(run, { state: 'uploading', sent: 0 });
    void upload
      .findPreviousUploads()
      .then((previous) => {
        if (run.item.state !== 'uploading' || run.upload !== upload) return;
        if (previous.length > 0) upload.resumeFromPreviousUpload(previous[0]);
        upload.start();
      })
      .catch(() => upload.start());
  }

  private update(run: Running, patch: Partial<UploadItem>): void {
    run.item = { ...run.item, ...patch };
    this.changed();
  }

  private changed(): void {
    this.snapshot = [...this.runs.values()].map((r) => r.item);
    for (const fn of this.listeners) fn();
  }
}

/** The server's coded answer (`{ret, code, params, msg}`) when there is one, else the error's words. */
function failureOf(err: Error): UploadItem['error'] {
  if (err instanceof DetailedError && err.originalResponse) {
    try {
      const body = JSON.parse(err.originalResponse.getBody()) as {
        code?: string;
        params?: Record<string, unknown>;
        msg?: string;
      };
      if (body && typeof body.code === 'string')
        return { code: body.code, params: body.params ?? {}, text: body.msg ?? body.code };
    } catch {
      // Not JSON: the status line below says enough.
    }
    return { text: `HTTP ${err.originalResponse.getStatus()}` };
  }
  return { text: err.message };
}

/** One queue per page: uploads go on while the user browses other folders. */
export const uploadQueue = new UploadQueue();

export function useUploads(queue: UploadQueue = uploadQueue): UploadItem[] {
  return useSyncExternalStore(queue.subscribe, queue.items, queue.items);
}

/** Files of a drop, with their paths below the drop (folders walked through webkitGetAsEntry). */
export async function filesOfDrop(items: DataTransferItemList): Promise<{ file: File; relativePath: string }[]> {
  const entries: FileSystemEntry[] = [];
  for (const it of Array.from(items)) {
    const e = it.kind === 'file' ? it.webkitGetAsEntry?.() : null;
    if (e) entries.push(e);
  }
  const out: { file: File; relativePath: string }[] = [];
  const walk = async (e: FileSystemEntry, prefix: string): Promise<void> => {
    if (e.isFile) {
      const file = await new Promise<File>((res, rej) => (e as FileSystemFileEntry).file(res, rej));
      out.push({ file, relativePath: prefix + e.name });
    } else if (e.isDirectory) {
      const reader = (e as FileSystemDirectoryEntry).createReader();
      // readEntries answers in batches (100 in chromium) until an empty one.
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (batch.length === 0) break;
        for (const child of batch) await walk(child, `${prefix}${e.name}/`);
      }
    }
  };
  for (const e of entries) await walk(e, '');
  return out;
}

/** Files of an `<input type=file>` (webkitRelativePath for a folder pick). */
export function filesOfInput(list: FileList): { file: File; relativePath: string }[] {
  return Array.from(list).map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

/** The names an upload puts into its folder (a folder upload's top folder), for the conflict check. */
export function topNames(files: { relativePath: string }[]): string[] {
  return [...new Set(files.map((f) => f.relativePath.split('/')[0]))];
}
