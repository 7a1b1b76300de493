// A console with a local storage for the upload tests: the storage added through storage
// management's API, tus requests by raw fetch / node:http (for the protocol's edges) and by
// tus-js-client (what the browser uses).
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import * as tus from 'tus-js-client';
import type { FilebrowserRuntime } from '../src/modules/filebrowser/runtime.js';
import { startTestServer, type TestServer, tempDir } from './harness.js';

export const UPLOADS = '/api/filebrowser/uploads';

export interface UploadConsole {
  s: TestServer;
  token: string;
  box: string;
  addStorage(name: string, dir: string, readOnly?: boolean): Promise<string>;
  runtime(): FilebrowserRuntime;
  /** tus creation; answers status, the upload's URL path and the body. */
  create(meta: Record<string, string>, size: number, headers?: Record<string, string>): Promise<Created>;
  head(url: string): Promise<Response>;
  patch(url: string, offset: number, body: Buffer): Promise<Response>;
  /** A whole upload through tus-js-client; resolves with the last answer's headers. */
  upload(data: Buffer, meta: Record<string, string>): Promise<{ result: string | null; path: string | null }>;
  close(): Promise<void>;
}

export interface Created {
  status: number;
  location: string;
  text: string;
}

const b64 = (v: string) => Buffer.from(v).toString('base64');
export const metaHeader = (meta: Record<string, string>) =>
  Object.entries(meta)
    .map(([k, v]) => `${k} ${b64(v)}`)
    .join(',');
export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

export async function startUploadConsole(): Promise<UploadConsole> {
  const box = await tempDir('lucky-fbupload-');
  const s = await startTestServer();
  const token = await s.login();
  const auth = { authorization: token, 'tus-resumable': '1.0.0' };
  const c: UploadConsole = {
    s,
    token,
    box,
    addStorage: async (name, dir, readOnly = false) => {
      const r = await s.call('POST', '/api/storagemanagement/storages', {
        token,
        body: { name, kind: 'local', readOnly, local: { path: dir } },
      });
      if (r.body.ret !== 0) throw new Error(JSON.stringify(r.body));
      return r.body.storage.key as string;
    },
    runtime: () => s.server.core.modules.runtimeOf('filebrowser') as unknown as FilebrowserRuntime,
    create: async (meta, size, headers = {}) => {
      const res = await fetch(s.url + UPLOADS, {
        method: 'POST',
        headers: { ...auth, 'upload-length': String(size), 'upload-metadata': metaHeader(meta), ...headers },
      });
      return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text() };
    },
    head: (url) => fetch(s.url + url, { method: 'HEAD', headers: auth }),
    patch: (url, offset, body) =>
      fetch(s.url + url, {
        method: 'PATCH',
        headers: { ...auth, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: new Uint8Array(body),
      }),
    upload: (data, meta) =>
      new Promise((resolve, reject) => {
        const u = new tus.Upload(data, {
          endpoint: s.url + UPLOADS,
          headers: { authorization: token },
          metadata: meta,
          retryDelays: [],
          onError: reject,
          onSuccess: ({ lastResponse }) =>
            resolve({
              result: lastResponse.getHeader('upload-result') ?? null,
              path: decodeURIComponent(lastResponse.getHeader('upload-path') ?? ''),
            }),
        });
        u.start();
      }),
    close: async () => {
      await s.close();
      await fs.rm(box, { recursive: true, force: true });
    },
  };
  return c;
}

/**
 * A PATCH of `total` bytes (from `source`) whose socket is destroyed once `cutAfter` bytes are
 * written: a dropped connection mid-upload.
 */
export function patchCut(
  c: UploadConsole,
  url: string,
  offset: number,
  source: Buffer,
  cutAfter: number,
): Promise<void> {
  return new Promise((resolve) => {
    const u = new URL(c.s.url + url);
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method: 'PATCH',
      headers: {
        authorization: c.token,
        'tus-resumable': '1.0.0',
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(source.length),
      },
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    const chunk = 1024 * 1024;
    let sent = 0;
    const pump = () => {
      while (sent < cutAfter) {
        const piece = source.subarray(sent, Math.min(sent + chunk, cutAfter));
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      // Everything before the cut has been handed to the socket: kill it.
      req.socket?.destroy();
    };
    pump();
  });
}

export const exists = (p: string) =>
  fs.stat(p).then(
    () => true,
    () => false,
  );
export const partFiles = async (dir: string) => (await fs.readdir(dir)).filter((n) => n.endsWith('.part'));
export { path };
