// STUN's built-in forwarding in the NAT lab (packages/server/test/natlab/lab.ts, imported through
// tsx): the console runs in the home namespace behind a full-cone router, coturn answers STUN in
// the public namespace, and iperf3 in public measures four paths to iperf3 servers in home:
//
//   stun         WAN:P  --router's full-cone mapping-->  home:P  (STUN rule, its own relay)  --> iperf3
//   portforward  WAN:Q  --router DNAT-->                 home:Q  (port forwarding rule)      --> iperf3
//   socat        WAN:S  --router DNAT-->                 home:S  (socat)                     --> iperf3
//   direct       WAN:D  --router DNAT-->                 iperf3  (the ceiling of the path)
//
// TCP throughput both ways, UDP packets/s at a high offered rate with the loss (and the console's
// CPU per datagram), interleaved rounds after a warm-up, medians. First, the console's idle memory with 10 STUN rules (TCP + UDP each,
// heartbeats running) against the same console with none. `node bench/stun.mjs` runs it alone
// (through npm exec, for the project's Node); bench/run.mjs runs it with the others.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { ENTRY, ensureBenchDeps, login, median, ROOT, rssMb } from './lib.mjs';

const ROUNDS = 3;
const IPERF_SECONDS = 2;
const WARMUP_SECONDS = 1;
/** UDP: 200-byte datagrams at 200 Mbit/s (125k/s as far as the sender keeps up): more than any relay here passes. */
const UDP_ARGS = ['-u', '-b', '200M', '-l', '200'];
/** And at 10k datagrams/s (16 Mbit/s), which both relays pass: their CPU per datagram, whatever else runs. */
const UDP_STEADY_ARGS = ['-u', '-b', '16M', '-l', '200'];
const MEMORY_RULES = 10;
/** The shortest heartbeat a rule may have: the memory figure includes heartbeats that run. */
const HEARTBEAT_SEC = 5;
/**
 * How far the medians of one path moved between whole runs of this bench on the 2-core build
 * machine (TCP ratios from 81 to 120 %): a defeat smaller than this is printed as within the drift.
 */
const DRIFT = 0.1;
/** USER_HZ: the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

const ADMIN_PORT = 16650;
/**
 * One iperf3 server per path (same program, same namespace): a relay still draining its socket
 * buffers after a UDP run would otherwise hand the shared server a stale datagram as the next
 * test's first, which iperf3 takes for its client, and that test hangs.
 */
const IPERF_PORTS = { stun: 5201, portforward: 5202, socat: 5203, direct: 5204 };
const PORTS = { stun: 40100, portforward: 40200, socat: 40300, direct: 40400 };
const PATHS = Object.keys(PORTS);
/** Local ports of the memory rules: 41000, 41001, … */
const MEMORY_PORT_BASE = 41000;
/** The bench's own nftables table in the router namespace (the lab's own is lucky_lab). */
const DNAT_TABLE = 'lucky_bench';

const lab = await tsImport('../packages/server/test/natlab/lab.ts', import.meta.url);
const { waitFor } = await tsImport('../packages/server/test/wait.ts', import.meta.url);
const PEERS = path.join(ROOT, 'packages/server/test/natlab/peers.ts');

/** The admin API of the console in home, over the lab's management veth. */
function adminApi(base, token) {
  return async (method, p, body) => {
    const r = await fetch(base + p, {
      method,
      headers: { authorization: token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await r.json();
    if (json.ret !== 0) throw new Error(`${method} ${p}: ${JSON.stringify(json)}`);
    return json;
  };
}

/** A process in a namespace that prints `"ready":true` when it serves (natlab/peers.ts). */
async function startReadyPeer(l, ns, args) {
  const [node, nodeArgs] = lab.nodeCommand(PEERS, args);
  const child = l.spawn(ns, node, nodeArgs);
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      if (out.includes('"ready":true')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`peer ${args[0]} exited ${code}: ${out}`)));
  });
}

/** Resolves when home has a listener for every `proto:port` (ss, so no probe reaches iperf3). */
function listeningInHome(l, sockets, what) {
  return waitFor(
    async () => {
      const { stdout } = await l.exec(l.home, 'ss', ['-lntuH']);
      return sockets.filter((s) => {
        const [proto, port] = s.split(':');
        return !new RegExp(`^${proto}\\s.*:${port}\\s`, 'm').test(stdout);
      });
    },
    (missing) => missing.length === 0,
    { timeout: 15_000, interval: 100, what },
  );
}

/** The router forwards WAN:Q and WAN:S to the same port in home and WAN:D to iperf3, TCP and UDP alike. */
function dnatRuleset(wanIp, homeIp) {
  const rule = (proto, port, to) => `    ip daddr ${wanIp} ${proto} dport ${port} dnat ip to ${to}`;
  const lines = [];
  for (const proto of ['tcp', 'udp']) {
    lines.push(rule(proto, PORTS.portforward, `${homeIp}:${PORTS.portforward}`));
    lines.push(rule(proto, PORTS.socat, `${homeIp}:${PORTS.socat}`));
    lines.push(rule(proto, PORTS.direct, `${homeIp}:${IPERF_PORTS.direct}`));
  }
  // Ahead of the lab's cone map (priority dstnat), though none of these ports is ever mapped there.
  return [
    `table ip ${DNAT_TABLE} {`,
    '  chain pre {',
    '    type nat hook prerouting priority dstnat - 10; policy accept;',
    ...lines,
    '  }',
    '}',
    '',
  ].join('\n');
}

/** One iperf3 run from the public namespace to WAN:port; its `end` section. */
async function iperf(l, port, extra, seconds) {
  const args = ['-c', l.wanIp, '-p', String(port), '-t', String(seconds), '--connect-timeout', '3000', '-J', ...extra];
  // A lossy UDP test can still leave iperf3 waiting for a datagram that was dropped (its UDP
  // handshake has no retry, esnet/iperf#351): a run that outlives its time by far is killed
  // (lab.exec) and tried again once.
  const r = await l.exec(l.pub, 'iperf3', args, { timeoutMs: (seconds + 8) * 1000 });
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    throw new Error(`iperf3 exited ${r.code}: ${(r.stderr || r.stdout).trim().slice(0, 300)}`);
  }
  if (json.error) throw new Error(`iperf3: ${json.error}`);
  return json.end;
}

/** CPU time (user + system) of a process so far, in ms. */
function cpuMs(pid) {
  // /proc/<pid>/stat: fields 14 and 15 (utime, stime) in clock ticks, counted after the name's ')'.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** The console's own relays (the other paths are socat and the router's DNAT alone). */
const RELAYS = PATHS.filter((p) => p !== 'socat' && p !== 'direct');
const UDP_RECEIVED = `UDP received (iperf3 ${UDP_ARGS.join(' ')})`;
const gbit = (end) => end.sum_received.bits_per_second / 1e9;
/** UDP as iperf3's server saw it. */
const got = (end) => end.sum.packets - end.sum.lost_packets;
const lossPct = (end) => (end.sum.lost_packets / Math.max(1, end.sum.packets)) * 100;
/** The console's own CPU (not the kernel's work in other processes) per datagram that arrived. */
const cpuPerDatagram = (end, cpu) => (cpu * 1000) / Math.max(1, got(end));

/** The iperf3 runs, each on every path it names, in this order within a round. */
const RUNS = [
  { id: 'tcp', args: [], paths: PATHS },
  { id: 'tcpR', args: ['-R'], paths: PATHS },
  { id: 'udp', args: UDP_ARGS, paths: PATHS },
  { id: 'udpSteady', args: UDP_STEADY_ARGS, paths: RELAYS },
];

/**
 * The rows: which run they read and how (on its paths, or the `paths` given), and whether more is
 * better (`compare: false`: shown, not compared). The loss is compared in points, further below.
 */
const FIGURES = [
  { title: 'TCP throughput', run: 'tcp', unit: 'Gbit/s', higher: true, read: gbit },
  { title: 'TCP throughput reverse (-R)', run: 'tcpR', unit: 'Gbit/s', higher: true, read: gbit },
  {
    title: UDP_RECEIVED,
    run: 'udp',
    unit: 'pkt/s',
    higher: true,
    read: (end) => got(end) / end.sum.seconds,
  },
  // The sender shares two cores with the relays: what it got to send explains the loss.
  {
    title: 'UDP sent (as fast as the sender got)',
    run: 'udp',
    unit: 'pkt/s',
    compare: false,
    read: (end) => end.sum.packets / end.sum.seconds,
  },
  { title: 'UDP loss', run: 'udp', unit: '%', higher: false, loss: true, read: lossPct },
  { title: 'console CPU per datagram', run: 'udp', paths: RELAYS, unit: 'µs', higher: false, read: cpuPerDatagram },
  // At a rate both relays keep up with, the CPU figure does not depend on what else the machine runs.
  {
    title: 'console CPU per datagram at 10k/s',
    run: 'udpSteady',
    unit: 'µs',
    higher: false,
    read: cpuPerDatagram,
  },
  { title: 'UDP loss at 10k/s', run: 'udpSteady', unit: '%', higher: false, loss: true, read: lossPct },
];

/**
 * Every run on every path, round after round (interleaved, so drift hits all paths alike), after
 * one short warm-up round; medians. A run that fails twice is reported and left out.
 */
async function measureAll(l, pid, signal) {
  const samples = new Map();
  for (let round = -1; round < ROUNDS; round++) {
    const warmUp = round < 0;
    for (const run of RUNS) {
      for (const name of run.paths) {
        for (let attempt = 1; attempt <= 2; attempt++) {
          if (signal.aborted) throw new Error('interrupted');
          try {
            const cpu0 = cpuMs(pid);
            const end = await iperf(l, PORTS[name], run.args, warmUp ? WARMUP_SECONDS : IPERF_SECONDS);
            const cpu = cpuMs(pid) - cpu0;
            if (warmUp) break;
            for (const f of FIGURES.filter((x) => x.run === run.id)) {
              const k = `${f.title}\u0000${name}`;
              samples.set(k, [...(samples.get(k) ?? []), f.read(end, cpu)]);
            }
            break;
          } catch (err) {
            console.error(`${warmUp ? 'warm-up' : `round ${round + 1}`}, ${run.id}, ${name}: ${err.message}`);
          }
        }
      }
    }
  }
  return (title, name) => {
    const v = samples.get(`${title}\u0000${name}`);
    return v?.length ? median(v) : Number.NaN;
  };
}

/** RSS samples a few times over a second; the median (a GC in between moves single readings). */
async function settledRss(pid) {
  const xs = [];
  for (let i = 0; i < 5; i++) {
    xs.push(rssMb(pid));
    await new Promise((r) => setTimeout(r, 200));
  }
  return median(xs);
}

export async function benchStun() {
  ensureBenchDeps();
  // STUN over TCP shares its port through the native helper (scripts/build-native.mjs, run by the build).
  if (!existsSync(path.join(ROOT, 'packages/server/native/build/sharedport.node')))
    throw new Error('STUN bench: the shared-port helper is not built (npm run build, with gcc installed)');
  const results = [];
  const losses = [];
  let l;
  let dir;
  const interrupted = new AbortController();
  const onSignal = async (sig) => {
    // The measurements stop at the next run; the lab goes now.
    interrupted.abort();
    await l?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
    process.exit(sig === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    l = await lab.createLab({ nat: 'fullCone' });
    await l.startCoturn();
    // The TCP mappings hold a keep-alive connection to a web server in public (as to baidu.com at home).
    await startReadyPeer(l, l.pub, ['http-keepalive', l.publicIps[1], '8080']);
    for (const port of Object.values(IPERF_PORTS)) l.spawn(l.home, 'iperf3', ['-s', '-p', String(port)]);
    const socatTarget = `127.0.0.1:${IPERF_PORTS.socat}`;
    l.spawn(l.home, 'socat', [`TCP-LISTEN:${PORTS.socat},reuseaddr,fork,backlog=1024`, `TCP:${socatTarget}`]);
    // -T 10: a UDP child ends after 10 s without traffic, like a session time-out.
    l.spawn(l.home, 'socat', ['-T', '10', `UDP4-LISTEN:${PORTS.socat},reuseaddr,fork`, `UDP4:${socatTarget}`]);
    const nft = await l.exec(l.router, 'nft', ['-f', '-'], { input: dnatRuleset(l.wanIp, l.homeIp) });
    if (nft.code !== 0) throw new Error(`router DNAT: ${nft.stderr.trim()}`);

    dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-bench-stun-'));
    const console_ = l.spawn(l.home, process.execPath, [
      ENTRY,
      '-p',
      String(ADMIN_PORT),
      '-cd',
      dir,
      '--host',
      l.mgmt.homeIp,
    ]);
    let out = '';
    console_.stdout?.on('data', (d) => {
      out += d;
    });
    console_.stderr?.on('data', (d) => {
      out += d;
    });
    const base = `http://${l.mgmt.homeIp}:${ADMIN_PORT}`;
    await waitFor(async () => (await fetch(`${base}/version`).catch(() => undefined))?.ok, {
      timeout: 30_000,
      what: `the console in ${l.home} (${out})`,
    });
    const api = adminApi(base, await login(base));
    const pid = (await api('GET', '/api/info')).info.PID;
    await api('PUT', '/api/stun/settings', {
      enabled: true,
      stunServers: [`${l.publicIps[0]}:3478`],
      keepAliveUrl: `http://${l.publicIps[1]}:8080/`,
      heartbeatSec: HEARTBEAT_SEC,
      retrySec: 1,
    });
    const rules = async () => (await api('GET', '/api/stun/rules')).list;
    const allOpen = (list) => list.length > 0 && list.every((r) => r.mappings.every((m) => m.state === 'open'));

    // 1. Idle memory, before any traffic has grown the heap and the relay's buffer pool.
    const bare = await settledRss(pid);
    const keys = [];
    for (let i = 0; i < MEMORY_RULES; i++) {
      const r = await api('POST', '/api/stun/rules', {
        name: `idle-${i}`,
        protocols: ['tcp', 'udp'],
        localPort: MEMORY_PORT_BASE + i,
        targetAddress: '127.0.0.1',
        targetPort: IPERF_PORTS.stun,
      });
      keys.push(r.key);
    }
    const opened = await waitFor(rules, allOpen, { timeout: 60_000, interval: 250, what: 'the idle rules open' });
    const checkedAt = new Map(opened.flatMap((r) => r.mappings.map((m) => [`${r.key}/${m.protocol}`, m.lastCheck])));
    // Every mapping checked again after opening: the heartbeats run.
    await waitFor(
      rules,
      (list) =>
        allOpen(list) &&
        list.every((r) => r.mappings.every((m) => m.lastCheck > checkedAt.get(`${r.key}/${m.protocol}`))),
      { timeout: (HEARTBEAT_SEC * 3 + 10) * 1000, interval: 250, what: 'a heartbeat on every idle rule' },
    );
    const loaded = await settledRss(pid);
    results.push(
      { name: 'STUN console RSS, module on, no rules', value: bare, unit: 'MB' },
      { name: `STUN console RSS, ${MEMORY_RULES} rules (TCP + UDP, heartbeats)`, value: loaded, unit: 'MB' },
      { name: 'STUN memory per rule (TCP + UDP mapping)', value: (loaded - bare) / MEMORY_RULES, unit: 'MB' },
    );
    for (const k of keys) await api('DELETE', `/api/stun/rules/${k}`);

    // 2. The four paths.
    await api('POST', '/api/stun/rules', {
      name: 'iperf',
      protocols: ['tcp', 'udp'],
      localPort: PORTS.stun,
      targetAddress: '127.0.0.1',
      targetPort: IPERF_PORTS.stun,
    });
    await api('PUT', '/api/portforward/settings', { enabled: true });
    await api('POST', '/api/portforward/rules', {
      name: 'iperf',
      forwardTypes: ['tcp4', 'udp4'],
      listenPorts: String(PORTS.portforward),
      targetAddresses: ['127.0.0.1'],
      targetPorts: String(IPERF_PORTS.portforward),
    });
    // iperf3 opens its UDP socket per test: only its TCP control port listens now.
    const both = (port) => [`tcp:${port}`, `udp:${port}`];
    await listeningInHome(
      l,
      [
        ...Object.values(IPERF_PORTS).map((p) => `tcp:${p}`),
        ...both(PORTS.socat),
        ...both(PORTS.portforward),
        ...both(PORTS.stun),
      ],
      'iperf3, socat and the rules listening',
    );
    const mapped = await waitFor(rules, allOpen, { timeout: 30_000, interval: 250, what: 'the STUN rule open' });
    const publicAddrs = mapped[0].mappings.map((m) => m.publicAddress);
    if (!publicAddrs.every((a) => a === `${l.wanIp}:${PORTS.stun}`))
      throw new Error(`the router mapped ${publicAddrs.join(', ')}, not ${l.wanIp}:${PORTS.stun}`);

    const figure = await measureAll(l, pid, interrupted.signal);
    for (const f of FIGURES) {
      const paths = f.paths ?? RUNS.find((r) => r.id === f.run).paths;
      for (const name of paths)
        results.push({ name: `STUN lab ${f.title}: ${name}`, value: figure(f.title, name), unit: f.unit });
      if (f.compare === false) continue;
      const stun = figure(f.title, 'stun');
      for (const other of paths.filter((p) => p !== 'stun' && p !== 'direct')) {
        const v = figure(f.title, other);
        const line = `${f.title}: stun ${stun.toFixed(2)} vs ${other} ${v.toFixed(2)} ${f.unit}`;
        if (f.loss) {
          // In points (a ratio against almost nothing says little); at the saturating rate only
          // where STUN did not deliver more: a sender that got to send more loses more there.
          const more = f.run === 'udp' && figure(UDP_RECEIVED, 'stun') > figure(UDP_RECEIVED, other);
          if (stun > v && !more) losses.push(`${line} (${(stun - v).toFixed(1)} points)`);
          continue;
        }
        results.push({ name: `STUN lab ${f.title}: stun ÷ ${other}`, value: (stun / v) * 100, unit: '%' });
        const gap = f.higher ? 1 - stun / v : stun / v - 1;
        if (gap > 0)
          losses.push(
            `${line} (${(gap * 100).toFixed(1)} % behind${gap < DRIFT ? ', within the drift between runs' : ''})`,
          );
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await l?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    losses.length
      ? `\nWhere STUN is behind (medians of ${ROUNDS} rounds):\n  ${losses.join('\n  ')}`
      : '\nSTUN is behind nowhere',
  );
  return results;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // The compiler first: the build makes the shared-port helper only where there is one.
  ensureBenchDeps();
  const { buildIfNeeded } = await import('../scripts/build-if-needed.mjs');
  buildIfNeeded();
  const t0 = performance.now();
  const all = await benchStun();
  for (const r of all)
    console.log(`${r.name.padEnd(70)} ${r.value.toFixed(r.unit === 'pkt/s' ? 0 : 2).padStart(10)} ${r.unit}`);
  console.log(`\n${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
