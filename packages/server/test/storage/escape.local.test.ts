// The shared escape corpus against the local backend directly, through the decoders services use
// (decodeUrlPath for HTTP, resolveVirtual for FTP): every method with every attack path, then no
// secret read and nothing changed outside the root. The services run the same corpus over the wire.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../src/core/storage/local.js';
import { decodeUrlPath, resolveVirtual } from '../../src/core/storage/paths.js';
import { type Storage, StorageError } from '../../src/core/storage/types.js';
import { tempDir } from '../harness.js';
import {
  type EscapeSandbox,
  FTP_ESCAPE_BYTES,
  ftpEscapes,
  HTTP_ESCAPE_ABSOLUTE,
  HTTP_ESCAPE_TAILS,
  leakedMarkers,
  plantEscapeTargets,
} from './escapeCorpus.js';

let dir: string;
let sandbox: EscapeSandbox;
let st: Storage;

beforeAll(async () => {
  dir = await tempDir('lucky-escape-');
  sandbox = await plantEscapeTargets(dir);
  st = createLocalStorage({ key: 'box', root: sandbox.root, readOnly: false });
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const drain = async (s: Readable): Promise<string> => {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(c as Buffer);
  return Buffer.concat(parts).toString('latin1');
};

interface Tally {
  refused: number;
  served: number;
  leaks: string[];
}

/** Every method on one storage path; what it read goes through the leak check. */
async function attack(p: string, t: Tally): Promise<void> {
  const seen: string[] = [];
  const tryOp = async (f: () => Promise<unknown>) => {
    try {
      const v = await f();
      t.served++;
      if (v !== undefined) seen.push(JSON.stringify(v));
    } catch (e) {
      if (!(e instanceof StorageError)) throw e;
      t.refused++;
      seen.push(e.message);
    }
  };
  await tryOp(() => st.stat(p));
  await tryOp(() => st.list(p));
  await tryOp(async () => drain(await st.read(p)));
  await tryOp(async () => drain(await st.read(p, { start: 0, end: 100 })));
  await tryOp(async () => pipeline(Readable.from([Buffer.from('PWNED')]), await st.write(p, { mode: 'append' })));
  await tryOp(async () =>
    pipeline(Readable.from([Buffer.from('PWNED')]), await st.write(p, { mode: 'offset', offset: 0 })),
  );
  await tryOp(async () => pipeline(Readable.from([Buffer.from('PWNED')]), await st.write(p, { mode: 'replace' })));
  await tryOp(async () => pipeline(Readable.from([Buffer.from('PWNED')]), await st.write(p, { mode: 'create' })));
  await tryOp(() => st.mkdir(`${p}`));
  await tryOp(() => st.setMtime(p, 0));
  await tryOp(() => st.copy(p, '/stolen', { overwrite: true, recursive: true }));
  await tryOp(async () => drain(await st.read('/stolen')));
  await tryOp(() => st.copy('/inside.txt', p, { overwrite: true, recursive: true }));
  await tryOp(() => st.move(p, '/moved', { overwrite: true }));
  await tryOp(async () => drain(await st.read('/moved')));
  await tryOp(() => st.delete(p));
  for (const s of seen) {
    const leaked = leakedMarkers(sandbox, s);
    if (leaked.length > 0) t.leaks.push(`${p}: ${leaked.join(', ')}`);
  }
}

describe('escape corpus against the local backend', () => {
  it('HTTP wire forms: nothing read from or written outside the root', async () => {
    const t: Tally = { refused: 0, served: 0, leaks: [] };
    let badPath = 0;
    for (const wire of [...HTTP_ESCAPE_TAILS.map((x) => `/${x}`), ...HTTP_ESCAPE_ABSOLUTE]) {
      let p: string;
      try {
        p = decodeUrlPath(wire);
      } catch (e) {
        expect(e).toBeInstanceOf(StorageError);
        badPath++;
        continue;
      }
      await attack(p, t);
    }
    expect(t.leaks).toEqual([]);
    expect(await sandbox.changedOutside()).toEqual([]);
    // The corpus exercised both outcomes: decoder refusals and paths that reached the backend.
    expect(badPath).toBeGreaterThan(0);
    expect(t.refused).toBeGreaterThan(0);
  });

  it('FTP arguments (virtual paths from a current folder): nothing read from or written outside', async () => {
    const t: Tally = { refused: 0, served: 0, leaks: [] };
    for (const cwd of ['/', '/sub']) {
      for (const arg of ftpEscapes('mount').map((a) => a.replace(/^\/mount\//, '/'))) {
        let p: string;
        try {
          p = resolveVirtual(cwd, arg);
        } catch (e) {
          expect(e).toBeInstanceOf(StorageError);
          continue;
        }
        await attack(p, t);
      }
    }
    expect(t.leaks).toEqual([]);
    expect(await sandbox.changedOutside()).toEqual([]);
  });

  it('raw FTP bytes that are not UTF-8 never decode', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    for (const b of FTP_ESCAPE_BYTES) expect(() => strict.decode(b)).toThrow();
  });

  it('an ordinary path still works after the corpus', async () => {
    await fs.writeFile(path.join(sandbox.root, 'fresh.txt'), sandbox.insideContent);
    expect(await drain(await st.read('/fresh.txt'))).toBe(sandbox.insideContent);
  });
});
