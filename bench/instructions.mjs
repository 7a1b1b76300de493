// Per-request cost of the web service proxy, side by side with nginx, counted in user-space
// instructions by callgrind (valgrind). On a shared 2-core machine requests/s swing by ±20 %
// between runs of the same build; instruction counts stay within a few per cent, so this is the
// yardstick for optimising the per-request path (and the ratio to nginx says how far there is
// to go). Kernel time (the syscalls, loopback TCP) is not counted: it is much the same for both.
//
// Each server runs alone under callgrind (ours: one process, no helper processes; nginx: one
// worker, no master) with the same back end; after a warm-up (JIT), the counters are zeroed,
// FIXED requests go through (h2load, HTTP/1.1 keep-alive, 8 connections) and the counters are
// dumped. `node bench/instructions.mjs` runs it alone (the server must be built).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKEND_SOURCE, ensureBenchDeps, freePort, login, ROOT, startPeer, waitListening } from './lib.mjs';

const HOST = '127.0.0.1';
const WARM_UP = 6000;
const COUNTED = 4000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** `argv` under callgrind, its output in `outFile` (dumps: outFile.1, .2, …). */
function underCallgrind(outFile, argv, env = process.env) {
  return spawn(
    'valgrind',
    ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${outFile}`, ...argv],
    { stdio: ['ignore', 'pipe', 'pipe'], env, detached: true },
  );
}

function h2loadH1(url, n) {
  const out = execFileSync('h2load', ['--h1', '-n', String(n), '-c', '8', url], { encoding: 'utf8', timeout: 600_000 });
  const done = Number(/requests: .*?(\d+) succeeded/.exec(out)?.[1] ?? 0);
  if (done !== n) throw new Error(`h2load ${url}: ${done} of ${n} succeeded\n${out.slice(0, 400)}`);
}

/** Warm up, zero, count `COUNTED` requests, dump: instructions per request. */
async function count(name, pid, outFile, url) {
  h2loadH1(url, WARM_UP);
  execFileSync('callgrind_control', ['-z', String(pid)], { stdio: 'ignore' });
  h2loadH1(url, COUNTED);
  execFileSync('callgrind_control', ['-d', String(pid)], { stdio: 'ignore' });
  const dump = `${outFile}.1`;
  for (let i = 0; i < 100 && !existsSync(dump); i++) await sleep(100);
  const totals = /^totals:\s+(\d+)/m.exec(readFileSync(dump, 'utf8'));
  if (!totals) throw new Error(`${name}: no totals in ${dump}`);
  return Number(totals[1]) / COUNTED;
}

async function stop(child) {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([new Promise((r) => child.once('exit', r)), sleep(10_000)]);
}

export async function benchInstructions() {
  ensureBenchDeps();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-bench-instr-'));
  const children = [];
  try {
    const backendPort = await freePort();
    const backend = startPeer(
      'backend',
      process.execPath,
      ['--input-type=module', '-e', BACKEND_SOURCE, String(backendPort)],
      {
        detached: true,
      },
    );
    await waitListening(backendPort);

    // Ours: the built server in one process with the worker's V8 flags, a proxy rule made through the API.
    const { WORKER_V8_FLAGS } = await import(path.join(ROOT, 'packages/server/dist/cli/supervise.js'));
    mkdirSync(path.join(dir, 'lucky'));
    const lucky = underCallgrind(
      path.join(dir, 'lucky.out'),
      [process.execPath, ...WORKER_V8_FLAGS, path.join(ROOT, 'bench/reverseproxy-server.mjs'), path.join(dir, 'lucky')],
      { ...process.env, LUCKY_WEB_HELPERS: '0' },
    );
    children.push(lucky);
    const line = await new Promise((resolve, reject) => {
      let out = '';
      lucky.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      lucky.once('exit', (code) => reject(new Error(`the server under callgrind exited with ${code}`)));
    });
    const { port: adminPort, pid: luckyPid } = JSON.parse(line);
    const base = `http://${HOST}:${adminPort}`;
    const token = await login(base);
    const luckyPort = await freePort();
    const made = await fetch(`${base}/api/reverseproxy/rules`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'bench',
        address: HOST,
        port: luckyPort,
        listenTypes: 'http',
        subRules: [{ domains: [HOST], targets: [`http://${HOST}:${backendPort}`] }],
      }),
    }).then((r) => r.json());
    if (made.ret !== 0) throw new Error(`rule: ${JSON.stringify(made)}`);
    await waitListening(luckyPort, 60_000);
    const luckyIr = await count('lucky', luckyPid, path.join(dir, 'lucky.out'), `http://${HOST}:${luckyPort}/`);
    await stop(lucky);

    // nginx: one process (no master), the same proxy settings as in bench/reverseproxy.mjs.
    const nginxPort = await freePort();
    writeFileSync(
      path.join(dir, 'nginx.conf'),
      `daemon off;\nmaster_process off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/nginx-error.log warn;\n` +
        `events { worker_connections 1024; }\nhttp {\n  access_log off;\n  keepalive_requests 1000000;\n` +
        `  client_body_temp_path ${dir}/nb; proxy_temp_path ${dir}/np; fastcgi_temp_path ${dir}/nf;\n` +
        `  uwsgi_temp_path ${dir}/nu; scgi_temp_path ${dir}/ns;\n` +
        `  upstream backend { server ${HOST}:${backendPort}; keepalive 64; }\n` +
        `  server {\n    listen ${HOST}:${nginxPort};\n` +
        `    location / { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; }\n  }\n}\n`,
    );
    const nginx = underCallgrind(path.join(dir, 'nginx.out'), ['nginx', '-p', dir, '-c', path.join(dir, 'nginx.conf')]);
    children.push(nginx);
    await waitListening(nginxPort, 60_000);
    const nginxIr = await count('nginx', nginx.pid, path.join(dir, 'nginx.out'), `http://${HOST}:${nginxPort}/`);
    await stop(nginx);
    await backend.stop();

    return [
      { name: 'instructions per proxied request (callgrind, user space): lucky', value: luckyIr, unit: 'instr' },
      { name: 'instructions per proxied request (callgrind, user space): nginx', value: nginxIr, unit: 'instr' },
      { name: 'instructions per proxied request: lucky ÷ nginx', value: luckyIr / nginxIr, unit: '×' },
    ];
  } finally {
    for (const c of children) await stop(c);
    rmSync(dir, { recursive: true, force: true });
  }
}

// `node bench/instructions.mjs`: this benchmark alone (the server must be built).
if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, 'bench/instructions.mjs')) {
  for (const r of await benchInstructions()) console.log(`${r.name.padEnd(70)} ${r.value.toFixed(1)} ${r.unit}`);
}
