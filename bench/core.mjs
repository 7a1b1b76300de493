// Core budgets (issue 2): start to first answer < 1.5 s; idle RSS < 80 MB;
// the login screen's JavaScript < 350 KB gzipped; each screen its own chunk.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../scripts/chromium.mjs';
import { login, median, pssMb, ROOT, rssMb, startProgram } from './lib.mjs';

export async function benchCore() {
  const results = [];

  // Cold start: an empty config dir (makes the config, the password hash, the certificate).
  const cold = [];
  const warm = [];
  for (let i = 0; i < 5; i++) {
    const p = await startProgram();
    cold.push(p.firstAnswerMs);
    await p.stop({ keepDir: true });
    const again = await startProgram({ configDir: p.dir });
    warm.push(again.firstAnswerMs);
    await again.stop();
  }
  results.push({
    name: 'start to first answer, new config dir (median of 5)',
    value: median(cold),
    unit: 'ms',
    budget: 1500,
  });
  results.push({
    name: 'start to first answer, existing config (median of 5)',
    value: median(warm),
    unit: 'ms',
    budget: 1500,
  });

  // Idle memory: signed in, the overview and log endpoints polled a few times, then 5 s idle.
  const p = await startProgram();
  const token = await login(p.base);
  for (let i = 0; i < 20; i++) {
    await fetch(`${p.base}/api/status`, { headers: { authorization: token } });
    await fetch(`${p.base}/api/logs`, { headers: { authorization: token } });
  }
  const info = (await (await fetch(`${p.base}/api/info`, { headers: { authorization: token } })).json()).info;
  await new Promise((r) => setTimeout(r, 5000));
  results.push({ name: 'idle RSS of the server process', value: rssMb(info.PID), unit: 'MB', budget: 80 });
  results.push({
    name: 'idle PSS of the server process (shared node binary counted once)',
    value: pssMb(info.PID),
    unit: 'MB',
  });
  results.push({ name: 'idle RSS of the supervising parent', value: rssMb(p.child.pid), unit: 'MB' });
  results.push({
    name: 'idle PSS of parent + server together',
    value: pssMb(info.PID) + pssMb(p.child.pid),
    unit: 'MB',
  });

  // The login screen's JavaScript, as Debian chromium really loads it.
  const browser = await launchChromium();
  const page = await browser.newPage();
  const scripts = new Set();
  page.on('response', (r) => {
    if (r.url().endsWith('.js')) scripts.add(new URL(r.url()).pathname);
  });
  await page.goto(`${p.base}/#/login`);
  await page.waitForSelector('input[type=password]');
  await page.waitForLoadState('networkidle');
  await browser.close();
  let gz = 0;
  let raw = 0;
  for (const s of scripts) {
    const file = readFileSync(path.join(ROOT, 'packages/web/dist', s));
    raw += file.length;
    gz += gzipSync(file, { level: 9 }).length;
  }
  results.push({
    name: `login screen JavaScript, gzipped (${scripts.size} files, ${(raw / 1024).toFixed(0)} KB raw)`,
    value: gz / 1024,
    unit: 'KB',
    budget: 350,
  });
  await p.stop();

  // Each screen its own chunk: Vite's manifest lists every screen module as a dynamic entry.
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'packages/web/dist/.vite/manifest.json'), 'utf8'));
  const screens = Object.entries(manifest).filter(([src]) =>
    /src\/(screens|modules)\/[^/]+\/[A-Z]\w*Screen\.tsx$/.test(src),
  );
  const ownChunks = screens.filter(([, m]) => m.isDynamicEntry).length;
  results.push({
    name: `screens in their own chunk (${screens.map(([s]) => path.basename(s, '.tsx')).join(', ')})`,
    value: ownChunks,
    unit: `of ${screens.length}`,
    budget: undefined,
    ok: ownChunks === screens.length && screens.length > 0,
  });
  return results;
}
