// Helpers shared by the benchmark scripts: start the built program, wait for it, read /proc.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ENTRY = path.join(ROOT, 'packages/server/dist/main.js');

export function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Start the built program; resolves with the time from spawn to the first good answer of /version. */
export async function startProgram({ configDir } = {}) {
  const dir = configDir ?? mkdtempSync(path.join(os.tmpdir(), 'lucky-bench-'));
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [ENTRY, '-p', String(port), '-cd', dir, '--host', '127.0.0.1'], {
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      const r = await fetch(`${base}/version`);
      if (r.ok) break;
    } catch {
      // not yet
    }
    if (performance.now() - t0 > 20_000) throw new Error('program did not answer within 20 s');
    await new Promise((r) => setTimeout(r, 5));
  }
  const firstAnswerMs = performance.now() - t0;
  return {
    base,
    dir,
    child,
    firstAnswerMs,
    async stop({ keepDir = false } = {}) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      if (!keepDir && !configDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function login(base) {
  const r = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Account: '666', Password: '666' }),
  });
  return (await r.json()).token;
}

export function rssMb(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** Proportional set size: shared pages (the node binary, mapped by parent and worker) counted once across processes. */
export function pssMb(pid) {
  const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
