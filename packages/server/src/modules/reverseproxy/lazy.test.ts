// The idle-memory budget (bench/core.mjs, RSS < 80 MB) holds only if the module's boot path
// leaves the data plane alone (proxy, file server, mime-types' table) and undici (10-20 MB
// resident, used by the DDNS client): the runtime imports the data plane when the first enabled
// rule starts. This walks the static import graph from the module definition (what the server
// imports at boot) and fails if it reaches a heavy package.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const HEAVY = new Set(['undici', 'mime-types']);

/** Specifiers of `import … from '…'` and `export … from '…'`, without type-only ones and `import()`. */
function staticImports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of src.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms)) {
    if (!m[2]) out.push(m[3]);
  }
  for (const m of src.matchAll(/^import\s+'([^']+)'/gm)) out.push(m[1]);
  return out;
}

/** Every package the static graph from `entry` reaches, and the local files on the way. */
function reach(entry: string): { packages: Set<string>; files: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  };
  visit(entry);
  return { packages, files };
}

describe('web service boot path', () => {
  it('does not import the data plane (or undici) until a rule runs', () => {
    const { packages, files } = reach(path.join(HERE, 'index.ts'));
    expect([...packages].filter((p) => HEAVY.has(p))).toEqual([]);
    expect([...files].map((f) => path.basename(f))).not.toContain('dataPlane.ts');
    // The walk itself works: the data plane does reach mime-types.
    expect(reach(path.join(HERE, 'dataPlane.ts')).packages.has('mime-types')).toBe(true);
  });
});
