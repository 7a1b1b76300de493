// The web service (reverse proxy + file server) side by side with nginx (proxy_pass, keepalive
// upstream) and Caddy (reverse_proxy), in one run, on loopback. Every proxy is in front of the
// same fast back end, a separate nginx (one worker, no access log, keep-alive; `/` answers "ok\n",
// `/10k` 10 KiB), so what is measured is the proxy and not the back end. wrk HTTP/1.1 keep-alive
// (small and 10 KiB answers: requests/s and p99 latency), h2load HTTP/2 over TLS (h2 by ALPN, one
// self-signed certificate for all), and static files vs nginx (10 KiB: requests/s; 100 MiB:
// throughput). Runs are short and interleaved (drift hits all alike).
// The built server runs through bench/reverseproxy-server.mjs (one process, no supervising
// parent); the rule is made through the REST API.
// BENCH_BASELINE=<dir>: another checkout of this project with packages/server/dist built (an
// earlier version) runs too, as the contender "lucky@base", set up the same way through its own
// API, in the same interleaved rounds of the proxy workloads (wrk small, wrk 10 KiB, h2load).
// BENCH_ROUNDS / BENCH_SECONDS shorten or lengthen the runs (default 3 rounds of 4 s).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { selfSignedCert } from '../scripts/self-signed-cert.mjs';
import { ensureBenchDeps, freePort, login, median, ROOT, rssMb, startPeer, waitListening } from './lib.mjs';

const HOST = '127.0.0.1';
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 3;
const SECONDS = Number(process.env.BENCH_SECONDS) || 4;
const CONNECTIONS = 32;
const H2_CONNECTIONS = 16;
const H2_STREAMS = 10;
/**
 * Connections one client address (127.0.0.1) may hold at a web service port for the bench: one
 * run's connections plus the previous run's, which may still be closing. The servers that have the
 * per-address cap (webMaxConnsPerAddress, webMaxConns) are checked against it through the API.
 */
const CONNS_NEEDED = 2 * Math.max(CONNECTIONS, H2_CONNECTIONS);
/** Issue: requests/s through the proxy (wrk, h2load) at least Caddy's and at least 0.6× nginx's. */
const VS_CADDY = 1;
const VS_NGINX = 0.6;
const BASE = 'lucky@base';
const SMALL_BODY = 'ok\n';
const BIG_BODY = 10240;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The built server of the checkout at `root`, with the module, in a child process; resolves once
 * its admin API answers. The checkout's own bench/reverseproxy-server.mjs when it has one, else
 * this one's, pointed at its dist (both take CONFIG_DIR and print {"port", "pid"}).
 */
async function startLucky(name, root, configDir) {
  const dist = path.join(root, 'packages/server/dist');
  if (!existsSync(path.join(dist, 'core/server.js'))) throw new Error(`${name}: ${dist} is not built`);
  // With the worker's V8 flags: what runs for users is what is measured.
  const supervise = path.join(dist, 'cli/supervise.js');
  const flags = existsSync(supervise) ? ((await import(pathToFileURL(supervise).href)).WORKER_V8_FLAGS ?? []) : [];
  const own = path.join(root, 'bench/reverseproxy-server.mjs');
  const launcher = existsSync(own) ? own : path.join(ROOT, 'bench/reverseproxy-server.mjs');
  const child = spawn(process.execPath, [...flags, launcher, configDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LUCKY_BENCH_DIST: dist },
  });
  const exited = new Promise((r) => child.once('exit', r));
  let timer;
  try {
    const line = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      exited.then((code) => reject(new Error(`${name}: ${launcher} exited with ${code}`)));
      timer = setTimeout(() => reject(new Error(`${name}: ${launcher} did not announce its port within 30 s`)), 30_000);
    });
    clearTimeout(timer);
    const { port } = JSON.parse(line);
    return {
      name,
      base: `http://${HOST}:${port}`,
      pid: child.pid,
      async stop() {
        child.kill('SIGTERM');
        await Promise.race([exited, sleep(5000)]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      },
    };
  } catch (err) {
    clearTimeout(timer);
    child.kill('SIGKILL');
    throw err;
  }
}

/**
 * As an admin would: the certificate into the store, one listener (HTTP and HTTPS on one port, h2
 * by ALPN) with a proxy sub rule to the upstream and a file-server sub rule, all through the API.
 * Where the server caps connections per address, the cap must let the bench's connections in.
 */
async function configureLucky(lucky, { port, upstream, files, cert, key }) {
  const token = await login(lucky.base);
  const api = async (method, p, body) => {
    const r = await fetch(lucky.base + p, {
      method,
      headers: { authorization: token, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    const json = await r.json();
    if (json.ret !== 0) throw new Error(`${lucky.name}: ${method} ${p}: ${JSON.stringify(json)}`);
    return json;
  };
  const settings = (await api('GET', '/api/baseconfigure')).baseconfigure;
  let caps = 'no per-address connection cap';
  if (typeof settings.webMaxConnsPerAddress === 'number') {
    const change = {};
    if (settings.webMaxConnsPerAddress < CONNS_NEEDED) change.webMaxConnsPerAddress = CONNS_NEEDED;
    if (settings.webMaxConns < CONNS_NEEDED) change.webMaxConns = CONNS_NEEDED;
    if (Object.keys(change).length) await api('PUT', '/api/baseconfigure', change);
    const now = { ...settings, ...change };
    caps =
      `webMaxConnsPerAddress ${now.webMaxConnsPerAddress}, webMaxConns ${now.webMaxConns}` +
      `${Object.keys(change).length ? ' (raised through the API)' : ''}`;
  }
  console.log(`${lucky.name}: ${caps}; the bench holds at most ${CONNS_NEEDED} connections from ${HOST}`);
  const b64 = (f) => readFileSync(f).toString('base64');
  await api('POST', '/api/ssl', { CertBase64: b64(cert), KeyBase64: b64(key) });
  const made = await api('POST', '/api/reverseproxy/rules', {
    name: 'bench',
    address: HOST,
    port,
    listenTypes: 'both',
    http2: true,
    subRules: [
      { domains: [HOST], targets: [`http://${HOST}:${upstream}`] },
      {
        domains: [HOST],
        pathPrefix: '/files',
        serviceType: 'files',
        mounts: [{ urlPath: '/files', dir: files }],
      },
    ],
  });
  if (made.rule.status.state !== 'running')
    throw new Error(`${lucky.name}: rule not running: ${JSON.stringify(made.rule.status)}`);
}

/** Processes whose parent is `pid` (the web service helper processes of the server). */
function childPids(pid) {
  const r = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean).map(Number);
}

const toMs = (v, unit) => Number(v) * { us: 0.001, ms: 1, s: 1000 }[unit];
const toMBs = (v, unit) => Number(v) * { B: 1 / 1048576, KB: 1 / 1024, MB: 1, GB: 1024 }[unit];

/** wrk keep-alive: requests/s, p99 latency (ms) and transfer (MiB/s). */
function wrk(url, connections = CONNECTIONS, seconds = SECONDS, name = url) {
  const out = execFileSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', url], {
    encoding: 'utf8',
    timeout: (seconds + 15) * 1000,
  });
  const errors = /Socket errors: .*|Non-2xx.*/.exec(out);
  if (errors) console.error(`wrk ${name} ${url}: ${errors[0]}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)/m.exec(out);
  const tr = /Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB)/.exec(out);
  return {
    rps,
    p99: p99 ? toMs(p99[1], p99[2]) : Number.NaN,
    mibs: tr ? toMBs(tr[1], tr[2]) : Number.NaN,
  };
}

/**
 * h2load over TLS (h2 by ALPN): requests/s and p99 latency (ms; from its per-request log, as h2load
 * prints no percentiles); failed requests are reported.
 */
function h2load(url, logFile, name = url) {
  const out = execFileSync(
    'h2load',
    ['-t1', `-c${H2_CONNECTIONS}`, `-m${H2_STREAMS}`, '-D', String(SECONDS), `--log-file=${logFile}`, url],
    { encoding: 'utf8', timeout: (SECONDS + 15) * 1000 },
  );
  if (!/Application protocol: h2/.test(out)) throw new Error(`h2load ${url}: no h2\n${out.slice(0, 400)}`);
  const failed = Number(/requests: .*?(\d+) failed/.exec(out)?.[1] ?? 0);
  if (failed) {
    const detail = out.split('\n').filter((l) => /^(requests|status codes):/.test(l));
    console.error(`h2load ${name} ${url}: ${failed} failed (${detail.join('; ')})`);
  }
  // Columns: start (µs since the epoch), status, µs until the end of the answer.
  const durations = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => Number(line.split('\t')[2]))
    .sort((a, b) => a - b);
  const p99 = durations.length
    ? durations[Math.min(durations.length - 1, Math.floor(durations.length * 0.99))] / 1000
    : Number.NaN;
  return { rps: Number(/finished in .*?, ([\d.]+) req\/s/.exec(out)?.[1] ?? 0), p99 };
}

/** Run `measure` for every target, round after round; medians per target and field. */
function interleaved(title, targets, measure) {
  const samples = new Map(targets.map((t) => [t.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets) {
      try {
        samples.get(t.name).push(measure(t));
      } catch (err) {
        console.error(`${title}, ${t.name}: ${err.message.split('\n')[0]}`);
      }
    }
  }
  const field = (name, f) => {
    const xs = (samples.get(name) ?? []).map((s) => s[f]);
    return xs.length ? median(xs) : Number.NaN;
  };
  return field;
}

/** The upstream: its own nginx, one worker, answering from memory (`/`) and a static file (`/10k`). */
function upstreamNginxConf(up, port) {
  return (
    `worker_processes 1;\npid ${up}/nginx.pid;\nerror_log ${up}/error.log warn;\n` +
    `events { worker_connections 4096; }\nhttp {\n  access_log off;\n` +
    `  keepalive_timeout 300s;\n  keepalive_requests 1000000;\n` +
    `  sendfile on;\n  tcp_nopush on;\n  open_file_cache max=16;\n  default_type text/plain;\n` +
    `  client_body_temp_path ${up}/nb; proxy_temp_path ${up}/np; fastcgi_temp_path ${up}/nf;\n` +
    `  uwsgi_temp_path ${up}/nu; scgi_temp_path ${up}/ns;\n` +
    `  server {\n    listen ${HOST}:${port} backlog=4096;\n` +
    `    location = / { return 200 "ok\\n"; }\n` +
    `    location = /10k { root ${up}/www; }\n` +
    `    location / { return 404; }\n  }\n}\n`
  );
}

/** Per workload: requests/s of every contender, p99 where measured, and lucky's ratios. */
function printTable(rows, names) {
  const ratioNames = names.filter((n) => n !== 'lucky' && n !== 'upstream');
  const head = ['workload', ...names, ...ratioNames.map((n) => `lucky/${n.replace('lucky@', '')}`)];
  const fmt = (v, digits) => (Number.isFinite(v) ? v.toFixed(digits) : '–');
  const lines = [head];
  for (const { label, rps, p99 } of rows) {
    lines.push([
      `${label} req/s`,
      ...names.map((n) => fmt(rps(n), 0)),
      ...ratioNames.map((n) => `${fmt((rps('lucky') / rps(n)) * 100, 0)} %`),
    ]);
    if (p99) lines.push([`${label} p99 ms`, ...names.map((n) => fmt(p99(n), 2)), ...ratioNames.map(() => '')]);
  }
  const widths = head.map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  console.log('');
  for (const l of lines) console.log(l.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  '));
  console.log('');
}

export async function benchReverseproxy() {
  ensureBenchDeps();
  const baseline = process.env.BENCH_BASELINE ? path.resolve(process.env.BENCH_BASELINE) : undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-bench-rp-'));
  const peers = [];
  const results = [];
  const luckies = [];
  try {
    // Files for the file servers and the upstream, and one self-signed certificate for all.
    // nginx workers run as nobody when started by root: they must be able to read the files.
    chmodSync(dir, 0o755);
    const files = path.join(dir, 'files');
    const up = path.join(dir, 'upstream');
    for (const d of [
      files,
      path.join(up, 'www'),
      path.join(dir, 'caddy'),
      path.join(dir, 'lucky'),
      path.join(dir, 'base'),
    ])
      mkdirSync(d, { recursive: true, mode: 0o755 });
    writeFileSync(path.join(files, '10k.bin'), Buffer.alloc(BIG_BODY, 'f'));
    writeFileSync(path.join(up, 'www/10k'), Buffer.alloc(BIG_BODY, 'x'));
    const fd = openSync(path.join(files, '100m.bin'), 'w');
    const chunk = Buffer.alloc(1024 * 1024, 'g');
    for (let i = 0; i < 100; i++) writeSync(fd, chunk);
    closeSync(fd);
    const { cert, key } = selfSignedCert(dir, { cn: '127.0.0.1', san: 'IP:127.0.0.1,DNS:localhost' });

    const [upstream, luckyPort, basePort, nginxHttp, nginxTls, caddyHttp, caddyTls] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    writeFileSync(path.join(up, 'nginx.conf'), upstreamNginxConf(up, upstream));
    peers.push(
      startPeer('upstream nginx', 'nginx', ['-p', up, '-c', path.join(up, 'nginx.conf'), '-g', 'daemon off;']),
    );
    // The nginx under test: its own process, config and workers, in front of the upstream nginx.
    writeFileSync(
      path.join(dir, 'nginx.conf'),
      `worker_processes auto;\npid ${dir}/nginx.pid;\nerror_log ${dir}/nginx-error.log warn;\n` +
        `events { worker_connections 4096; }\nhttp {\n  access_log off;\n  keepalive_requests 1000000;\n` +
        `  sendfile on;\n  tcp_nopush on;\n  default_type application/octet-stream;\n` +
        `  client_body_temp_path ${dir}/nb; proxy_temp_path ${dir}/np; fastcgi_temp_path ${dir}/nf;\n` +
        `  uwsgi_temp_path ${dir}/nu; scgi_temp_path ${dir}/ns;\n` +
        `  upstream backend { server ${HOST}:${upstream}; keepalive 64; }\n` +
        `  server {\n    listen ${HOST}:${nginxHttp};\n    listen ${HOST}:${nginxTls} ssl http2;\n` +
        `    ssl_certificate ${cert};\n    ssl_certificate_key ${key};\n` +
        `    location / { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; }\n` +
        `    location /files/ { alias ${files}/; }\n  }\n}\n`,
    );
    peers.push(startPeer('nginx', 'nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;']));
    writeFileSync(
      path.join(dir, 'Caddyfile'),
      `{\n  admin off\n  auto_https off\n  servers {\n    protocols h1 h2\n  }\n}\n` +
        `http://${HOST}:${caddyHttp} {\n  bind ${HOST}\n  reverse_proxy ${HOST}:${upstream}\n}\n` +
        `https://${HOST}:${caddyTls} {\n  bind ${HOST}\n  tls ${cert} ${key}\n  reverse_proxy ${HOST}:${upstream}\n}\n`,
    );
    const xdg = path.join(dir, 'caddy');
    peers.push(
      startPeer('caddy', 'caddy', ['run', '--config', path.join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
        env: { ...process.env, XDG_DATA_HOME: xdg, XDG_CONFIG_HOME: xdg, HOME: xdg },
      }),
    );

    // Ours, and the baseline's: the same setup, each through its own API.
    const contenders = [['lucky', ROOT, path.join(dir, 'lucky'), luckyPort]];
    if (baseline) contenders.push([BASE, baseline, path.join(dir, 'base'), basePort]);
    for (const [name, root, configDir, port] of contenders) {
      const lucky = await startLucky(name, root, configDir);
      luckies.push(lucky);
      await configureLucky(lucky, { port, upstream, files, cert, key });
    }

    const http = { upstream, lucky: luckyPort, nginx: nginxHttp, caddy: caddyHttp };
    const tls = { lucky: luckyPort, nginx: nginxTls, caddy: caddyTls };
    if (baseline) {
      http[BASE] = basePort;
      tls[BASE] = basePort;
    }
    for (const p of new Set([...Object.values(http), ...Object.values(tls)])) await waitListening(p);
    // Every target answers right before the load starts (a wrong config shows here, not as 0 req/s).
    const expectBody = async (name, url, want) => {
      const r = await fetch(url, { signal: AbortSignal.timeout(5000) });
      const body = Buffer.from(await r.arrayBuffer());
      if (r.status !== 200 || !body.equals(want)) throw new Error(`${name}: ${url} answered ${r.status}`);
    };
    for (const [name, port] of Object.entries(http)) {
      await expectBody(name, `http://${HOST}:${port}/`, Buffer.from(SMALL_BODY));
      await expectBody(name, `http://${HOST}:${port}/10k`, Buffer.alloc(BIG_BODY, 'x'));
    }
    for (const [name, port] of Object.entries({ lucky: luckyPort, nginx: nginxHttp }))
      await expectBody(name, `http://${HOST}:${port}/files/10k.bin`, Buffer.alloc(BIG_BODY, 'f'));

    const shown = (n) => (n === 'upstream' ? 'upstream nginx (direct)' : n);
    const ratios = (title, unit, get, names, targets) => {
      for (const n of names) results.push({ name: `${title}: ${shown(n)}`, value: get(n), unit });
      for (const [peer, target] of targets) {
        const ratio = (get('lucky') / get(peer)) * 100;
        results.push({
          name: `${title}: lucky ÷ ${peer}${target ? `, target ≥ ${target * 100} %` : ''}`,
          value: ratio,
          unit: '%',
          ...(target ? { ok: ratio >= target * 100 } : {}),
        });
      }
    };
    // The contenders of the proxy workloads, and lucky's ratios (to the baseline: no target).
    const contending = ['lucky', ...(baseline ? [BASE] : []), 'nginx', 'caddy'];
    const proxies = [...contending, 'upstream'];
    const vsPeers = [...(baseline ? [[BASE, 0]] : []), ['nginx', VS_NGINX], ['caddy', VS_CADDY]];
    const t = (ports, names, p = '/') => names.map((name) => ({ name, url: `http://${HOST}:${ports[name]}${p}` }));
    const table = [];

    // A warm-up round for every target, not measured: JIT, upstream connection pools, and our web
    // service helper processes, which start when the server process stays busy (helperPool.ts).
    for (const x of t(http, proxies)) wrk(x.url, CONNECTIONS, 2, x.name);

    // 1. HTTP/1.1 keep-alive through the proxies (and the upstream alone, for reference).
    for (const [label, p] of [
      ['small', '/'],
      ['10 KiB', '/10k'],
    ]) {
      const r = interleaved(`wrk ${label}`, t(http, proxies, p), (x) => wrk(x.url, CONNECTIONS, SECONDS, x.name));
      ratios(`wrk HTTP/1.1 ${label}, requests/s`, 'req/s', (n) => r(n, 'rps'), proxies, vsPeers);
      for (const n of proxies)
        results.push({ name: `wrk HTTP/1.1 ${label}, p99 latency: ${shown(n)}`, value: r(n, 'p99'), unit: 'ms' });
      table.push({ label: `wrk h1 ${label}`, rps: (n) => r(n, 'rps'), p99: (n) => r(n, 'p99') });
    }

    // 2. HTTP/2 over TLS (h2load: 16 connections × 10 streams).
    const h2 = interleaved(
      'h2load',
      contending.map((name) => ({ name, url: `https://${HOST}:${tls[name]}/` })),
      (x) => h2load(x.url, path.join(dir, 'h2load.log'), x.name),
    );
    ratios('h2load HTTP/2 TLS small, requests/s', 'req/s', (n) => h2(n, 'rps'), contending, vsPeers);
    for (const n of contending)
      results.push({ name: `h2load HTTP/2 TLS small, p99 latency: ${n}`, value: h2(n, 'p99'), unit: 'ms' });
    table.push({ label: 'h2load h2 small', rps: (n) => h2(n, 'rps'), p99: (n) => h2(n, 'p99') });

    // 3. Static files vs nginx: the issue asks for the comparison, its targets are the proxy's.
    const fileNames = ['lucky', 'nginx'];
    const f10 = interleaved('files 10k', t(http, fileNames, '/files/10k.bin'), (x) =>
      wrk(x.url, CONNECTIONS, SECONDS, x.name),
    );
    ratios('static file 10 KiB, requests/s', 'req/s', (n) => f10(n, 'rps'), fileNames, [['nginx', 0]]);
    const f100 = interleaved('files 100m', t(http, fileNames, '/files/100m.bin'), (x) =>
      wrk(x.url, 2, SECONDS, x.name),
    );
    ratios('static file 100 MiB (2 connections), throughput', 'MiB/s', (n) => f100(n, 'mibs'), fileNames, [
      ['nginx', 0],
    ]);

    for (const lucky of luckies) {
      const of = lucky.name === 'lucky' ? '' : ` (${lucky.name})`;
      results.push({ name: `server RSS after the web service benchmark${of}`, value: rssMb(lucky.pid), unit: 'MB' });
      const helpers = childPids(lucky.pid);
      results.push({ name: `web service helper processes after the benchmark${of}`, value: helpers.length, unit: '' });
      results.push({
        name: `RSS of the helper processes together${of}`,
        value: helpers.reduce((sum, pid) => sum + rssMb(pid), 0),
        unit: 'MB',
      });
    }
    console.log(
      `web service: ${ROUNDS} interleaved rounds of ${SECONDS} s, medians; wrk ${CONNECTIONS} connections, ` +
        `h2load ${H2_CONNECTIONS} connections × ${H2_STREAMS} streams; upstream: nginx, 1 worker` +
        `${baseline ? `; ${BASE}: ${baseline}` : ''}`,
    );
    printTable(table, [...contending, 'upstream']);
  } finally {
    for (const p of peers.reverse()) await p.stop();
    for (const lucky of luckies) await lucky.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

// `node bench/reverseproxy.mjs`: this benchmark alone (the server must be built).
if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, 'bench/reverseproxy.mjs')) {
  for (const r of await benchReverseproxy()) console.log(`${r.name.padEnd(70)} ${r.value.toFixed(1)} ${r.unit}`);
}
