#!/usr/bin/env node
// npm run new-module -- <key>
// Scaffolds a module that speaks the module contract (docs/adding-a-module.md): shared schema,
// issue codes and views; the server definition, runtime and routes; the browser screen; both
// locale files; and adds the key to THE list (BUILT_MODULES) and the records derived from it.
// The result lists, adds, edits, switches, validates (field + code + params) and deletes items,
// keeps a secret masked, and passes the contract's guard tests and the screens' browser test.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { templates } from './new-module/templates.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const key = process.argv[2];
if (!key || !/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(key) || key.length > 24) {
  console.error('usage: npm run new-module -- <key>   (lower-case letters, digits and single underscores, e.g. demo)');
  process.exit(2);
}
/** camelCase for identifiers (wanji_admin → wanjiAdmin), PascalCase for types and components. */
const id = key.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const Name = id[0].toUpperCase() + id.slice(1);
const file = (p) => path.join(root, p);
if (existsSync(file(`packages/server/src/modules/${key}`))) {
  console.error(`packages/server/src/modules/${key} exists already`);
  process.exit(1);
}

/** Insert `text` before the line holding `anchor` in `p` (once). */
function insertBefore(p, anchor, text) {
  const src = readFileSync(file(p), 'utf8');
  const at = src.indexOf(anchor);
  if (at < 0) throw new Error(`${p}: anchor "${anchor}" not found`);
  const lineStart = src.lastIndexOf('\n', at) + 1;
  writeFileSync(file(p), src.slice(0, lineStart) + text + src.slice(lineStart));
}

function write(p, text) {
  mkdirSync(path.dirname(file(p)), { recursive: true });
  writeFileSync(file(p), text);
  console.log(`  created ${p}`);
}

const t = templates(key, Name);
for (const [p, text] of Object.entries(t.files)) write(p, text);

// THE list and what is derived from it.
const shared = readFileSync(file('packages/shared/src/modules.ts'), 'utf8');
const spec = shared.slice(shared.indexOf('MODULE_KEYS = ['), shared.indexOf('] as const;'));
if (!spec.includes(`'${key}'`)) {
  insertBefore('packages/shared/src/modules.ts', '// new-module: spec keys above this line', `  '${key}',\n`);
  insertBefore('packages/shared/src/modules.ts', '// new-module: routes above this line', `  ${key}: '/${key}',\n`);
}
insertBefore('packages/shared/src/modules.ts', '// new-module: keys above this line', `  '${key}',\n`);
insertBefore(
  'packages/shared/src/index.ts',
  '// new-module: exports above this line',
  `export * from './modules/${key}.js';\n`,
);
insertBefore(
  'packages/server/src/modules/index.ts',
  '// new-module: imports above this line',
  `import { ${id}Module } from './${key}/index.js';\n`,
);
insertBefore(
  'packages/server/src/modules/index.ts',
  '// new-module: definitions above this line',
  `  ${key}: ${id}Module,\n`,
);
insertBefore(
  'packages/web/src/app/moduleScreens.ts',
  '// new-module: screens above this line',
  `  ${key}: { screen: lazy(() => import('../modules/${key}/${Name}Screen')) },\n`,
);

// Both locale files: the menu entry and the module's namespace.
for (const [lang, strings] of Object.entries(t.locales)) {
  const p = file(`packages/web/src/i18n/${lang}.json`);
  const json = JSON.parse(readFileSync(p, 'utf8'));
  json.menu[key] = strings.menu;
  json[key] = strings.ns;
  writeFileSync(p, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`  updated packages/web/src/i18n/${lang}.json`);
}
// Import order depends on the key's spelling (biome sorts WANJI_ADMIN_… after wanjiAdmin…): let the
// formatter settle the new files and the lists they were added to.
try {
  execFileSync(
    path.join(root, 'node_modules/.bin/biome'),
    [
      'check',
      '--write',
      ...Object.keys(t.files),
      'packages/server/src/modules/index.ts',
      'packages/shared/src/index.ts',
    ],
    { cwd: root, stdio: 'ignore' },
  );
} catch {
  console.log('  (biome could not tidy the new files: run npm run lint)');
}
console.log(`\nModule ${key} added. Next: npm run build && npm test; then read docs/adding-a-module.md.`);
