// The browser file manager side by side (issue 16), in one run, on loopback:
//   listing  a folder of 10,000 entries: the server's time for GET /api/filebrowser/list (a node
//            loop on one keep-alive connection) beside nginx's autoindex (format json) of the same
//            folder, and the time from navigation to the first painted row in Debian chromium
//   download 1 GiB (curl): the file manager's GET /api/filebrowser/file vs nginx static and our
//            own WebDAV server
//   upload   1 GiB (curl): one tus PATCH through the file manager vs nginx PUT (dav) and our
//            WebDAV PUT
//   memory   the console's RSS growth during the 1 GiB download and the 1 GiB upload
// The download is a sparse file (no disk reads: the servers' own path is what costs); the upload
// source is a sparse file too, each upload checked on disk and removed. A warm-up round (128 MiB)
// first, then interleaved rounds, medians; ratios ours ÷ peer, cases where we are behind printed
// as such. BENCH_FILEBROWSER_ROUNDS (default 2) and BENCH_FILEBROWSER_MB (default 1024) shorten
// or lengthen it. `node bench/filebrowser.mjs` runs it alone (through npm exec, as root).
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ensureBenchDeps, freePort, login, median, rssMb, startPeer, waitListening } from './lib.mjs';
import { adminApi, startLucky } from './storage-lucky.mjs';
import { HOST, SERVICE_USER } from './storage-peers.mjs';

const ROUNDS = Number(process.env.BENCH_FILEBROWSER_ROUNDS) || 2;
const SIZE = (Number(process.env.BENCH_FILEBROWSER_MB) || 1024) * 1048576;
const WARMUP_SIZE = Math.min(SIZE, 128 * 1048576);
const ENTRIES = 10_000;
const LIST_SECONDS = 2;
const USER = 'bench';
const PASS = 'bench-Pa55word';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A sparse file of `bytes` (reads cost no disk). */
function sparse(file, bytes) {
  const fd = openSync(file, 'w');
  closeSync(fd);
  spawnSync('truncate', ['-s', String(bytes), file]);
}

/** nginx serving the tree statically (sendfile, autoindex json) and taking PUTs (dav), no auth. */
function startNginxStatic(dir, { port, root }) {
  const d = path.join(dir, 'nginx-fb');
  mkdirSync(path.join(d, 'tmp'), { recursive: true });
  spawnSync('chown', ['-R', `${SERVICE_USER}:`, path.join(d, 'tmp')]);
  writeFileSync(
    path.join(d, 'nginx.conf'),
    `user ${SERVICE_USER};\nworker_processes auto;\npid ${d}/nginx.pid;\nerror_log ${d}/error.log warn;\n` +
      `events { worker_connections 1024; }\nhttp {\n  access_log off;\n  sendfile on;\n` +
      `  client_body_temp_path ${d}/tmp/body; proxy_temp_path ${d}/tmp/p; fastcgi_temp_path ${d}/tmp/f;\n` +
      `  uwsgi_temp_path ${d}/tmp/u; scgi_temp_path ${d}/tmp/s;\n` +
      `  server {\n    listen ${HOST}:${port};\n    root ${root};\n    client_max_body_size 0;\n` +
      `    location / {\n      autoindex on;\n      autoindex_format json;\n      dav_methods PUT DELETE;\n` +
      `      dav_access user:rw group:rw all:r;\n    }\n  }\n}\n`,
  );
  return startPeer('nginx', 'nginx', ['-p', d, '-c', path.join(d, 'nginx.conf'), '-g', 'daemon off;']);
}

/** One curl transfer; resolves with MiB/s; rejects on a wrong status or a short transfer. */
function curl(args, { bytes, upload }) {
  return new Promise((resolve, reject) => {
    execFile(
      'curl',
      ['-sS', '-o', '/dev/null', '-w', '%{response_code} %{size_download} %{size_upload} %{time_total}', ...args],
      { timeout: 180_000 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`curl ${args.at(-1)}: ${(stderr || err.message).trim()}`));
        const [code, down, up, secs] = stdout.trim().split(' ').map(Number);
        const moved = upload ? up : down;
        if (code < 200 || code >= 300 || moved !== bytes)
          return reject(new Error(`curl ${args.at(-1)}: status ${code}, ${moved} of ${bytes} bytes`));
        resolve(bytes / 1048576 / secs);
      },
    );
  });
}

/** Runs `f` while sampling `pid`'s RSS every 50 ms; resolves with f's value and the growth in MiB. */
async function withRss(pid, f) {
  const before = rssMb(pid);
  let peak = before;
  const t = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 50);
  try {
    const value = await f();
    return { value, growthMb: Math.max(0, peak - before) };
  } finally {
    clearInterval(t);
  }
}

/** Calls GET `url` on one keep-alive connection for `seconds`; resolves with the median ms per call. */
async function listLoop(url, headers, check) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  const until = Date.now() + LIST_SECONDS * 1000;
  try {
    while (Date.now() < until || times.length < 3) {
      const t0 = process.hrtime.bigint();
      const body = await new Promise((resolve, reject) => {
        http
          .get(url, { agent, headers }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () =>
              res.statusCode === 200
                ? resolve(Buffer.concat(chunks).toString())
                : reject(new Error(`${url}: ${res.statusCode}`)),
            );
          })
          .on('error', reject);
      });
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      check(body);
    }
  } finally {
    agent.destroy();
  }
  return median(times);
}

/** Navigation to the first painted row of the 10,000-entry folder in Debian chromium, ms (median of 3). */
async function firstPaint(base, token, storage) {
  const { launchChromium } = await import('../scripts/chromium.mjs');
  const browser = await launchChromium();
  try {
    const times = [];
    for (let i = 0; i < 4; i++) {
      const context = await browser.newContext({ viewport: { width: 1300, height: 900 } });
      await context.addInitScript(
        ([t]) => localStorage.setItem('lucky', JSON.stringify({ lang: 'en_US', token: t })),
        [token],
      );
      const page = await context.newPage();
      const t0 = Date.now();
      await page.goto(`${base}/#/filebrowser?storage=${storage}&path=/big`);
      await page.locator('[data-testid="filebrowser-row"]').first().waitFor({ timeout: 30_000 });
      // The first round loads the bundle into the cache; the others are what a user sees again.
      if (i > 0) times.push(Date.now() - t0);
      await context.close();
    }
    return median(times);
  } finally {
    await browser.close();
  }
}

/** Creates a tus upload of `bytes` into `/`; resolves with its URL. */
async function tusCreate(base, token, storage, name, bytes) {
  const meta = (k, v) => `${k} ${Buffer.from(v).toString('base64')}`;
  const r = await fetch(`${base}/api/filebrowser/uploads`, {
    method: 'POST',
    headers: {
      authorization: token,
      'tus-resumable': '1.0.0',
      'upload-length': String(bytes),
      'upload-metadata': [
        meta('storage', storage),
        meta('dir', '/'),
        meta('relativePath', name),
        meta('conflict', 'replace'),
      ].join(','),
    },
  });
  if (r.status !== 201) throw new Error(`tus create: ${r.status} ${await r.text()}`);
  return new URL(r.headers.get('location'), base).href;
}

export async function benchFilebrowser() {
  ensureBenchDeps();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-bench-fb-'));
  // nginx's workers run as www-data: they must get through the bench's own folder.
  chmodSync(dir, 0o755);
  const root = path.join(dir, 'tree');
  mkdirSync(path.join(root, 'big'), { recursive: true });
  for (let i = 0; i < ENTRIES; i++)
    closeSync(openSync(path.join(root, 'big', `file-${String(i).padStart(5, '0')}.txt`), 'w'));
  sparse(path.join(root, 'blob.bin'), SIZE);
  sparse(path.join(root, 'warm.bin'), WARMUP_SIZE);
  const source = path.join(dir, 'upload.bin');
  sparse(source, SIZE);
  const warmSource = path.join(dir, 'warm-upload.bin');
  sparse(warmSource, WARMUP_SIZE);
  spawnSync('chown', ['-R', `${SERVICE_USER}:`, root]);
  spawnSync('chmod', ['-R', 'a+rwX', root]);

  const rows = [];
  const stops = [];
  try {
    const lucky = await startLucky(path.join(dir, 'lucky-config'));
    stops.push(() => lucky.stop());
    const api = await adminApi(lucky.base);
    const { storage } = await api('POST', '/api/storagemanagement/storages', {
      name: 'bench',
      kind: 'local',
      local: { path: root },
      readOnly: false,
    });
    const davPort = await freePort();
    await api('PUT', '/api/webdav/settings', { enabled: true, port: davPort, address: '127.0.0.1' });
    const { mount } = await api('POST', '/api/webdav/mounts', { name: 'bench', storage: storage.key });
    await api('POST', '/api/webdav/users', { name: USER, password: PASS, access: { [mount.key]: 'rw' } });
    const auth = await login(lucky.base);
    const nginxPort = await freePort();
    const nginx = startNginxStatic(dir, { port: nginxPort, root });
    stops.push(() => nginx.stop());
    await waitListening(nginxPort);
    await waitListening(davPort);

    const fb = (p) =>
      `${lucky.base}/api/filebrowser/file?storage=${storage.key}&path=${encodeURIComponent(p)}&download=1`;
    const dav = (p) => `http://${HOST}:${davPort}/bench${p}`;
    const ngx = (p) => `http://${HOST}:${nginxPort}${p}`;
    const davAuth = ['--user', `${USER}:${PASS}`];
    const download = {
      ours: (name, bytes) => curl(['-H', `authorization: ${auth}`, fb(`/${name}`)], { bytes }),
      nginx: (name, bytes) => curl([ngx(`/${name}`)], { bytes }),
      webdav: (name, bytes) => curl([...davAuth, dav(`/${name}`)], { bytes }),
    };
    const upload = {
      ours: async (src, bytes) => {
        const url = await tusCreate(lucky.base, auth, storage.key, 'up-ours.bin', bytes);
        const speed = await curl(
          [
            '-X',
            'PATCH',
            '-H',
            `authorization: ${auth}`,
            '-H',
            'tus-resumable: 1.0.0',
            '-H',
            'upload-offset: 0',
            '-H',
            'content-type: application/offset+octet-stream',
            '-H',
            'expect:',
            // -T streams the file (--data-binary would read 1 GiB into curl's memory first).
            '-T',
            src,
            url,
          ],
          { bytes, upload: true },
        );
        checkUploaded(path.join(root, 'up-ours.bin'), bytes);
        return speed;
      },
      nginx: async (src, bytes) => {
        const speed = await curl(['-T', src, ngx('/up-nginx.bin')], { bytes, upload: true });
        checkUploaded(path.join(root, 'up-nginx.bin'), bytes);
        return speed;
      },
      webdav: async (src, bytes) => {
        const speed = await curl([...davAuth, '-T', src, dav('/up-dav.bin')], { bytes, upload: true });
        checkUploaded(path.join(root, 'up-dav.bin'), bytes);
        return speed;
      },
    };

    // Warm-up: every path once, smaller.
    for (const f of Object.values(download)) await f('warm.bin', WARMUP_SIZE);
    for (const f of Object.values(upload)) await f(warmSource, WARMUP_SIZE);

    const got = { download: { ours: [], nginx: [], webdav: [] }, upload: { ours: [], nginx: [], webdav: [] } };
    const mem = { download: [], upload: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const peer of ['ours', 'nginx', 'webdav']) {
        const d = await withRss(lucky.pid, () => download[peer]('blob.bin', SIZE));
        got.download[peer].push(d.value);
        if (peer === 'ours') mem.download.push(d.growthMb);
        const u = await withRss(lucky.pid, () => upload[peer](source, SIZE));
        got.upload[peer].push(u.value);
        if (peer === 'ours') mem.upload.push(u.growthMb);
      }
    }
    const mb = SIZE / 1048576;
    for (const kind of ['download', 'upload']) {
      const ours = median(got[kind].ours);
      rows.push({ name: `file manager: ${kind} ${mb} MiB (MiB/s)`, value: ours, unit: 'MiB/s' });
      for (const peer of ['nginx', 'webdav']) {
        const theirs = median(got[kind][peer]);
        const label = peer === 'nginx' ? 'nginx static' : 'our WebDAV';
        rows.push({ name: `  ${label}: ${kind} ${mb} MiB (MiB/s)`, value: theirs, unit: 'MiB/s' });
        const ratio = (ours / theirs) * 100;
        rows.push({
          name: `  file manager ÷ ${label} (${kind})${ratio < 100 ? ' — we are behind' : ''}`,
          value: ratio,
          unit: '%',
        });
      }
      rows.push({ name: `  console RSS growth during the ${kind} (MiB)`, value: Math.max(...mem[kind]), unit: 'MB' });
    }

    // Listing 10,000 entries.
    const ourList = await listLoop(
      `${lucky.base}/api/filebrowser/list?storage=${storage.key}&path=%2Fbig`,
      { authorization: auth },
      (b) => {
        if (JSON.parse(b).entries.length !== ENTRIES) throw new Error('the listing is not whole');
      },
    );
    const ngxList = await listLoop(ngx('/big/'), {}, (b) => {
      if (JSON.parse(b).length !== ENTRIES) throw new Error('nginx listing is not whole');
    });
    rows.push({ name: `file manager: list ${ENTRIES} entries, server time (ms)`, value: ourList, unit: 'ms' });
    rows.push({ name: `  nginx autoindex json of the same folder (ms)`, value: ngxList, unit: 'ms' });
    rows.push({
      name: `  file manager ÷ nginx (listing time)${ourList > ngxList ? ' — we are behind' : ''}`,
      value: (ourList / ngxList) * 100,
      unit: '%',
    });
    try {
      rows.push({
        name: `file manager: ${ENTRIES} entries, navigation to first row in chromium (ms)`,
        value: await firstPaint(lucky.base, auth, storage.key),
        unit: 'ms',
      });
    } catch (err) {
      rows.push({
        name: `file manager: first paint not measured: ${err.message.slice(0, 60)}`,
        value: Number.NaN,
        unit: 'ms',
      });
    }
  } catch (err) {
    rows.push({
      name: `file manager bench failed: ${err.message.slice(0, 400)}`,
      value: Number.NaN,
      unit: '',
      ok: false,
    });
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    await sleep(100);
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

function checkUploaded(file, bytes) {
  const size = statSync(file).size;
  if (size !== bytes) throw new Error(`${file}: ${size} of ${bytes} bytes on disk`);
  rmSync(file);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { buildIfNeeded } = await import('../scripts/build-if-needed.mjs');
  buildIfNeeded();
  for (const r of await benchFilebrowser())
    console.log(`${r.name.padEnd(72)} ${Number.isFinite(r.value) ? r.value.toFixed(1) : 'n/a'} ${r.unit}`);
}
