// Guard (issue 13): one list of modules. THE list is BUILT_MODULES (packages/shared/src/
// modules.ts); the server's definitions and the browser's screens are records over it, and no
// other source or test may spell out a list of the built modules by hand (it would silently miss
// the next module). Every key of the spec is built now, so a list is judged by its length: one
// naming two thirds or more of the built modules stands in for THE list; a test's handful of
// keys (two fakes, a menu-order sample) does not.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { BUILT_MODULES } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { modules } from '../../src/modules/index.js';
import { repoRoot } from './contract-helpers.js';

const ROOTS = [
  'packages/shared/src',
  'packages/server/src',
  'packages/server/test',
  'packages/web/src',
  'e2e',
  'bench',
];
const THE_LIST = 'packages/shared/src/modules.ts';

async function* sources(dir: string): AsyncGenerator<string> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') yield* sources(p);
    } else if (/\.(ts|tsx|mjs)$/.test(entry.name)) yield p;
  }
}

describe('contract: one list of modules', () => {
  it('the server defines exactly THE list, in its order, each under its own key', () => {
    expect(modules.map((m) => m.key)).toEqual([...BUILT_MODULES]);
  });

  it('no source or test spells out a list of the built modules by hand', async () => {
    const built = new Set<string>(BUILT_MODULES);
    const atLeast = Math.max(2, Math.ceil((built.size * 2) / 3));
    const found: string[] = [];
    for (const root of ROOTS) {
      const dir = path.join(repoRoot, root);
      if (!(await fs.stat(dir).catch(() => undefined))) continue;
      for await (const file of sources(dir)) {
        const rel = path.relative(repoRoot, file);
        if (rel === THE_LIST) continue;
        const text = await fs.readFile(file, 'utf8');
        // Array literals of quoted words only, every one a built module's key.
        for (const m of text.matchAll(/\[\s*((?:['"][\w-]+['"]\s*,\s*)+['"][\w-]+['"])\s*,?\s*\]/g)) {
          const items = [...m[1].matchAll(/['"]([\w-]+)['"]/g)].map((x) => x[1]);
          if (items.length >= atLeast && items.every((i) => built.has(i))) found.push(`${rel}: ${m[0]}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
