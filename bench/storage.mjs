// The file services side by side (issue 15), in one run, on loopback:
//   WebDAV  GET and PUT of a 1 GiB file (curl) and PROPFIND Depth 1 on a folder of 10,000 entries
//           (a node loop on one keep-alive connection): ours vs nginx (dav + dav-ext), Apache
//           mod_dav and `rclone serve webdav`
//   FTP     RETR and STOR of 1 GiB (curl, passive): ours vs pure-ftpd
//   memory  the console idle with storage management, WebDAV and FTP on; PSS added by 100 open
//           WebDAV connections and by 100 logged-in FTP sessions (every server, ours and the peers)
// Every server serves the same tree (bench-owned temp dir) as /bench/ with the same account over
// Basic auth / USER+PASS. The download is a sparse 1 GiB file (no disk reads, the servers' own
// path is what costs); the upload source is a sparse file too, so curl streams 1 GiB of zeros with
// a Content-Length and nothing is generated in the bench's process; each upload is checked on disk
// and removed. A warm-up round (smaller file, a few PROPFINDs) first, then interleaved rounds,
// medians (mean of the middle two for an even count); ratios ours ÷ peer, and every case where we
// are behind is printed as such.
// BENCH_STORAGE_ROUNDS (default 2) and BENCH_STORAGE_MB (default 1024) shorten or lengthen it.
// `node bench/storage.mjs` runs it alone (through npm exec, for the project's Node; as root).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBenchDeps, freePort, ROOT, waitListening } from './lib.mjs';
import { curlTransfer, openDavConnections, openFtpSessions, propfindLoop } from './storage-clients.mjs';
import { adminApi, configureLucky, startLucky, unavailable } from './storage-lucky.mjs';
import { HOST, SERVICE_USER, startApache, startNginx, startPureFtpd, startRclone } from './storage-peers.mjs';

const ROUNDS = Number(process.env.BENCH_STORAGE_ROUNDS) || 2;
const SIZE = (Number(process.env.BENCH_STORAGE_MB) || 1024) * 1048576;
const WARMUP_SIZE = Math.min(SIZE, 128 * 1048576);
const ENTRIES = 10_000;
const PROPFIND_SECONDS = 2;
const CONNECTIONS = 100;
/** A difference of memory figures smaller than this is no defeat (page-granular PSS, lazy heaps). */
const MEMORY_EVEN_MB = 1;
const USER = 'bench';
const PASS = 'bench-Pa55word';
const MOUNT = 'bench';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Passive ports of both FTP servers (pure-ftpd's, then ours), 400 each: above the kernel's
 * ephemeral range when it leaves room (freePort() hands out ports from that range, so a listener
 * of the bench can never sit inside a passive range), else below it.
 */
function passiveRanges() {
  const [, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  const base = hi + 800 < 65536 ? hi + 1 : 20000;
  return [
    [base, base + 399],
    [base + 400, base + 799],
  ];
}

/** Proportional set size of every process in a process group (a peer's master + workers), MiB. */
function groupPssMb(pgid) {
  let kb = 0;
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      // Fields after the command's closing parenthesis: state, ppid, pgrp, …
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

const mid = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = Math.floor(s.length / 2);
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};

/** A sparse file of `bytes` (reads as zeros, costs no disk). */
function sparse(file, bytes) {
  closeSync(openSync(file, 'w'));
  spawnSync('truncate', ['-s', String(bytes), file]);
}

/**
 * `measure(target)` for every target, round after round; per target the mid value (undefined
 * where it failed every time; failures are printed).
 */
async function interleaved(title, targets, measure) {
  const samples = new Map(targets.map((t) => [t.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets) {
      try {
        samples.get(t.name).push(await measure(t));
      } catch (err) {
        console.error(`${title}, ${t.name}: ${err.message.split('\n')[0]}`);
      }
    }
  }
  return (name, field = (x) => x) => {
    const xs = (samples.get(name) ?? []).map(field);
    return xs.length ? mid(xs) : undefined;
  };
}

/** The file services this bench measures, by module key (what the rows' names say). */
const SERVICE_LABELS = { webdav: 'WebDAV', ftpserver: 'FTP' };

export async function benchStorage() {
  ensureBenchDeps();
  if (process.getuid?.() !== 0)
    throw new Error('the storage bench runs Apache, nginx and pure-ftpd workers as www-data: run it as root');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-bench-storage-'));
  const peers = [];
  let lucky;
  const results = [];
  const table = [];
  try {
    // The tree every server serves: <dir>/tree/bench/{big.bin, warm.bin, many/…}; uploads land in bench/.
    chmodSync(dir, 0o755);
    const tree = path.join(dir, 'tree');
    const data = path.join(tree, MOUNT);
    const many = path.join(data, 'many');
    mkdirSync(many, { recursive: true });
    sparse(path.join(data, 'big.bin'), SIZE);
    sparse(path.join(data, 'warm.bin'), WARMUP_SIZE);
    for (let i = 0; i < ENTRIES; i++)
      closeSync(openSync(path.join(many, `file-${String(i).padStart(5, '0')}.txt`), 'w'));
    spawnSync('chown', ['-R', `${SERVICE_USER}:`, tree]);
    const source = path.join(dir, 'upload.bin');
    const warmSource = path.join(dir, 'upload-warm.bin');
    sparse(source, SIZE);
    sparse(warmSource, WARMUP_SIZE);
    // Reading a hole still fills the page cache with zero pages: read every source once here, so
    // the first server to be measured does not pay for that and the others not.
    for (const f of [path.join(data, 'big.bin'), path.join(data, 'warm.bin'), source, warmSource])
      spawnSync('dd', [`if=${f}`, 'of=/dev/null', 'bs=1M'], { stdio: 'ignore' });

    const pasv = passiveRanges();
    const ports = {};
    for (const n of ['nginx', 'apache', 'rclone', 'pure-ftpd', 'luckyDav', 'luckyFtp']) ports[n] = await freePort();
    const account = { root: tree, user: USER, pass: PASS };
    peers.push(startNginx(dir, { ...account, port: ports.nginx }));
    peers.push(startApache(dir, { ...account, port: ports.apache }));
    peers.push(startRclone(dir, { ...account, port: ports.rclone }));
    peers.push(
      startPureFtpd(dir, { ...account, port: ports['pure-ftpd'], pasv: pasv[0], maxClients: 2 * CONNECTIONS + 10 }),
    );
    for (const p of ['nginx', 'apache', 'rclone', 'pure-ftpd']) await waitListening(ports[p], 10_000);

    // Ours, where this build can: configured through the admin API; else the reason per protocol
    // (`ours.webdav`, `ours.ftpserver`), printed instead of its rows.
    const ours = await unavailable();
    let idle;
    if (!ours.webdav || !ours.ftpserver) {
      try {
        lucky = await startLucky(path.join(dir, 'lucky'));
        // Idle figures after 2 s without requests (start-up garbage collected or not, as users see it).
        await sleep(2000);
        const fresh = groupPssMb(lucky.pid);
        const api = await adminApi(lucky.base);
        await configureLucky(api, {
          ...account,
          root: data,
          mount: MOUNT,
          davPort: ours.webdav ? undefined : ports.luckyDav,
          ftpPort: ours.ftpserver ? undefined : ports.luckyFtp,
          pasv: pasv[1],
          connections: 2 * CONNECTIONS + 10,
        });
        if (!ours.webdav) await waitListening(ports.luckyDav);
        if (!ours.ftpserver) await waitListening(ports.luckyFtp);
        await sleep(2000);
        idle = { fresh, configured: groupPssMb(lucky.pid) };
      } catch (err) {
        const why = `set-up failed: ${err.message.split('\n')[0]}`;
        ours.webdav ??= why;
        ours.ftpserver ??= why;
        await lucky?.stop();
        lucky = undefined;
      }
    }
    const dav = [
      ...(ours.webdav ? [] : [{ name: 'lucky', base: `http://${HOST}:${ports.luckyDav}`, pgid: lucky.pid }]),
      { name: 'nginx', base: `http://${HOST}:${ports.nginx}`, pgid: peers[0].child.pid },
      { name: 'apache', base: `http://${HOST}:${ports.apache}`, pgid: peers[1].child.pid },
      { name: 'rclone', base: `http://${HOST}:${ports.rclone}`, pgid: peers[2].child.pid },
    ];
    const ftp = [
      ...(ours.ftpserver ? [] : [{ name: 'lucky', port: ports.luckyFtp, pgid: lucky.pid }]),
      { name: 'pure-ftpd', port: ports['pure-ftpd'], pgid: peers[3].child.pid },
    ];
    const davNames = ['lucky', ...dav.filter((t) => t.name !== 'lucky').map((t) => t.name)];
    const ftpNames = ['lucky', 'pure-ftpd'];

    const cred = { user: USER, pass: PASS };
    const davGet = (t, file, bytes) => curlTransfer({ ...cred, url: `${t.base}/${MOUNT}/${file}`, bytes });
    const ftpGet = (t, file, bytes) =>
      curlTransfer({ ...cred, url: `ftp://${HOST}:${t.port}/${MOUNT}/${file}`, bytes });
    /** An upload, checked on disk and removed (so every server creates a new file of that size). */
    const put = async (url, src, bytes, name) => {
      const speed = await curlTransfer({ ...cred, url, upload: src, bytes });
      const onDisk = path.join(data, name);
      const size = statSync(onDisk).size;
      rmSync(onDisk);
      if (size !== bytes) throw new Error(`${url}: ${size} bytes on disk, ${bytes} sent`);
      return speed;
    };
    const davPut = (t, src, bytes) => put(`${t.base}/${MOUNT}/up-${t.name}.bin`, src, bytes, `up-${t.name}.bin`);
    const ftpPut = (t, src, bytes) =>
      put(`ftp://${HOST}:${t.port}/${MOUNT}/up-ftp-${t.name}.bin`, src, bytes, `up-ftp-${t.name}.bin`);
    const loop = (t, seconds) =>
      propfindLoop({ ...cred, base: t.base, path: `/${MOUNT}/many/`, entries: ENTRIES, seconds, minRequests: 2 });

    // Warm-up, not measured: every path once (JIT, page cache, rclone's directory cache). A server
    // that fails here is reported and still measured (its rows show what works).
    const warm = async (t, steps) => {
      try {
        for (const step of steps) await step();
      } catch (err) {
        console.error(`warm-up, ${t.name}: ${err.message.split('\n')[0]}`);
      }
    };
    for (const t of dav)
      await warm(t, [
        () => davGet(t, 'warm.bin', WARMUP_SIZE),
        () => davPut(t, warmSource, WARMUP_SIZE),
        () => loop(t, 0.5),
      ]);
    for (const t of ftp)
      await warm(t, [() => ftpGet(t, 'warm.bin', WARMUP_SIZE), () => ftpPut(t, warmSource, WARMUP_SIZE)]);

    const mib = `${SIZE / 1048576} MiB`;
    const get = await interleaved('WebDAV GET', dav, (t) => davGet(t, 'big.bin', SIZE));
    const putR = await interleaved('WebDAV PUT', dav, (t) => davPut(t, source, SIZE));
    const pf = await interleaved('PROPFIND', dav, (t) => loop(t, PROPFIND_SECONDS));
    const retr = await interleaved('FTP RETR', ftp, (t) => ftpGet(t, 'big.bin', SIZE));
    const stor = await interleaved('FTP STOR', ftp, (t) => ftpPut(t, source, SIZE));

    // Memory: PSS of each server's processes before and with 100 connections / sessions open.
    const memory = async (title, targets, open) => {
      const out = {};
      for (const t of targets) {
        try {
          const before = groupPssMb(t.pgid);
          const held = await open(t);
          const during = groupPssMb(t.pgid);
          held.close();
          out[t.name] = ((during - before) * 100) / held.open;
        } catch (err) {
          console.error(`${title}, ${t.name}: ${err.message.split('\n')[0]}`);
        }
      }
      return out;
    };
    const davMem = await memory('WebDAV connections', dav, (t) =>
      openDavConnections({ ...cred, base: t.base, path: `/${MOUNT}/`, count: CONNECTIONS }),
    );
    const ftpMem = await memory('FTP sessions', ftp, (t) =>
      openFtpSessions({ ...cred, host: HOST, port: t.port, count: CONNECTIONS }),
    );

    // Rows: every value, then ours ÷ each peer (higher is better for all but ms and MB).
    const rows = [
      {
        label: `WebDAV GET ${mib}`,
        unit: 'MiB/s',
        names: davNames,
        mod: 'webdav',
        get: (n) => get(n),
        better: 'higher',
      },
      {
        label: `WebDAV PUT ${mib}`,
        unit: 'MiB/s',
        names: davNames,
        mod: 'webdav',
        get: (n) => putR(n),
        better: 'higher',
      },
      {
        label: `PROPFIND Depth 1, ${ENTRIES} entries`,
        unit: 'ms',
        names: davNames,
        mod: 'webdav',
        get: (n) => pf(n, (x) => x.ms),
        better: 'lower',
      },
      {
        label: `FTP RETR ${mib}`,
        unit: 'MiB/s',
        names: ftpNames,
        mod: 'ftpserver',
        get: (n) => retr(n),
        better: 'higher',
      },
      {
        label: `FTP STOR ${mib}`,
        unit: 'MiB/s',
        names: ftpNames,
        mod: 'ftpserver',
        get: (n) => stor(n),
        better: 'higher',
      },
      {
        label: `PSS per ${CONNECTIONS} open WebDAV connections`,
        unit: 'MB',
        names: davNames,
        mod: 'webdav',
        get: (n) => davMem[n],
        better: 'lower',
      },
      {
        label: `PSS per ${CONNECTIONS} logged-in FTP sessions`,
        unit: 'MB',
        names: ftpNames,
        mod: 'ftpserver',
        get: (n) => ftpMem[n],
        better: 'lower',
      },
    ];
    const behind = [];
    for (const row of rows) {
      for (const n of row.names) {
        if (n === 'lucky' && ours[row.mod]) continue;
        results.push({ name: `${row.label}: ${n}`, value: row.get(n) ?? Number.NaN, unit: row.unit });
      }
      const mine = ours[row.mod] ? undefined : row.get('lucky');
      for (const n of row.names.filter((x) => x !== 'lucky')) {
        const theirs = row.get(n);
        if (mine === undefined || theirs === undefined) continue;
        // Memory per 100 connections is often a fraction of a MB, where a ratio says nothing: values
        // only, and behind only past MEMORY_EVEN_MB (PSS moves by that much between runs).
        if (row.unit === 'MB') {
          if (mine > theirs + MEMORY_EVEN_MB)
            behind.push(`${row.label}: lucky ${fmt(mine)} MB vs ${n} ${fmt(theirs)} MB`);
          continue;
        }
        // As "how good are we": a throughput ratio, or the inverse of a time / memory ratio.
        const ratio = row.better === 'higher' ? mine / theirs : theirs / mine;
        results.push({ name: `${row.label}: lucky vs ${n} (> 100 % = lucky better)`, value: ratio * 100, unit: '%' });
        if (ratio < 1) behind.push(`${row.label}: lucky ${fmt(mine)} ${row.unit} vs ${n} ${fmt(theirs)} ${row.unit}`);
      }
      table.push(row);
    }
    if (idle) {
      results.push({ name: 'console idle, new config: WebDAV and FTP off (PSS)', value: idle.fresh, unit: 'MB' });
      results.push({
        name: `console idle, storage + ${Object.entries(SERVICE_LABELS)
          .filter(([m]) => !ours[m])
          .map(([, label]) => label)
          .join(' + ')} configured and listening (PSS)`,
        value: idle.configured,
        unit: 'MB',
      });
      results.push({ name: 'console after the storage bench (PSS)', value: groupPssMb(lucky.pid), unit: 'MB' });
    }
    // One row per protocol says why ours has no numbers (run.mjs prints it as n/a, never as a value).
    for (const [mod, why] of Object.entries(ours))
      if (why)
        results.push({
          name: `storage bench, lucky's ${mod} rows: not available (${why})`,
          value: Number.NaN,
          unit: '',
        });
    printTable(table, ours);
    for (const [mod, why] of Object.entries(ours)) if (why) console.log(`lucky ${mod}: not available: ${why}`);
    if (behind.length) console.log(`where lucky is behind:\n  ${behind.join('\n  ')}`);
    else if (!ours.webdav || !ours.ftpserver) console.log('lucky is behind in no row');
    console.log(
      `storage: ${ROUNDS} interleaved rounds after a warm-up; curl for transfers, PROPFIND ${PROPFIND_SECONDS} s ` +
        "per server and round on one keep-alive connection; PSS summed over each server's processes\n",
    );
  } finally {
    for (const p of peers.reverse()) await p.stop();
    await lucky?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

const fmt = (v) => (v === undefined || !Number.isFinite(v) ? '–' : v >= 100 ? v.toFixed(0) : v.toFixed(1));

/** A table per set of servers (WebDAV, FTP): every server's value per row; "n/a" where ours cannot run. */
function printTable(rows, ours) {
  const groups = new Map();
  for (const row of rows) {
    const key = row.names.join(',');
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(row);
  }
  for (const group of groups.values()) {
    const names = group[0].names;
    const lines = [['workload', 'unit', ...names]];
    for (const row of group)
      lines.push([
        row.label,
        row.unit,
        ...names.map((n) => (n === 'lucky' && ours[row.mod] ? 'n/a' : fmt(row.get(n)))),
      ]);
    const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
    console.log('');
    for (const l of lines)
      console.log(l.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
  }
  console.log('');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, 'bench/storage.mjs')) {
  const t0 = performance.now();
  for (const r of await benchStorage())
    console.log(`${r.name.padEnd(80)} ${Number.isFinite(r.value) ? `${r.value.toFixed(1)} ${r.unit}` : 'n/a'}`);
  console.log(`(${((performance.now() - t0) / 1000).toFixed(0)} s)`);
}
