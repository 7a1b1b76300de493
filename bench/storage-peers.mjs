// The reference servers of the storage bench (bench/storage.mjs), each started by hand from Debian's
// package in the foreground, on loopback, with its config in the bench's temp dir and the same
// account (Basic auth, checked on every request as a client of ours would be):
//   nginx        http_dav (PUT, DELETE, MKCOL, COPY, MOVE) + dav-ext (PROPFIND, OPTIONS, LOCK)
//   apache       mod_dav + mod_dav_fs, event MPM
//   rclone       `rclone serve webdav` over the local folder
//   pure-ftpd    one virtual user (PureDB) mapped to www-data, passive ports on loopback
// Apache and nginx workers run as www-data (they refuse to serve as root), so the served tree
// belongs to www-data; pure-ftpd's virtual user is www-data too.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startPeer } from './lib.mjs';

export const HOST = '127.0.0.1';
/** The system account the web servers' workers and pure-ftpd's virtual user run as. */
export const SERVICE_USER = 'www-data';

/** `user:{SHA}base64(sha1)`: both Apache and nginx read it, and it costs no hashing rounds per request. */
function htpasswd(file, user, pass) {
  writeFileSync(file, `${user}:{SHA}${createHash('sha1').update(pass).digest('base64')}\n`);
}

/**
 * nginx with the dav and dav-ext modules, as a NAS owner would write it: one server, the tree as
 * root, bodies of any size, locks in a shared zone. Worker count as Debian's default (auto).
 */
export function startNginx(dir, { port, root, user, pass }) {
  const d = path.join(dir, 'nginx');
  mkdirSync(path.join(d, 'tmp'), { recursive: true });
  spawnSync('chown', ['-R', `${SERVICE_USER}:`, path.join(d, 'tmp')]);
  htpasswd(path.join(d, 'htpasswd'), user, pass);
  writeFileSync(
    path.join(d, 'nginx.conf'),
    `load_module /usr/lib/nginx/modules/ngx_http_dav_ext_module.so;\n` +
      `user ${SERVICE_USER};\nworker_processes auto;\npid ${d}/nginx.pid;\nerror_log ${d}/error.log warn;\n` +
      `events { worker_connections 1024; }\nhttp {\n  access_log off;\n  sendfile on;\n` +
      `  client_body_temp_path ${d}/tmp/body; proxy_temp_path ${d}/tmp/p; fastcgi_temp_path ${d}/tmp/f;\n` +
      `  uwsgi_temp_path ${d}/tmp/u; scgi_temp_path ${d}/tmp/s;\n` +
      `  dav_ext_lock_zone zone=davlock:1m;\n` +
      `  server {\n    listen ${HOST}:${port};\n    root ${root};\n    client_max_body_size 0;\n` +
      `    auth_basic bench;\n    auth_basic_user_file ${d}/htpasswd;\n` +
      `    location / {\n      dav_methods PUT DELETE MKCOL COPY MOVE;\n` +
      `      dav_ext_methods PROPFIND OPTIONS LOCK UNLOCK;\n      dav_ext_lock zone=davlock;\n` +
      `      dav_access user:rw group:rw all:r;\n      create_full_put_path on;\n    }\n  }\n}\n`,
  );
  return startPeer('nginx', 'nginx', ['-p', d, '-c', path.join(d, 'nginx.conf'), '-g', 'daemon off;']);
}

/** Apache 2.4 with mod_dav_fs, the event MPM and Debian's defaults otherwise (keep-alive 5 s). */
export function startApache(dir, { port, root, user, pass }) {
  const d = path.join(dir, 'apache');
  mkdirSync(path.join(d, 'lock'), { recursive: true });
  spawnSync('chown', [`${SERVICE_USER}:`, path.join(d, 'lock')]);
  htpasswd(path.join(d, 'htpasswd'), user, pass);
  const mod = (name, file = name) => `LoadModule ${name}_module /usr/lib/apache2/modules/mod_${file}.so\n`;
  writeFileSync(
    path.join(d, 'httpd.conf'),
    `ServerRoot ${d}\nServerName ${HOST}\nListen ${HOST}:${port}\nPidFile ${d}/httpd.pid\nErrorLog ${d}/error.log\n` +
      mod('mpm_event') +
      mod('authz_core') +
      mod('authz_user') +
      mod('authn_core') +
      mod('authn_file') +
      mod('auth_basic') +
      mod('dav') +
      mod('dav_fs') +
      `User ${SERVICE_USER}\nGroup ${SERVICE_USER}\nDavLockDB ${d}/lock/DavLock\nDocumentRoot ${root}\n` +
      // 2.4.54 and later cap request bodies at 1 GiB by default: the bench uploads exactly that.
      `LimitRequestBody 0\n` +
      `<Directory ${root}>\n  Dav On\n  AuthType Basic\n  AuthName bench\n  AuthUserFile ${d}/htpasswd\n` +
      `  Require valid-user\n</Directory>\n`,
  );
  return startPeer('apache', 'apache2', ['-f', path.join(d, 'httpd.conf'), '-DFOREGROUND']);
}

/** `rclone serve webdav` over the local folder (no VFS cache: writes go straight to the file). */
export function startRclone(dir, { port, root, user, pass }) {
  const d = path.join(dir, 'rclone');
  mkdirSync(d, { recursive: true });
  writeFileSync(path.join(d, 'rclone.conf'), '');
  return startPeer(
    'rclone',
    'rclone',
    [
      'serve',
      'webdav',
      root,
      '--addr',
      `${HOST}:${port}`,
      '--user',
      user,
      '--pass',
      pass,
      '--config',
      path.join(d, 'rclone.conf'),
      '--cache-dir',
      path.join(d, 'cache'),
    ],
    { env: { ...process.env, HOME: d } },
  );
}

/**
 * pure-ftpd standalone in the foreground: authenticated users only, one virtual user from a PureDB
 * file (chrooted to `root`), passive ports `pasv` on loopback, room for the bench's sessions.
 */
export function startPureFtpd(dir, { port, root, user, pass, pasv, maxClients }) {
  const d = path.join(dir, 'pure-ftpd');
  mkdirSync(d, { recursive: true });
  const passwd = path.join(d, 'pureftpd.passwd');
  const pdb = path.join(d, 'pureftpd.pdb');
  // The account as pure-pw writes it, with a SHA-512 crypt hash: pure-pw's own default (argon2id,
  // t=127) costs about 1.8 s of CPU per login on the 2-core build machine, and the bench logs in
  // a hundred sessions at once. `/./` in the home is the chroot point.
  const hash = spawnSync('openssl', ['passwd', '-6', '-stdin'], { input: pass, encoding: 'utf8' }).stdout.trim();
  const uid = spawnSync('id', ['-u', SERVICE_USER], { encoding: 'utf8' }).stdout.trim();
  const gid = spawnSync('id', ['-g', SERVICE_USER], { encoding: 'utf8' }).stdout.trim();
  writeFileSync(passwd, `${user}:${hash}:${uid}:${gid}::${root}/./::::::::::::\n`);
  const mk = spawnSync('pure-pw', ['mkdb', pdb, '-f', passwd], { encoding: 'utf8' });
  if (mk.status !== 0 || !hash.startsWith('$6$')) throw new Error(`pure-pw mkdb: ${mk.stderr || mk.stdout}`);
  // -c is forced down to half the passive ports: the range holds twice the sessions.
  return startPeer('pure-ftpd', 'pure-ftpd', [
    '-S',
    `${HOST},${port}`,
    '-l',
    `puredb:${pdb}`,
    '-E',
    '-H',
    '-A',
    '-p',
    `${pasv[0]}:${pasv[1]}`,
    '-c',
    String(maxClients),
    '-C',
    String(maxClients),
    '-f',
    'none',
  ]);
}
