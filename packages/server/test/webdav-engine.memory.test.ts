// PROPFIND Depth 1 over a folder of 10,000 entries: it answers all of them, and the 207 is
// streamed with back-pressure — while the client does not read, the server's queue holds a batch
// or two and its memory the listing, not the body; afterwards the heap goes back to where it was.
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staysFalse, waitFor } from './wait.js';
import { type DavServer, startDav } from './webdav-engine-helpers.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const memory = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

const COUNT = 10_000;
let server: DavServer;
let serverSocket: net.Socket | undefined;

beforeAll(async () => {
  server = await startDav({
    onRequest: (req) => {
      if (req.method === 'PROPFIND') serverSocket = req.socket;
    },
  });
  const dir = path.join(server.roots.get('main') as string, 'many');
  await fs.mkdir(dir);
  const names: string[] = Array.from(
    { length: COUNT },
    (_, i) => `${String(i).padStart(5, '0')}-${'n'.repeat(30)}.txt`,
  );
  for (let i = 0; i < names.length; i += 500) {
    await Promise.all(names.slice(i, i + 500).map((n) => fs.writeFile(path.join(dir, n), 'x')));
  }
}, 60_000);
afterAll(() => server?.close());

/** A PROPFIND whose reading the test controls: `paused` until `resume()`, then read to the end. */
function slowPropfind() {
  const socket = net.connect(server.port, '127.0.0.1');
  let received = 0;
  let resumed = false;
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => {
    received += c.length;
    chunks.push(c);
    // Read the head and the first bytes, then stop reading: the kernel's buffers fill, then ours would.
    if (received > 64 * 1024 && !resumed) socket.pause();
  });
  const done = new Promise<string>((resolve, reject) => {
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
  socket.write(
    `PROPFIND /dav/files/many/ HTTP/1.1\r\nHost: 127.0.0.1\r\nDepth: 1\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
  );
  const resume = () => {
    resumed = true;
    socket.resume();
  };
  return { received: () => received, resume, done };
}

describe('PROPFIND over 10,000 entries', () => {
  it('streams the 207 with back-pressure and holds a bounded amount while the client is slow', async () => {
    const before = memory();
    let client: ReturnType<typeof slowPropfind> | undefined = slowPropfind();
    // The server is blocked on the client once its socket's queue stops moving.
    let last = -1;
    await waitFor(
      () => {
        const now = serverSocket?.writableLength ?? -1;
        const stable = now > 0 && now === last;
        last = now;
        return stable;
      },
      { timeout: 15_000, interval: 100, what: 'the server waiting for the slow client' },
    );
    const queued = serverSocket?.writableLength ?? 0;
    const held = memory() - before;
    // Nothing more piles up while the client does not read.
    expect(await staysFalse(() => (serverSocket?.writableLength ?? 0) > queued, 300)).toBe(true);

    client.resume();
    let text = await client.done;
    let body = text.slice(text.indexOf('\r\n\r\n'));
    expect(text.startsWith('HTTP/1.1 207')).toBe(true);
    expect(body.match(/<D:response>/g)?.length).toBe(COUNT + 1);
    expect(body).toContain(`/dav/files/many/09999-${'n'.repeat(30)}.txt`);
    expect(body.trimEnd().endsWith('0')).toBe(true); // the chunked body's last chunk: it ended properly
    const bodyBytes = Buffer.byteLength(body);
    expect(bodyBytes).toBeGreaterThan(6 * 1024 * 1024);
    // What the server held while blocked: its socket queue (a batch or two) and the listing
    // (Storage.list answers an array: ~400 bytes an entry, about half the body). A server that
    // built the answer in memory would hold the listing AND the body: more than the body.
    expect(queued).toBeLessThan(256 * 1024);
    expect(held).toBeLessThan(bodyBytes * 0.8);
    // And it is all released once the answer is out (the test lets go of the client's copy first).
    client = undefined;
    text = body = '';
    // A deadline, not a timing claim: on a loaded machine the sockets' close takes a while.
    await waitFor(() => memory() - before < 2 * 1024 * 1024, {
      timeout: 15_000,
      what: 'the heap back to its size before',
    });
  }, 40_000);
});
