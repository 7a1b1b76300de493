// The shared escape corpus (issue 15): attack paths in the WIRE forms a file service receives —
// URL-encoded request paths for HTTP services (WebDAV, the file manager), raw argument strings and
// raw bytes for FTP — plus a sandbox with something worth stealing just outside the storage root.
// Every file service runs all of it (read and write verbs alike) and asserts: no answer contains a
// secret marker, and nothing outside the root changed. 0 escapes.
//
// Sandbox layout (`plantEscapeTargets(dir)`):
//   <dir>/outside/secret.txt          the secret, outside the root
//   <dir>/secret.txt                  the same secret one level up (for `..` from the root itself)
//   <dir>/root/                       the storage root
//     inside.txt                      ordinary content
//     sub/a.txt
//     link-in -> <dir>/root/sub       a symlink that stays inside (followed)
//     link-out -> <dir>/outside       a symlink to a folder outside (denied, hidden)
//     link-out-file -> <dir>/outside/secret.txt
//     sub/up -> ../..                 a relative link climbing to <dir> (outside)
//     link-etc -> /etc                an absolute link to the system's folder
// Paths below are written for a service that publishes the root as a mount named `mount`
// (`httpEscapes(prefix)` / `ftpEscapes(mount)` put the service's own prefix in front).
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Tails appended to a mount's URL (`<prefix>/<tail>`), percent-encoded as a client or an attacker
 * sends them. Several depths of `..` so whatever layering the service has, one of them would reach
 * `<dir>/outside/secret.txt` or `<dir>/secret.txt` if it were resolved past the root.
 */
export const HTTP_ESCAPE_TAILS: readonly string[] = (() => {
  const ups = [1, 2, 3, 4, 6];
  const out: string[] = [];
  for (const n of ups) {
    const via = (up: string, sep = '/') => `${Array(n).fill(up).join(sep)}${sep}`;
    out.push(
      `${via('..')}outside/secret.txt`,
      `${via('..')}secret.txt`,
      `${via('%2e%2e')}outside/secret.txt`,
      `${via('%2E%2E')}secret.txt`,
      `${via('.%2e')}outside/secret.txt`,
      `${via('%2e.')}outside/secret.txt`,
      `${via('..', '%2f')}outside%2fsecret.txt`,
      `${via('..', '%2F')}secret.txt`,
      `${via('%2e%2e', '%2f')}outside%2fsecret.txt`,
      `${via('..', '%5c')}outside%5csecret.txt`,
      `${via('..', '%5C')}secret.txt`,
      `${via('..', '\\')}outside\\secret.txt`,
      `${via('%252e%252e')}outside/secret.txt`,
      `${via('%252e%252e', '%252f')}secret.txt`,
      `${via('%c0%ae%c0%ae')}outside/secret.txt`,
      `${via('..', '%c0%af')}outside%c0%afsecret.txt`,
      `${via('%e0%80%ae%e0%80%ae')}outside/secret.txt`,
      `${via('%f0%80%80%ae%f0%80%80%ae')}secret.txt`,
      `${via('%c0%2e%c0%2e')}secret.txt`,
      `${via('..;')}outside/secret.txt`,
      `${via('..%00')}outside/secret.txt`,
      `${via('..%3b')}secret.txt`,
      `${via('%u002e%u002e')}outside/secret.txt`,
      `${via('%%32%65%%32%65')}outside/secret.txt`,
      // Look-alikes that NFKC (never NFC) would fold into `..` and `/`.
      `${via('%ef%bc%8e%ef%bc%8e', '%ef%bc%8f')}outside%ef%bc%8fsecret.txt`,
      `${via('%e2%80%a4%e2%80%a4')}outside/secret.txt`,
      `${via('..', '%e2%88%95')}outside%e2%88%95secret.txt`,
      `${via('%ef%bc%85%ef%bc%92%ef%bd%85%ef%bc%85%ef%bc%92%ef%bd%85')}outside/secret.txt`,
      `${via('%ef%b9%92%ef%b9%92')}secret.txt`,
      // A dot with a combining mark: NFD/NFC must not strip it into `..`.
      `${via('.%cc%b8.')}secret.txt`,
      `${via('%2e%cc%81%2e')}secret.txt`,
      `./${via('..')}secret.txt`,
      `sub/${via('..')}${via('..')}secret.txt`,
      `link-in/${via('..')}${via('..')}outside/secret.txt`,
    );
  }
  out.push(
    'link-out/secret.txt',
    'link-out',
    'link-out/',
    'link-out-file',
    'link-out%2fsecret.txt',
    'sub/up/outside/secret.txt',
    'sub/up/secret.txt',
    'sub/up',
    'link-etc/passwd',
    'link-etc/hostname',
    'link-in/../../outside/secret.txt',
    'inside.txt%00.jpg',
    'inside.txt%00',
    '%00',
    'inside.txt%0a',
    'x%0d%0aSet-Cookie:%20a=b',
    '%ed%a0%80',
    '%ed%a0%80%ed%b0%80',
    '%ff%fe',
    '%80',
    '%',
    '%2',
    '%zz',
    '....//....//outside/secret.txt',
    '.../.../secret.txt',
    `${'a/'.repeat(3000)}x`,
    `${'x'.repeat(300)}`,
    `${'%e4%b8%ad'.repeat(100)}`,
    `${'../'.repeat(2000)}secret.txt`,
  );
  return out;
})();

/**
 * Whole request paths aimed at the service's root itself (absolute paths smuggled in as
 * `//etc/passwd`, Windows drives and UNC names); the service's own prefix goes in front.
 */
export const HTTP_ESCAPE_ABSOLUTE: readonly string[] = [
  '//etc/passwd',
  '///etc/passwd',
  '/%2fetc%2fpasswd',
  '/%2Fetc/passwd',
  '/..%2f..%2f..%2fetc%2fpasswd',
  '/../../../../etc/passwd',
  '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
  '/C:\\Windows\\win.ini',
  '/C:/Windows/win.ini',
  '/c%3a%5cwindows%5cwin.ini',
  '/\\\\server\\share\\x',
  '/%5c%5cserver%5cshare',
  '/%5cetc%5cpasswd',
  '/file:%2f%2f%2fetc%2fpasswd',
  '/~root/.ssh/id_rsa',
  '/%7eroot',
  '/proc/self/root/etc/passwd',
  '/%00/etc/passwd',
];

/** Every HTTP attack path for a mount published at `prefix` (e.g. `/dav/mount`, no trailing `/`). */
export function httpEscapes(prefix: string, servicePrefix = ''): string[] {
  return [
    ...HTTP_ESCAPE_TAILS.map((t) => `${prefix}/${t}`),
    ...HTTP_ESCAPE_ABSOLUTE.map((a) => `${servicePrefix}${a}`),
  ];
}

/**
 * FTP arguments (CWD, RETR, STOR, DELE, MKD, RNFR/RNTO, SIZE, MDTM, MLST, LIST …) as sent, relative
 * to the mount's folder (`CWD /mount` first) or absolute. FTP does not percent-decode: `%2e%2e` is a
 * literal name and must stay one.
 */
export const FTP_ESCAPE_ARGS: readonly string[] = [
  '..',
  '../..',
  '../../..',
  '../outside/secret.txt',
  '../../outside/secret.txt',
  '../../../outside/secret.txt',
  '../../secret.txt',
  '../../../../../../../../etc/passwd',
  '/../../../../etc/passwd',
  '/etc/passwd',
  '//etc/passwd',
  '....//....//outside/secret.txt',
  '....//secret.txt',
  '.../secret.txt',
  '..\\..\\outside\\secret.txt',
  '..\\secret.txt',
  '\\etc\\passwd',
  'C:\\Windows\\win.ini',
  'C:/Windows/win.ini',
  '%2e%2e/%2e%2e/outside/secret.txt',
  '..%2f..%2fsecret.txt',
  '．．／．．／outside／secret.txt',
  '\u2024\u2024/\u2024\u2024/secret.txt',
  '..\u2215..\u2215secret.txt',
  '.\u0338./secret.txt',
  'inside.txt\u0000.jpg',
  '..\u0000/secret.txt',
  'inside.txt\r\nDELE inside.txt',
  'link-out/secret.txt',
  'link-out',
  'link-out-file',
  'sub/up/outside/secret.txt',
  'sub/up/secret.txt',
  'link-etc/passwd',
  'link-in/../../outside/secret.txt',
  '~',
  '~/../outside/secret.txt',
  '~root',
  '-la ../..',
  '*',
  '../*',
  `${'a/'.repeat(3000)}x`,
  'x'.repeat(5000),
  '../'.repeat(3000),
];

/** Every FTP attack argument for a mount named `mount`: as given (after `CWD /mount`) and absolute. */
export function ftpEscapes(mount: string): string[] {
  return [...FTP_ESCAPE_ARGS, ...FTP_ESCAPE_ARGS.map((a) => `/${mount}/${a}`)];
}

/**
 * Raw argument bytes FTP receives that are not valid UTF-8 (overlong dots and slashes, CESU
 * surrogates, stray bytes): the service must refuse them, never decode them leniently.
 */
export const FTP_ESCAPE_BYTES: readonly Buffer[] = [
  Buffer.from([0xc0, 0xae, 0xc0, 0xae, 0x2f, 0xc0, 0xae, 0xc0, 0xae, 0x2f, ...Buffer.from('secret.txt')]),
  Buffer.from([0x2e, 0x2e, 0xc0, 0xaf, ...Buffer.from('secret.txt')]),
  Buffer.from([0xe0, 0x80, 0xae, 0xe0, 0x80, 0xae, 0x2f, ...Buffer.from('secret.txt')]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xff, 0xfe, 0x2e, 0x2e]),
  Buffer.from([0x80]),
];

export interface EscapeSandbox {
  /** The storage root to publish. */
  root: string;
  /** The folder outside the root holding the secret. */
  outside: string;
  /** The secret file's content: no answer may ever contain it. */
  secret: string;
  /** Strings no answer may contain: the secret and markers of system files (/etc/passwd …). */
  markers: string[];
  /** Content of `inside.txt` (a service test can check ordinary reads still work). */
  insideContent: string;
  /**
   * What changed outside the root since planting (added, removed or modified entries under
   * `<dir>` outside `root`, and under /etc and /tmp's top level by name): [] when nothing escaped.
   */
  changedOutside(): Promise<string[]>;
}

/** Every entry under `dir` (not below `skip`), as path → size + content hash (mtime-free, so reads don't count). */
async function snapshot(dir: string, skip: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (p === skip) {
        out.set(p, 'root');
        continue;
      }
      if (e.isSymbolicLink()) out.set(p, `link:${await fs.readlink(p)}`);
      else if (e.isDirectory()) {
        out.set(p, 'dir');
        await walk(p);
      } else {
        const buf = await fs.readFile(p);
        out.set(p, `${buf.length}:${createHash('sha256').update(buf).digest('hex')}`);
      }
    }
  };
  await walk(dir);
  return out;
}

async function topNames(dir: string): Promise<Set<string>> {
  try {
    return new Set(await fs.readdir(dir));
  } catch {
    return new Set();
  }
}

/** Builds the sandbox in `dir` (an empty temp folder the test owns) — see the layout at the top. */
export async function plantEscapeTargets(dir: string): Promise<EscapeSandbox> {
  const root = path.join(dir, 'root');
  const outside = path.join(dir, 'outside');
  const secret = `ESCAPED-${randomBytes(12).toString('hex')}`;
  const insideContent = `inside-${randomBytes(6).toString('hex')}`;
  await fs.mkdir(path.join(root, 'sub'), { recursive: true });
  await fs.mkdir(outside, { recursive: true });
  await fs.writeFile(path.join(outside, 'secret.txt'), secret);
  await fs.writeFile(path.join(dir, 'secret.txt'), secret);
  await fs.writeFile(path.join(root, 'inside.txt'), insideContent);
  await fs.writeFile(path.join(root, 'sub', 'a.txt'), 'a');
  await fs.symlink(path.join(root, 'sub'), path.join(root, 'link-in'));
  await fs.symlink(outside, path.join(root, 'link-out'));
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'link-out-file'));
  await fs.symlink('../..', path.join(root, 'sub', 'up'));
  await fs.symlink('/etc', path.join(root, 'link-etc'));
  const before = await snapshot(dir, root);
  const etcBefore = await topNames('/etc');
  const tmpBefore = await topNames('/tmp');
  const passwd = await fs.readFile('/etc/passwd', 'utf8').catch(() => '');
  const markers = [secret, ...(passwd.includes('root:') ? ['root:x:0:0', passwd.slice(0, 40)] : [])];
  return {
    root,
    outside,
    secret,
    markers,
    insideContent,
    async changedOutside() {
      const after = await snapshot(dir, root);
      const changed: string[] = [];
      for (const [p, v] of after) if (before.get(p) !== v) changed.push(p);
      for (const p of before.keys()) if (!after.has(p)) changed.push(`${p} (removed)`);
      // Names an escaped write would most likely create at the system's top folders.
      const suspicious = (n: string) => /^(secret|inside|escaped)/i.test(n);
      for (const n of await topNames('/etc')) if (!etcBefore.has(n) && suspicious(n)) changed.push(`/etc/${n}`);
      for (const n of await topNames('/tmp')) if (!tmpBefore.has(n) && suspicious(n)) changed.push(`/tmp/${n}`);
      return changed;
    },
  };
}

/** The markers found in `text` (empty when clean). */
export function leakedMarkers(sandbox: EscapeSandbox, text: string): string[] {
  return sandbox.markers.filter((m) => text.includes(m));
}
