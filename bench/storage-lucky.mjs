// Our side of the storage bench (bench/storage.mjs): the built console in one process
// (bench/reverseproxy-server.mjs, with the worker's V8 flags), set up as an admin would through the
// REST API: a local storage over the bench's tree, the WebDAV and FTP servers on their own ports,
// one user with read-write access to that storage in each.
// When this build's modules cannot do that (their API is not there yet), `unavailable` says why
// and the bench prints our rows as "not available: <reason>" instead of numbers.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { login, ROOT } from './lib.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The built server in its own process group (its PSS is summed like the peers'); resolves once the admin API answers. */
export async function startLucky(configDir) {
  const dist = path.join(ROOT, 'packages/server/dist');
  if (!existsSync(path.join(dist, 'core/server.js'))) throw new Error(`${dist} is not built`);
  const supervise = path.join(dist, 'cli/supervise.js');
  const flags = existsSync(supervise) ? ((await import(pathToFileURL(supervise).href)).WORKER_V8_FLAGS ?? []) : [];
  const child = spawn(process.execPath, [...flags, path.join(ROOT, 'bench/reverseproxy-server.mjs'), configDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
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
      exited.then((code) => reject(new Error(`the console exited with ${code}`)));
      timer = setTimeout(() => reject(new Error('the console did not announce its port within 30 s')), 30_000);
    });
    clearTimeout(timer);
    const { port } = JSON.parse(line);
    return {
      name: 'lucky',
      base: `http://127.0.0.1:${port}`,
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

/** The admin API with a session token: api(method, path, body) → the JSON answer (ret 0), else throws. */
export async function adminApi(base) {
  const token = await login(base);
  return async (method, p, body) => {
    const r = await fetch(base + p, {
      method,
      headers: { authorization: token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await r.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${p}: HTTP ${r.status} ${text.slice(0, 200)}`);
    }
    if (json.ret !== 0) throw new Error(`${method} ${p}: ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
}

/**
 * Why this build cannot run our WebDAV / FTP rows: `{ webdav, ftpserver }`, a reason each or
 * undefined where it can. The shared schemas must describe storages (storage management) and the
 * module's listener, mounts and users; the scaffold's demo items do not.
 */
export async function unavailable() {
  const shared = path.join(ROOT, 'packages/shared/dist/index.js');
  if (!existsSync(shared)) return { webdav: 'packages/shared is not built', ftpserver: 'packages/shared is not built' };
  const s = await import(pathToFileURL(shared).href);
  const keys = (schema) => Object.keys(schema?.shape ?? {});
  const noStorages = !keys(s.storagemanagementConfigSchema).includes('storages');
  const why = (mod, schema) => {
    const missing = [...(noStorages ? ['storagemanagement'] : [])];
    const k = keys(schema);
    if (!k.includes('mounts') || !k.includes('users')) missing.push(mod);
    return missing.length
      ? `${missing.join(', ')}: no storages / mounts / users to configure in this build yet`
      : undefined;
  };
  return { webdav: why('webdav', s.webdavConfigSchema), ftpserver: why('ftpserver', s.ftpserverConfigSchema) };
}

/**
 * As an admin: a local storage over `root`; WebDAV on `davPort` and FTP on `ftpPort` (passive
 * ports `pasv`, no TLS, as pure-ftpd runs here), each only when given; one mount called `mount`
 * and one user with read-write access to it in each, caps with room for `connections` from
 * 127.0.0.1.
 */
export async function configureLucky(api, { root, mount, user, pass, davPort, ftpPort, pasv, connections }) {
  const storage = await addLocalStorage(api, { name: mount, path: root });
  const caps = { maxConnections: connections, perAddressMaxConnections: connections };
  const mods = [];
  if (davPort !== undefined) {
    await api('PUT', '/api/webdav/settings', { enabled: true, port: davPort, address: '127.0.0.1', ...caps });
    mods.push('webdav');
  }
  if (ftpPort !== undefined) {
    await api('PUT', '/api/ftpserver/settings', {
      enabled: true,
      port: ftpPort,
      address: '127.0.0.1',
      passive: { portMin: pasv[0], portMax: pasv[1] },
      tls: { mode: 'off' },
      ...caps,
    });
    mods.push('ftpserver');
  }
  for (const mod of mods) {
    const { mount: m } = await api('POST', `/api/${mod}/mounts`, { name: mount, storage });
    await api('POST', `/api/${mod}/users`, { name: user, password: pass, access: { [m.key]: 'rw' } });
  }
  // WebDAV says `state`, FTP `listening` (each module's status view).
  if (davPort !== undefined) {
    const dav = (await api('GET', '/api/webdav/status')).status;
    if (dav.state !== 'running') throw new Error(`webdav is ${dav.state}: ${JSON.stringify(dav.reason ?? {})}`);
  }
  if (ftpPort !== undefined) {
    const ftp = (await api('GET', '/api/ftpserver/status')).status;
    if (!ftp.listening) throw new Error(`ftpserver is not listening: ${JSON.stringify(ftp.reasons ?? [])}`);
  }
}

/** A local folder in storage management; resolves with its key. */
async function addLocalStorage(api, { name, path: folder }) {
  const made = await api('POST', '/api/storagemanagement/storages', {
    name,
    kind: 'local',
    local: { path: folder },
    readOnly: false,
  });
  return made.storage.key;
}
