#!/usr/bin/env node
// Gzip size of the JavaScript each route loads, from the Vite manifest of the
// last `vite build`. The login route is held to a budget (fails above it).
// Usage: node packages/web/scripts/bundle-size.mjs [--json]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const LOGIN_BUDGET_BYTES = 350 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

const gz = new Map();
const gzipSize = (file) => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length);
  return gz.get(file);
};

/** Chunk files a manifest entry needs before it runs (itself + static imports, recursively). */
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
}

const findKey = (pattern) => Object.keys(manifest).find((k) => pattern.test(k));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const entry = closure(entryKey);

/** What the page loads for a screen in the default language (zh_CN): the login page only the login part of the messages. */
function routeFiles(screenPattern, signedIn) {
  const files = new Set(entry);
  const messages = signedIn ? [/locale-part\/zh_CN-login$/, /locale-part\/zh_CN-rest$/] : [/locale-part\/zh_CN-login$/];
  for (const p of [screenPattern, ...messages, /antd\/locale\/zh_CN/, /dayjs\/locale\/zh-cn/]) {
    const key = findKey(p);
    if (!key) throw new Error(`no chunk for ${p}`);
    for (const f of closure(key)) files.add(f);
  }
  return files;
}

const sum = (files) => [...files].filter((f) => f.endsWith('.js')).reduce((n, f) => n + gzipSize(f), 0);
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;

const routes = {
  login: /screens\/login\/LoginScreen\.tsx$/,
  about: /screens\/about\/AboutScreen\.tsx$/,
  status: /screens\/status\/StatusScreen\.tsx$/,
  set: /screens\/set\/SetScreen\.tsx$/,
  safe: /screens\/safe\/SafeScreen\.tsx$/,
  portforward: /modules\/portforward\/PortforwardScreen\.tsx$/,
};
const menuKey = findKey(/app\/menu\/MenuView\.tsx$/);
const report = {};
for (const [name, pattern] of Object.entries(routes)) {
  const files = routeFiles(pattern, name !== 'login');
  // Every route but login also shows the menu.
  if (name !== 'login' && menuKey) for (const f of closure(menuKey)) files.add(f);
  report[name] = sum(files);
}
const allJs = Object.values(manifest)
  .map((c) => c.file)
  .filter((f, i, a) => f.endsWith('.js') && a.indexOf(f) === i);
const total = allJs.reduce((n, f) => n + gzipSize(f), 0);

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ routesGzipBytes: report, totalGzipBytes: total, loginBudgetBytes: LOGIN_BUDGET_BYTES }));
} else {
  for (const [name, bytes] of Object.entries(report)) console.log(`${name.padEnd(12)} ${kb(bytes)} gzip`);
  console.log(`all JS       ${kb(total)} gzip in ${allJs.length} chunks`);
}
if (report.login > LOGIN_BUDGET_BYTES) {
  console.error(`login route ${kb(report.login)} exceeds the ${kb(LOGIN_BUDGET_BYTES)} budget`);
  process.exit(1);
}
