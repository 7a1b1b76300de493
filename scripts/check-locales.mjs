#!/usr/bin/env node
// Both locale files must carry the same keys, no empty value, and the same
// {{placeholders}} per key (a translation that drops one shows a hole).
// Usage: node scripts/check-locales.mjs [dir]   (default packages/web/src/i18n)
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = process.argv[2] ? resolve(process.argv[2]) : join(root, 'packages/web/src/i18n');
const LOCALES = ['zh_CN', 'en_US'];

/** { a: { b: 'x' } } → Map { 'a.b' => 'x' }; non-string leaves are kept to be reported. */
function flatten(obj, prefix = '', out = new Map()) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) flatten(v, key, out);
    else out.set(key, v);
  }
  return out;
}

const placeholders = (s) =>
  [...String(s).matchAll(/\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',');

const problems = [];
const files = new Map();
for (const lang of LOCALES) {
  const file = join(dir, `${lang}.json`);
  try {
    files.set(lang, flatten(JSON.parse(readFileSync(file, 'utf8'))));
  } catch (err) {
    problems.push(`${file}: cannot be read as JSON (${err.message})`);
  }
}

if (files.size === LOCALES.length) {
  const [a, b] = LOCALES;
  const ka = files.get(a);
  const kb = files.get(b);
  for (const key of ka.keys()) if (!kb.has(key)) problems.push(`${key}: in ${a} but missing in ${b}`);
  for (const key of kb.keys()) if (!ka.has(key)) problems.push(`${key}: in ${b} but missing in ${a}`);
  for (const [lang, map] of files) {
    for (const [key, value] of map) {
      if (typeof value !== 'string') problems.push(`${key}: ${lang} value is not a string`);
      else if (value.trim() === '') problems.push(`${key}: ${lang} value is empty`);
    }
  }
  for (const [key, va] of ka) {
    if (!kb.has(key)) continue;
    const pa = placeholders(va);
    const pb = placeholders(kb.get(key));
    if (pa !== pb) problems.push(`${key}: placeholders differ (${a}: {${pa}} / ${b}: {${pb}})`);
  }
}

if (problems.length > 0) {
  console.error(`locale check failed (${problems.length}):`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log(`locales OK: ${files.get(LOCALES[0]).size} keys in ${LOCALES.join(', ')}`);
