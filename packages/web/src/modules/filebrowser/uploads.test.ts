// The upload queue over tus-js-client against a scripted tus server (an HttpStack in memory):
// what the creation carries, and a PATCH cut off mid-way resumed from the server's offset.

import { waitFor } from '@testing-library/react';
import type { FileReader, HttpRequest, HttpResponse, HttpStack } from 'tus-js-client';
import { beforeEach, describe, expect, it } from 'vitest';
import { setItem } from '../../api/storage';
import { UploadQueue } from './uploads';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/** One upload resource; the first PATCH stores half its body and then fails like a dropped connection. */
function tusServer() {
  const seen: Seen[] = [];
  let offset = 0;
  let stored = new Uint8Array(0);
  let cutOnce = true;
  const answer = (status: number, headers: Record<string, string> = {}): HttpResponse => ({
    getStatus: () => status,
    getHeader: (h) => headers[h.toLowerCase()],
    getBody: () => '',
    getUnderlyingObject: () => undefined,
  });
  const stack: HttpStack = {
    getName: () => 'scripted',
    createRequest(method, url) {
      const headers: Record<string, string> = {};
      let progress: (n: number) => void = () => undefined;
      const req: HttpRequest = {
        getMethod: () => method,
        getURL: () => url,
        setHeader: (k, v) => {
          headers[k.toLowerCase()] = v;
        },
        getHeader: (k) => headers[k.toLowerCase()],
        setProgressHandler: (fn) => {
          progress = fn;
        },
        abort: async () => undefined,
        getUnderlyingObject: () => undefined,
        async send(body?: Blob) {
          seen.push({ method, url, headers: { ...headers } });
          if (method === 'POST') return answer(201, { location: '/api/filebrowser/uploads/U1' });
          if (method === 'HEAD')
            return answer(200, { 'upload-offset': String(offset), 'upload-length': '10', 'tus-resumable': '1.0.0' });
          if (method === 'PATCH' && body) {
            const bytes = new Uint8Array(await body.arrayBuffer());
            const keep = cutOnce ? bytes.subarray(0, Math.floor(bytes.length / 2)) : bytes;
            stored = new Uint8Array([...stored, ...keep]);
            offset += keep.length;
            progress(keep.length);
            if (cutOnce) {
              cutOnce = false;
              throw new Error('connection reset');
            }
            return answer(204, { 'upload-offset': String(offset), 'tus-resumable': '1.0.0' });
          }
          return answer(405);
        },
      };
      return req;
    },
  };
  return { stack, seen, stored: () => new TextDecoder().decode(stored) };
}

/** Slices of the File as the browser build reads them. */
const blobReader: FileReader = {
  openFile: async (input: Blob) => ({
    size: input.size,
    slice: async (start: number, end: number) => ({ value: input.slice(start, end), done: end >= input.size }),
    close: () => undefined,
  }),
};

beforeEach(() => setItem('token', 'tok'));

describe('upload queue', () => {
  it('creates with the contract metadata and the session token, and resumes a cut PATCH from the offset', async () => {
    const server = tusServer();
    const queue = new UploadQueue(() => 'http://console.test/api/filebrowser/uploads', {
      httpStack: server.stack,
      fileReader: blobReader,
    });
    const done: string[] = [];
    queue.onFinished = (s, d) => done.push(`${s}:${d}`);
    const file = new File(['0123456789'], 'b.txt', { lastModified: 1_700_000_000_000 });
    queue.add([{ file, storage: 'S1', dir: '/docs', relativePath: 'trip/b.txt', conflict: 'replace' }]);
    await waitFor(() => expect(queue.items()[0].state).toBe('done'), { timeout: 10_000 });

    const create = server.seen.find((r) => r.method === 'POST') as Seen;
    expect(create.headers.authorization).toBe('tok');
    const meta = Object.fromEntries(
      create.headers['upload-metadata'].split(',').map((kv) => {
        const [k, v] = kv.split(' ');
        return [k, new TextDecoder().decode(Uint8Array.from(atob(v), (c) => c.charCodeAt(0)))];
      }),
    );
    expect(meta).toEqual({
      storage: 'S1',
      dir: '/docs',
      relativePath: 'trip/b.txt',
      conflict: 'replace',
      mtime: '1700000000000',
    });
    // Cut after 5 bytes: a HEAD asked where to go on, the second PATCH started there.
    expect(server.seen.map((r) => r.method)).toEqual(['POST', 'PATCH', 'HEAD', 'PATCH']);
    expect(server.seen[3].headers['upload-offset']).toBe('5');
    expect(server.stored()).toBe('0123456789');
    expect(queue.items()[0]).toMatchObject({ sent: 10, size: 10 });
    expect(done).toEqual(['S1:/docs']);
  });
});
