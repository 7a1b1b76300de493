// Helpers shared by the benchmark scripts: start the built program, wait for it, read /proc.
import { spawn, spawnSync } from 'node:child_process';
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

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Start a peer in its own process group, so stopping it takes its children (socat forks) too. */
export function startPeer(name, cmd, args, opts = {}) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true, ...opts });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  child.on('exit', (code) => {
    if (code && !child.stopping) console.error(`${name} exited with ${code}: ${stderr.trim()}`);
  });
  return {
    name,
    child,
    async stop() {
      child.stopping = true;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return;
      }
      await Promise.race([new Promise((r) => child.once('exit', r)), sleep(3000)]);
    },
  };
}

export async function waitListening(port, ms = 5000, host = '127.0.0.1') {
  const until = Date.now() + ms;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const c = net.connect(port, host, () => {
        c.destroy();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on ${port}`);
    await sleep(20);
  }
}

/** Installs the Debian packages the benchmarks drive when missing (scripts/ensure-bench-deps.sh). */
export function ensureBenchDeps() {
  const r = spawnSync('bash', [path.join(ROOT, 'scripts/ensure-bench-deps.sh')], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('bench dependencies missing: run scripts/ensure-bench-deps.sh as root');
}

/**
 * A neutral HTTP back end (as shared/peers/bench-backend.mjs), used by bench/instructions.mjs (the
 * web service benchmark, bench/reverseproxy.mjs, puts an nginx upstream behind the proxies instead):
 * `/` answers "ok\n", `/10k` 10 KiB; keep-alive. Run as `node --input-type=module -e SOURCE PORT`.
 */
export const BACKEND_SOURCE = `
import http from 'node:http';
const big = Buffer.alloc(10240, 'x');
http.createServer((req, res) => {
  const body = req.url === '/10k' ? big : 'ok\\n';
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length });
  res.end(body);
}).listen(Number(process.argv[1]), '127.0.0.1');
`;
