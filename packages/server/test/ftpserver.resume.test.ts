// 200 MB through the FTP server with an interruption each way and a resume by a real client:
// a download cut by killing curl, finished with lftp `get -c` (REST + RETR); an upload cut by
// killing curl, finished with `curl -C -` (SIZE + APPE). Byte-exact (sha256). The content is a
// counter pattern, not zeros, so a resume at the wrong offset cannot go unnoticed.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { curl, lftp, spawnTool } from './ftp-tools.js';
import { type FtpLab, startFtpLab, USERS } from './ftpserver-helpers.js';
import { waitFor } from './wait.js';

const SIZE = 200 * 1024 * 1024;
const BLOCK = 1 << 20;

/** SIZE bytes: each 32-bit word holds its own index, mixed, so every offset has its own bytes. */
function* pattern(): Generator<Buffer> {
  for (let off = 0; off < SIZE; off += BLOCK) {
    const words = new Uint32Array(BLOCK / 4);
    const first = off / 4;
    for (let i = 0; i < words.length; i++) words[i] = Math.imul(first + i, 0x9e3779b1) >>> 0;
    yield Buffer.from(words.buffer);
  }
}

async function sha256File(p: string): Promise<string> {
  const h = createHash('sha256');
  for await (const c of createReadStream(p)) h.update(c as Buffer);
  return h.digest('hex');
}

let lab: FtpLab;
let source: string;
let expected: string;
const alice = () => ({ port: lab.port, user: 'alice', password: USERS.alice });

beforeAll(async () => {
  lab = await startFtpLab();
  source = path.join(lab.dir, 'source.bin');
  const h = createHash('sha256');
  await pipeline(
    Readable.from(pattern()),
    async function* (src) {
      for await (const c of src) {
        h.update(c as Buffer);
        yield c;
      }
    },
    createWriteStream(source),
  );
  expected = h.digest('hex');
});
afterAll(async () => {
  await lab?.close();
});

const transferring = () => [...(lab.runtime.ftp?.sessions ?? [])].find((s) => s.transfer);

it('resumes an interrupted 200 MB download byte-exact (curl cut, lftp get -c)', async () => {
  await fs.copyFile(source, path.join(lab.data, 'big.bin'));
  const local = path.join(lab.dir, 'down.bin');
  // Slowed so the cut lands in the middle; the rate is not asserted on.
  const first = spawnTool('curl', [
    '-sS',
    '--limit-rate',
    '40M',
    '--user',
    `alice:${USERS.alice}`,
    '-o',
    local,
    `ftp://127.0.0.1:${lab.port}/files/big.bin`,
  ]);
  await waitFor(
    () => transferring()?.transfer?.bytes ?? 0,
    (n) => n >= 20 << 20,
    { timeout: 20_000, what: '20 MB sent' },
  );
  first.child.kill('SIGKILL');
  await first.done;
  await waitFor(() => lab.runtime.ftp?.sessions.size === 0, { timeout: 10_000, what: 'the cut session to end' });
  const partial = (await fs.stat(local)).size;
  expect(partial).toBeGreaterThan(0);
  expect(partial).toBeLessThan(SIZE);
  const sentBefore = lab.runtime.ftp?.counters.bytesOut ?? 0;
  const r = await lftp(alice(), ['debug -t 9', `get -c files/big.bin -o ${local}`], 120_000);
  expect(r.code, r.stderr.slice(-600)).toBe(0);
  expect(r.stderr).toMatch(new RegExp(`---> REST ${partial}`));
  // Only the rest crossed the wire the second time.
  expect((lab.runtime.ftp?.counters.bytesOut ?? 0) - sentBefore).toBe(SIZE - partial);
  expect(await sha256File(local)).toBe(expected);
  await fs.rm(local);
}, 90_000);

it('resumes an interrupted 200 MB upload byte-exact (curl cut, curl -C -)', async () => {
  const url = `ftp://127.0.0.1:${lab.port}/files/up.bin`;
  const first = spawnTool('curl', ['-sS', '--limit-rate', '40M', '--user', `alice:${USERS.alice}`, '-T', source, url]);
  await waitFor(
    () => transferring()?.transfer?.bytes ?? 0,
    (n) => n >= 20 << 20,
    { timeout: 20_000, what: '20 MB received' },
  );
  first.child.kill('SIGKILL');
  await first.done;
  // The cut upload is kept (what REST / APPE resume from); its session ends once it is in place.
  await waitFor(() => lab.runtime.ftp?.sessions.size === 0, { timeout: 10_000, what: 'the cut session to end' });
  const partial = (await fs.stat(path.join(lab.data, 'up.bin'))).size;
  expect(partial).toBeGreaterThan(0);
  expect(partial).toBeLessThan(SIZE);
  const receivedBefore = lab.runtime.ftp?.counters.bytesIn ?? 0;
  const r = await curl(alice(), '/files/up.bin', ['-v', '-C', '-', '-T', source], 120_000);
  expect(r.code, r.stderr.slice(-600)).toBe(0);
  expect(r.stderr).toContain('> APPE up.bin');
  expect((lab.runtime.ftp?.counters.bytesIn ?? 0) - receivedBefore).toBe(SIZE - partial);
  expect(await sha256File(path.join(lab.data, 'up.bin'))).toBe(expected);
}, 90_000);
