// `npm run bench`: builds what is needed, runs every benchmark, prints a table
// and writes bench/results/latest.json. Budgets are reported, never asserted
// in tests (timings on a shared machine drift).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildIfNeeded } from '../scripts/build-if-needed.mjs';
import { benchCore } from './core.mjs';
import { ROOT } from './lib.mjs';
import { benchPortforward } from './portforward.mjs';

buildIfNeeded();
const all = [...(await benchCore()), ...(await benchPortforward())];
all.push(...(await (await import('./stun.mjs')).benchStun()));
all.push(...(await (await import('./ddns.mjs')).benchDdns()));
all.push(...(await (await import('./reverseproxy.mjs')).benchReverseproxy()));
all.push(...(await (await import('./instructions.mjs')).benchInstructions()));
all.push(...(await (await import('./storage.mjs')).benchStorage()));
all.push(...(await (await import('./filebrowser.mjs')).benchFilebrowser()));
let over = 0;
console.log('\nbenchmark                                                          value        budget   ');
for (const r of all) {
  const ok = r.ok ?? (r.budget === undefined || r.value <= r.budget);
  if (!ok) over++;
  // NaN: a row that could not run (its name says why).
  const v = Number.isFinite(r.value)
    ? `${r.value.toFixed(r.unit === 'ms' || r.unit === 'instr' ? 0 : 1)} ${r.unit}`
    : 'n/a';
  const b = r.budget === undefined ? '' : `< ${r.budget} ${r.unit}`;
  console.log(`${ok ? ' ok ' : 'OVER'} ${r.name.padEnd(62)} ${v.padStart(12)}  ${b}`);
}
mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(ROOT, 'bench/results/latest.json'),
  `${JSON.stringify({ at: new Date().toISOString(), results: all }, null, 2)}\n`,
);
console.log(over ? `\n${over} over budget` : '\nall within budget');
