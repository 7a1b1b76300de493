// The web service (reverse proxy + file server) side by side with nginx (proxy_pass, keepalive
// upstream) and Caddy (reverse_proxy), in one run, on loopback, all in front of one node back end:
// wrk HTTP/1.1 keep-alive (small and 10 KiB answers: requests/s and p99 latency), h2load HTTP/2
// over TLS (h2 by ALPN, one self-signed certificate for all three), and static files vs nginx
// (10 KiB: requests/s; 100 MiB: throughput). Runs are short and interleaved (drift hits all alike).
// The built server runs through bench/reverseproxy-server.mjs (one process, no supervising
// parent); the rule is made through the REST API.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { selfSignedCert } from '../scripts/self-signed-cert.mjs';
import {
  BACKEND_SOURCE,
  ensureBenchDeps,
  freePort,
  login,
  median,
  ROOT,
  rssMb,
  startPeer,
  waitListening,
} from './lib.mjs';

const HOST = '127.0.0.1';
const ROUNDS = 3;
const SECONDS = 4;
const CONNECTIONS = 32;
/** Issue: requests/s through the proxy (wrk, h2load) at least Caddy's and at least 0.6× nginx's. */
const VS_CADDY = 1;
const VS_NGINX = 0.6;

/** The built server with the module, in a child process; resolves once its admin API answers. */
async function startLucky(configDir) {
  // With the worker's V8 flags: what runs for users is what is measured.
  const { WORKER_V8_FLAGS } = await import(path.join(ROOT, 'packages/server/dist/cli/supervise.js'));
  const child = spawn(
    process.execPath,
    [...WORKER_V8_FLAGS, path.join(ROOT, 'bench/reverseproxy-server.mjs'), configDir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`bench/reverseproxy-server.mjs exited with ${code}`)));
  });
  const { port } = JSON.parse(line);
  return {
    base: `http://${HOST}:${port}`,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}

/** Processes whose parent is `pid` (the web service helper processes of the server). */
function childPids(pid) {
  const r = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean).map(Number);
}

const toMs = (v, unit) => Number(v) * { us: 0.001, ms: 1, s: 1000 }[unit];
const toMBs = (v, unit) => Number(v) * { B: 1 / 1048576, KB: 1 / 1024, MB: 1, GB: 1024 }[unit];

/** wrk keep-alive: requests/s, p99 latency (ms) and transfer (MiB/s). */
function wrk(url, connections = CONNECTIONS, seconds = SECONDS) {
  const out = execFileSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', url], {
    encoding: 'utf8',
    timeout: (seconds + 15) * 1000,
  });
  const errors = /Socket errors: .*|Non-2xx.*/.exec(out);
  if (errors) console.error(`wrk ${url}: ${errors[0]}`);
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
function h2load(url, logFile) {
  const out = execFileSync('h2load', ['-t1', '-c16', '-m10', '-D', String(SECONDS), `--log-file=${logFile}`, url], {
    encoding: 'utf8',
    timeout: (SECONDS + 15) * 1000,
  });
  if (!/Application protocol: h2/.test(out)) throw new Error(`h2load ${url}: no h2\n${out.slice(0, 400)}`);
  const failed = Number(/requests: .*?(\d+) failed/.exec(out)?.[1] ?? 0);
  if (failed) console.error(`h2load ${url}: ${failed} failed`);
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
    const xs = samples.get(name).map((s) => s[f]);
    return xs.length ? median(xs) : Number.NaN;
  };
  return field;
}

export async function benchReverseproxy() {
  ensureBenchDeps();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-bench-rp-'));
  const peers = [];
  const results = [];
  let lucky;
  try {
    // Files for the file servers, and one self-signed certificate for all three.
    // nginx workers run as nobody when started by root: they must be able to read the files.
    chmodSync(dir, 0o755);
    const files = path.join(dir, 'files');
    execFileSync('mkdir', ['-p', files, path.join(dir, 'caddy'), path.join(dir, 'lucky')]);
    writeFileSync(path.join(files, '10k.bin'), Buffer.alloc(10240, 'f'));
    const fd = openSync(path.join(files, '100m.bin'), 'w');
    const chunk = Buffer.alloc(1024 * 1024, 'g');
    for (let i = 0; i < 100; i++) writeSync(fd, chunk);
    closeSync(fd);
    const { cert, key } = selfSignedCert(dir, { cn: '127.0.0.1', san: 'IP:127.0.0.1,DNS:localhost' });

    const backendPort = await freePort();
    const [luckyPort, nginxHttp, nginxTls, caddyHttp, caddyTls] = [
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
      await freePort(),
    ];
    peers.push(
      startPeer('backend', process.execPath, ['--input-type=module', '-e', BACKEND_SOURCE, String(backendPort)], {
        detached: true,
      }),
    );
    writeFileSync(
      path.join(dir, 'nginx.conf'),
      `worker_processes auto;\npid ${dir}/nginx.pid;\nerror_log ${dir}/nginx-error.log warn;\n` +
        `events { worker_connections 4096; }\nhttp {\n  access_log off;\n  keepalive_requests 1000000;\n` +
        `  sendfile on;\n  tcp_nopush on;\n  default_type application/octet-stream;\n` +
        `  client_body_temp_path ${dir}/nb; proxy_temp_path ${dir}/np; fastcgi_temp_path ${dir}/nf;\n` +
        `  uwsgi_temp_path ${dir}/nu; scgi_temp_path ${dir}/ns;\n` +
        `  upstream backend { server ${HOST}:${backendPort}; keepalive 64; }\n` +
        `  server {\n    listen ${HOST}:${nginxHttp};\n    listen ${HOST}:${nginxTls} ssl http2;\n` +
        `    ssl_certificate ${cert};\n    ssl_certificate_key ${key};\n` +
        `    location / { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; }\n` +
        `    location /files/ { alias ${files}/; }\n  }\n}\n`,
    );
    peers.push(startPeer('nginx', 'nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;']));
    writeFileSync(
      path.join(dir, 'Caddyfile'),
      `{\n  admin off\n  auto_https off\n  servers {\n    protocols h1 h2\n  }\n}\n` +
        `http://${HOST}:${caddyHttp} {\n  bind ${HOST}\n  reverse_proxy ${HOST}:${backendPort}\n}\n` +
        `https://${HOST}:${caddyTls} {\n  bind ${HOST}\n  tls ${cert} ${key}\n  reverse_proxy ${HOST}:${backendPort}\n}\n`,
    );
    const xdg = path.join(dir, 'caddy');
    peers.push(
      startPeer('caddy', 'caddy', ['run', '--config', path.join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
        env: { ...process.env, XDG_DATA_HOME: xdg, XDG_CONFIG_HOME: xdg, HOME: xdg },
      }),
    );

    // Ours: the certificate into the store, one listener (HTTP and HTTPS on one port, h2 by ALPN)
    // with a proxy sub rule and a file-server sub rule, as an admin would make them.
    lucky = await startLucky(path.join(dir, 'lucky'));
    const token = await login(lucky.base);
    const api = async (method, p, body) => {
      const r = await fetch(lucky.base + p, {
        method,
        headers: { authorization: token, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = await r.json();
      if (json.ret !== 0) throw new Error(`${method} ${p}: ${JSON.stringify(json)}`);
      return json;
    };
    const b64 = (f) => readFileSync(f).toString('base64');
    await api('POST', '/api/ssl', { CertBase64: b64(cert), KeyBase64: b64(key) });
    const made = await api('POST', '/api/reverseproxy/rules', {
      name: 'bench',
      address: HOST,
      port: luckyPort,
      listenTypes: 'both',
      http2: true,
      subRules: [
        { domains: [HOST], targets: [`http://${HOST}:${backendPort}`] },
        {
          domains: [HOST],
          pathPrefix: '/files',
          serviceType: 'files',
          mounts: [{ urlPath: '/files', dir: files }],
        },
      ],
    });
    if (made.rule.status.state !== 'running') throw new Error(`rule not running: ${JSON.stringify(made.rule.status)}`);

    for (const p of [backendPort, luckyPort, nginxHttp, nginxTls, caddyHttp, caddyTls]) await waitListening(p);
    // Every target answers right before the load starts (a wrong config shows here, not as 0 req/s).
    const http = { direct: backendPort, lucky: luckyPort, nginx: nginxHttp, caddy: caddyHttp };
    const tls = { lucky: luckyPort, nginx: nginxTls, caddy: caddyTls };
    for (const [name, port] of Object.entries(http)) {
      const r = await fetch(`http://${HOST}:${port}/10k`);
      const body = await r.arrayBuffer();
      if (r.status !== 200 || body.byteLength !== 10240) throw new Error(`${name}: /10k answered ${r.status}`);
    }
    for (const [name, port] of Object.entries({ lucky: luckyPort, nginx: nginxHttp })) {
      const r = await fetch(`http://${HOST}:${port}/files/10k.bin`);
      const body = await r.arrayBuffer();
      if (r.status !== 200 || body.byteLength !== 10240)
        throw new Error(`${name}: /files/10k.bin answered ${r.status}`);
    }

    const ratios = (title, unit, get, names, targets) => {
      for (const n of names) results.push({ name: `${title}: ${n}`, value: get(n), unit });
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
    const proxies = ['direct', 'lucky', 'nginx', 'caddy'];
    const vsPeers = [
      ['caddy', VS_CADDY],
      ['nginx', VS_NGINX],
    ];
    const t = (ports, names, p = '/') => names.map((name) => ({ name, url: `http://${HOST}:${ports[name]}${p}` }));

    // A warm-up round for every target, not measured: JIT, back-end connection pools, and our web
    // service helper processes, which start when the server process stays busy (helperPool.ts).
    for (const x of t(http, proxies)) wrk(x.url, 32, 2);

    // 1. HTTP/1.1 keep-alive through the proxies.
    for (const [label, p] of [
      ['small', '/'],
      ['10 KiB', '/10k'],
    ]) {
      const r = interleaved(`wrk ${label}`, t(http, proxies, p), (x) => wrk(x.url));
      ratios(`wrk HTTP/1.1 ${label}, requests/s`, 'req/s', (n) => r(n, 'rps'), proxies, vsPeers);
      for (const n of proxies)
        results.push({ name: `wrk HTTP/1.1 ${label}, p99 latency: ${n}`, value: r(n, 'p99'), unit: 'ms' });
    }

    // 2. HTTP/2 over TLS (h2load: 16 connections × 10 streams).
    const h2names = ['lucky', 'nginx', 'caddy'];
    const h2 = interleaved(
      'h2load',
      h2names.map((name) => ({ name, url: `https://${HOST}:${tls[name]}/` })),
      (x) => h2load(x.url, path.join(dir, 'h2load.log')),
    );
    ratios('h2load HTTP/2 TLS small, requests/s', 'req/s', (n) => h2(n, 'rps'), h2names, vsPeers);
    for (const n of h2names)
      results.push({ name: `h2load HTTP/2 TLS small, p99 latency: ${n}`, value: h2(n, 'p99'), unit: 'ms' });

    // 3. Static files vs nginx: the issue asks for the comparison, its targets are the proxy's.
    const fileNames = ['lucky', 'nginx'];
    const f10 = interleaved('files 10k', t(http, fileNames, '/files/10k.bin'), (x) => wrk(x.url));
    ratios('static file 10 KiB, requests/s', 'req/s', (n) => f10(n, 'rps'), fileNames, [['nginx', 0]]);
    const f100 = interleaved('files 100m', t(http, fileNames, '/files/100m.bin'), (x) => wrk(x.url, 2));
    ratios('static file 100 MiB (2 connections), throughput', 'MiB/s', (n) => f100(n, 'mibs'), fileNames, [
      ['nginx', 0],
    ]);

    results.push({ name: 'server RSS after the web service benchmark', value: rssMb(lucky.pid), unit: 'MB' });
    const helpers = childPids(lucky.pid);
    results.push({ name: 'web service helper processes after the benchmark', value: helpers.length, unit: '' });
    results.push({
      name: 'RSS of the helper processes together',
      value: helpers.reduce((sum, pid) => sum + rssMb(pid), 0),
      unit: 'MB',
    });
  } finally {
    for (const p of peers.reverse()) await p.stop();
    await lucky?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

// `node bench/reverseproxy.mjs`: this benchmark alone (the server must be built).
if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, 'bench/reverseproxy.mjs')) {
  for (const r of await benchReverseproxy()) console.log(`${r.name.padEnd(70)} ${r.value.toFixed(1)} ${r.unit}`);
}
