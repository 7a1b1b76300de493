// Apache mod_dav (Debian apache2) as a real WebDAV peer: started by the test on a free loopback
// port with its own config in a temp dir (no system service, nothing in /etc touched), Basic auth
// from an htpasswd file written here ({SHA} format, which Apache reads), stopped by the test.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../portforward-helpers.js';
import { waitFor } from '../wait.js';

export interface ApacheDav {
  /** The DAV folder's URL (`http://127.0.0.1:<port>/dav/`). */
  url: string;
  port: number;
  /** The folder Apache serves (files can be planted and checked here directly). */
  root: string;
  user: string;
  password: string;
  /** Apache's error log so far (for a failing test's message). */
  errors(): Promise<string>;
  stop(): Promise<void>;
}

const MODULES = '/usr/lib/apache2/modules';

/**
 * Starts Apache with DAV on `<dir>/dav` behind Basic auth; `dir` is a temp folder the test owns
 * (its parents must be open to www-data when the test runs as root: `dir` itself is opened here).
 */
export async function startApacheDav(dir: string, user = 'tester', password = 'secret-pw'): Promise<ApacheDav> {
  const port = await freePort();
  const root = path.join(dir, 'dav');
  const run = path.join(dir, 'run');
  await fs.mkdir(root, { recursive: true });
  await fs.mkdir(run, { recursive: true });
  const sha = createHash('sha1').update(password).digest('base64');
  await fs.writeFile(path.join(dir, 'htpasswd'), `${user}:{SHA}${sha}\n`);
  // Apache drops root for www-data: it must reach its folders (mkdtemp makes them 0700).
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    await fs.chmod(dir, 0o755);
    for (const d of [root, run]) await chownTree(d, 'www-data');
  }
  const conf = path.join(dir, 'httpd.conf');
  await fs.writeFile(
    conf,
    [
      `ServerRoot ${dir}`,
      'ServerName 127.0.0.1',
      `Listen 127.0.0.1:${port}`,
      `PidFile ${run}/httpd.pid`,
      `DefaultRuntimeDir ${run}`,
      ...[
        'mpm_event',
        'authz_core',
        'authz_user',
        'authn_core',
        'authn_file',
        'auth_basic',
        'dav',
        'dav_fs',
        'alias',
      ].map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`),
      ...(asRoot ? ['User www-data', 'Group www-data'] : []),
      `ErrorLog ${dir}/error.log`,
      'LogLevel warn',
      `DAVLockDB ${run}/davlock`,
      'StartServers 1',
      'ServerLimit 2',
      'ThreadsPerChild 16',
      `Alias /dav ${root}`,
      `<Directory ${root}>`,
      '  Dav On',
      '  AuthType Basic',
      '  AuthName dav',
      `  AuthUserFile ${dir}/htpasswd`,
      '  Require valid-user',
      '</Directory>',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('/usr/sbin/apache2', ['-f', conf, '-DFOREGROUND'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const errors = async () => `${stderr}${await fs.readFile(path.join(dir, 'error.log'), 'utf8').catch(() => '')}`;
  const up = await waitFor(
    async () => {
      if (exited) return 'exited';
      return new Promise<string | false>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => {
          s.destroy();
          resolve('listening');
        });
        s.on('error', () => resolve(false));
      });
    },
    { timeout: 10_000, what: 'apache2 listening' },
  );
  if (up === 'exited') throw new Error(`apache2 exited: ${await errors()}`);
  return {
    url: `http://127.0.0.1:${port}/dav/`,
    port,
    root,
    user,
    password,
    errors,
    async stop() {
      if (exited) return;
      const gone = new Promise((r) => child.once('exit', r));
      // SIGWINCH is Apache's graceful stop; TERM stops at once (children included).
      child.kill('SIGTERM');
      await gone;
    },
  };
}

/** Gives a folder (and what is in it) to `user`, so Apache's workers may write there. */
export async function chownTree(dir: string, user: string): Promise<void> {
  const { uid, gid } = await idsOf(user);
  const walk = async (p: string): Promise<void> => {
    await fs.lchown(p, uid, gid);
    const st = await fs.lstat(p);
    if (st.isDirectory()) for (const n of await fs.readdir(p)) await walk(path.join(p, n));
  };
  await walk(dir);
}

async function idsOf(user: string): Promise<{ uid: number; gid: number }> {
  const passwd = await fs.readFile('/etc/passwd', 'utf8');
  const line = passwd.split('\n').find((l) => l.startsWith(`${user}:`));
  if (!line) throw new Error(`no user ${user} in /etc/passwd`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}
