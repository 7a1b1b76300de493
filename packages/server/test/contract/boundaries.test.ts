// The layering of packages/server/src (docs/ARCHITECTURE.md, "Module contract"): modules never
// import each other — what two share lives in core/ — and core/ never imports a module. The one
// way from core/ to the modules is THE list, src/modules/index.ts (core/core.ts builds the
// supervisor from it). Every import counts: static, type-only, re-exports and import().
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const MODULES = path.join(SRC, 'modules');
const CORE = path.join(SRC, 'core');
const MODULE_LIST = path.join(MODULES, 'index.ts');

/** Every .ts file under `dir`, tests included. */
function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The local files `file` imports (relative specifiers, `.js` read as the `.ts` source). */
function localImports(file: string, text = readFileSync(file, 'utf8')): string[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
}

/** The module folder a file is in (`modules/<key>/…`), or undefined. */
function moduleOf(file: string): string | undefined {
  const rel = path.relative(MODULES, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const parts = rel.split(path.sep);
  return parts.length > 1 ? parts[0] : undefined;
}

const under = (dir: string, file: string) => file.startsWith(dir + path.sep);

/** Why importing `target` from `file` breaks the layering, or undefined. */
function violation(file: string, target: string): string | undefined {
  const from = moduleOf(file);
  if (from !== undefined) {
    const to = moduleOf(target);
    if (to !== undefined && to !== from) return `module ${from} imports module ${to}`;
    if (target === MODULE_LIST) return `module ${from} imports the module list`;
    return undefined;
  }
  if (under(CORE, file) && under(MODULES, target) && target !== MODULE_LIST) return 'core imports a module';
  return undefined;
}

function violations(files: string[]): string[] {
  const out: string[] = [];
  for (const file of files)
    for (const target of localImports(file)) {
      const why = violation(file, target);
      if (why) out.push(`${path.relative(SRC, file)} → ${path.relative(SRC, target)}: ${why}`);
    }
  return out;
}

describe('import boundaries of packages/server/src', () => {
  it('modules import no other module, and core imports no module (only the list)', () => {
    expect(violations([...sources(MODULES), ...sources(CORE)])).toEqual([]);
  });

  it('the walk sees the imports it judges', () => {
    // core/core.ts reaches the modules through the list; the web service uses the serving toolkit.
    expect(localImports(path.join(CORE, 'core.ts'))).toContain(MODULE_LIST);
    expect(localImports(path.join(MODULES, 'reverseproxy/handler.ts'))).toContain(path.join(CORE, 'serve/request.ts'));
    expect(sources(path.join(CORE, 'serve')).length).toBeGreaterThan(10);
  });

  it('catches each kind of crossing, whatever the import form', () => {
    const ddns = path.join(MODULES, 'ddns/x.ts');
    const text = [
      "import { a } from '../reverseproxy/handler.js';",
      "import type { B } from '../portforward/types.js';",
      "export * from '../index.js';",
      "const c = () => import('../reverseproxy/dataPlane.js');",
      "import { own } from './own.js';",
      "import { core } from '../../core/serve/request.js';",
    ].join('\n');
    const found = localImports(ddns, text).map((t) => violation(ddns, t));
    expect(found).toEqual([
      'module ddns imports module reverseproxy',
      'module ddns imports module portforward',
      'module ddns imports the module list',
      'module ddns imports module reverseproxy',
      undefined,
      undefined,
    ]);
    const serve = path.join(CORE, 'serve/x.ts');
    expect(violation(serve, path.join(MODULES, 'reverseproxy/router.ts'))).toBe('core imports a module');
    expect(violation(path.join(CORE, 'core.ts'), MODULE_LIST)).toBeUndefined();
  });
});
