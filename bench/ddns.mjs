// DDNS (issue 4): 200 tasks on one interval against a local stub provider. The built DDNS
// runtime drives whole check rounds; the stub (a PowerDNS-API look-alike) and the public-IP
// echo pages run in a child process, so the CPU time measured is the program's alone.
// Reported: CPU time, wall time and memory per round, and the provider calls, which must
// only be made for records whose IP changed.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { freePort, ROOT } from './lib.mjs';

const TASKS = 200;
/** Echo pages; the tasks are spread over them so one IP change touches a tenth of the tasks. */
const ECHOES = 10;
const STEADY_ROUNDS = Number(process.env.DDNS_BENCH_ROUNDS ?? 100);

const STUB = `
import http from 'node:http';
const [port, echoes] = process.argv.slice(1).map(Number);
const rrsets = new Map();
const stats = { calls: 0, patches: 0 };
const ips = Array.from({ length: echoes }, () => '198.51.100.1');
http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    if (req.url === '/__stats') return res.end(JSON.stringify(stats));
    if (req.url.startsWith('/__set/')) { const [, , i, ip] = req.url.split('/'); ips[Number(i)] = ip; return res.end('ok'); }
    if (req.url.startsWith('/echo/')) return res.end('ip ' + ips[Number(req.url.slice(6))] + '\\n');
    stats.calls++;
    if (req.headers['x-api-key'] !== 'bench') { res.writeHead(401); return res.end('{"error":"Unauthorized"}'); }
    if (req.method === 'GET') {
      const u = new URL(req.url, 'http://x');
      const name = u.searchParams.get('rrset_name'); const type = u.searchParams.get('rrset_type');
      const r = rrsets.get(name + type);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ name: 'bench.test.', rrsets: r ? [r] : [] }));
    }
    if (req.method === 'PATCH') {
      stats.patches++;
      for (const r of JSON.parse(body).rrsets) rrsets.set(r.name + r.type, { name: r.name, type: r.type, ttl: r.ttl, records: r.records });
      res.writeHead(204); return res.end();
    }
    res.writeHead(404); res.end();
  });
}).listen(port, '127.0.0.1');
`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (b) => b / 1024 / 1024;

async function waitHttp(url) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await sleep(25);
  }
  throw new Error(`stub did not start: ${url}`);
}

export async function benchDdns() {
  const dist = path.join(ROOT, 'packages/server/dist');
  const { DdnsRuntime } = await import(path.join(dist, 'modules/ddns/runtime.js'));
  const { silentLogger } = await import(path.join(dist, 'core/logs/logger.js'));
  const { ddnsConfigSchema } = await import('@lucky/shared');
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');

  const port = await freePort();
  const child = spawn(process.execPath, ['--input-type=module', '-e', STUB, String(port), String(ECHOES)], {
    stdio: 'ignore',
  });
  const api = `http://127.0.0.1:${port}`;
  await waitHttp(`${api}/__stats`);
  const stats = async () => (await fetch(`${api}/__stats`)).json();

  const tasks = Array.from({ length: TASKS }, (_, i) => ({
    key: `bench${String(i).padStart(4, '0')}`,
    name: `task ${i}`,
    domains: [`h${i}.bench.test`],
    ipSource: { type: 'url', urls: [`${api}/echo/${i % ECHOES}`] },
    dns: { provider: 'powerdns', server: api, secret: 'bench', zone: 'bench.test' },
    ttl: 60,
  }));
  const config = ddnsConfigSchema.parse({ enabled: true, interval: 300, tasks });
  const ctx = {
    key: 'ddns',
    log: silentLogger,
    configDir: ROOT,
    signal: new AbortController().signal,
    // The benchmark drives the rounds itself: no timers.
    setTimeout: () => undefined,
    setInterval: () => undefined,
    saveConfig: async () => {},
  };
  let providerCalls = 0;
  gc();
  const heapEmpty = process.memoryUsage().heapUsed;
  const rt = new DdnsRuntime(ctx, { onProviderCall: () => providerCalls++ });
  // Its first round would come from a timer, and the context's timers do nothing here.
  await rt.start(config);

  const round = async () => {
    const before = await stats();
    const calls0 = providerCalls;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await rt.runRound();
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const after = await stats();
    return {
      wall,
      cpuMs: (cpu.user + cpu.system) / 1000,
      httpCalls: after.calls - before.calls,
      patches: after.patches - before.patches,
      syncs: providerCalls - calls0,
    };
  };
  const statuses = () => {
    const count = {};
    for (const t of tasks) for (const d of rt.view(t.key).domains) count[d.status] = (count[d.status] ?? 0) + 1;
    return count;
  };

  const results = [];
  const first = await round();
  const firstStatuses = statuses();
  gc();
  const heapTasks = process.memoryUsage().heapUsed - heapEmpty;
  results.push({
    name: `${TASKS} tasks, first round: wall time (creates ${TASKS} records)`,
    value: first.wall,
    unit: 'ms',
  });
  results.push({ name: `${TASKS} tasks, first round: CPU time`, value: first.cpuMs, unit: 'ms' });
  results.push({
    name: `${TASKS} tasks, first round: provider HTTP calls (look-up + write per record)`,
    value: first.httpCalls,
    unit: 'calls',
    budget: TASKS * 2,
    ok: first.httpCalls === TASKS * 2 && firstStatuses.succeeded === TASKS,
  });

  // A few rounds first: the first ones warm up code and connection pools, not state.
  for (let i = 0; i < 5; i++) await round();
  gc();
  const heapBase = process.memoryUsage().heapUsed;
  const steady = [];
  for (let i = 0; i < STEADY_ROUNDS; i++) steady.push(await round());
  gc();
  const heapAfter = process.memoryUsage().heapUsed;
  const steadyCpu = steady.map((r) => r.cpuMs).sort((a, b) => a - b)[Math.floor(STEADY_ROUNDS / 2)];
  const steadyWall = steady.map((r) => r.wall).sort((a, b) => a - b)[Math.floor(STEADY_ROUNDS / 2)];
  const steadyCalls = steady.reduce((n, r) => n + r.httpCalls, 0);
  const steadyStatuses = statuses();
  results.push({
    name: `${TASKS} tasks, unchanged IP: CPU time per round (median of ${STEADY_ROUNDS})`,
    value: steadyCpu,
    unit: 'ms',
    budget: 50,
  });
  results.push({ name: `${TASKS} tasks, unchanged IP: wall time per round (median)`, value: steadyWall, unit: 'ms' });
  results.push({
    name: `${TASKS} tasks, unchanged IP: provider calls in ${STEADY_ROUNDS} rounds`,
    value: steadyCalls,
    unit: 'calls',
    budget: 0,
    ok: steadyCalls === 0 && steadyStatuses.ipUnchanged === TASKS,
  });
  results.push({
    name: `heap growth over ${STEADY_ROUNDS} unchanged rounds (after GC)`,
    value: mb(heapAfter - heapBase),
    unit: 'MB',
    budget: 2,
  });

  // One echo page of ten answers a new address: a tenth of the tasks changed.
  await fetch(`${api}/__set/3/198.51.100.2`);
  const changed = await round();
  const expected = TASKS / ECHOES;
  results.push({
    name: `${expected} of ${TASKS} tasks changed IP: CPU time of the round`,
    value: changed.cpuMs,
    unit: 'ms',
  });
  results.push({
    name: `${expected} of ${TASKS} tasks changed IP: provider writes (PATCH)`,
    value: changed.patches,
    unit: 'calls',
    budget: expected,
    ok: changed.patches === expected && changed.httpCalls === expected * 2 && changed.syncs === expected,
  });

  results.push({
    name: `heap of the runtime with ${TASKS} tasks (config, state, clients)`,
    value: mb(heapTasks),
    unit: 'MB',
    budget: 10,
  });
  results.push({ name: 'RSS of the benchmark process', value: mb(process.memoryUsage().rss), unit: 'MB' });

  await rt.stop();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { buildIfNeeded } = await import('../scripts/build-if-needed.mjs');
  buildIfNeeded();
  for (const r of await benchDdns()) console.log(r);
}
