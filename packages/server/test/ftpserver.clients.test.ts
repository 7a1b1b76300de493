// The FTP server with the real clients users have (Debian lftp and curl): plain and explicit
// FTPS with PROT P (checked against the test CA), PASV and EPSV, the announced passive address,
// listings of a folder of 10,000 entries (LIST and MLSD), APPE, SIZE / MDTM / MFMT, folder and
// name verbs, Chinese file names.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FtpTestClient } from './ftp-client.js';
import { curl, lftp } from './ftp-tools.js';
import { type FtpLab, startFtpLab, USERS } from './ftpserver-helpers.js';

let lab: FtpLab;
const alice = () => ({ port: lab.port, user: 'alice', password: USERS.alice });
const aliceTls = () => ({ ...alice(), caFile: lab.caFile });
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  lab = await startFtpLab();
  await fs.writeFile(path.join(lab.data, 'hello.txt'), 'hello');
});
afterAll(async () => {
  await lab?.close();
});

describe('login', () => {
  it('lets lftp and curl in with the right password and refuses a wrong one', async () => {
    const ok = await lftp(alice(), ['cat files/hello.txt']);
    expect(ok.stdout).toBe('hello');
    const bad = await lftp({ ...alice(), password: 'wrong' }, ['ls']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('Login incorrect');
    const c = await curl({ ...alice(), password: 'wrong' }, '/files/hello.txt');
    // 67: "the remote server denied curl to login".
    expect(c.code).toBe(67);
  });
});

describe('FTPS (AUTH TLS, PROT P)', () => {
  it('uploads and downloads with curl --ssl-reqd, the data connection protected and resumed', async () => {
    const body = Buffer.from(`tls-${'x'.repeat(100_000)}`);
    const src = path.join(lab.dir, 'curl-up.bin');
    await fs.writeFile(src, body);
    const resumed = lab.runtime.ftp?.counters.dataTlsResumed ?? 0;
    const up = await curl(aliceTls(), '/files/curl-tls.bin', ['-T', src, '-v']);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr).toContain('AUTH');
    expect(up.stderr).toContain('PROT P');
    const down = await curl(aliceTls(), '/files/curl-tls.bin', ['-o', path.join(lab.dir, 'curl-down.bin')]);
    expect(down.code, down.stderr).toBe(0);
    expect(sha(await fs.readFile(path.join(lab.dir, 'curl-down.bin')))).toBe(sha(body));
    expect(lab.runtime.ftp?.counters.dataTlsResumed).toBeGreaterThanOrEqual(resumed + 2);
  });

  it('works with lftp ftp:ssl-force and the test CA, and refuses a server it cannot verify', async () => {
    const src = path.join(lab.dir, 'lftp-up.txt');
    await fs.writeFile(src, 'lftp over tls');
    const r = await lftp(aliceTls(), [`put ${src} -o files/lftp-tls.txt`, 'cat files/lftp-tls.txt']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('lftp over tls');
    const untrusted = await lftp({ ...alice(), caFile: '/etc/ssl/certs/ca-certificates.crt' }, ['ls']);
    expect(untrusted.code).not.toBe(0);
    expect(untrusted.stderr).toMatch(/certificate/i);
  });
});

describe('passive modes', () => {
  it('uses EPSV by default and PASV when told (curl)', async () => {
    const epsv = await curl(alice(), '/files/hello.txt', ['-v']);
    expect(epsv.stderr).toMatch(/< 229 Entering Extended Passive Mode \(\|\|\|\d+\|\)/);
    const pasv = await curl(alice(), '/files/hello.txt', ['-v', '--disable-epsv']);
    expect(pasv.code).toBe(0);
    expect(pasv.stderr).toMatch(/< 227 Entering Passive Mode \(127,0,0,1,\d+,\d+\)/);
    expect(pasv.stdout).toBe('hello');
  });

  it('announces the configured address in 227; clients that connect to it get their data', async () => {
    // 127.0.0.5 reaches this machine (all of 127/8 is loopback), but not the listener, which is
    // bound on the control connection's local address: curl skips the PASV address by default
    // (--ftp-skip-pasv-ip), lftp is told to.
    await lab.reload((c) => {
      c.passive.announceAddress = '127.0.0.5';
      c.passive.announceForLan = true;
    });
    const r = await curl(alice(), '/files/hello.txt', ['-v', '--disable-epsv']);
    expect(r.stderr).toMatch(/< 227 Entering Passive Mode \(127,0,0,5,\d+,\d+\)/);
    expect(r.stdout).toBe('hello');
    const l = await lftp(alice(), [
      'set ftp:prefer-epsv false',
      'set ftp:ignore-pasv-address true',
      'debug -t 9',
      'cat files/hello.txt',
    ]);
    expect(l.stderr, l.stderr).toMatch(/227 Entering Passive Mode \(127,0,0,5,/);
    expect(l.stdout).toBe('hello');
    await lab.reload((c) => {
      c.passive.announceAddress = '';
      c.passive.announceForLan = false;
    });
  });
});

describe('a folder of 10,000 entries', () => {
  const N = 10_000;
  beforeAll(async () => {
    const dir = path.join(lab.data, 'many');
    await fs.mkdir(dir);
    for (let i = 0; i < N; i += 500)
      await Promise.all(
        Array.from({ length: Math.min(500, N - i) }, (_, j) => fs.writeFile(path.join(dir, `f${i + j}.txt`), '')),
      );
  });

  it('lists all of them with LIST (curl) and MLSD (lftp cls)', async () => {
    const list = await curl(alice(), '/files/many/');
    expect(list.code).toBe(0);
    // curl turns the ASCII listing's CRLF into LF.
    const lines = list.stdout.split(/\r?\n/).filter(Boolean);
    expect(lines).toHaveLength(N);
    expect(lines.every((l) => /^-rw-r--r-- .* f\d+\.txt$/.test(l))).toBe(true);
    const mlsd = await lftp(alice(), ['debug -t 9', 'cls -1 files/many']);
    expect(mlsd.code, mlsd.stderr.slice(-500)).toBe(0);
    expect(mlsd.stderr).toContain('---> MLSD');
    const names = new Set(mlsd.stdout.split('\n').filter(Boolean));
    expect(names.size).toBe(N);
    expect(names.has('files/many/f9999.txt')).toBe(true);
  });

  it('lists at most 1000 of them on the control connection (STAT <path>)', async () => {
    const c = await FtpTestClient.connect(lab.port);
    await c.read();
    await c.login('alice', USERS.alice);
    const r = await c.cmd('STAT /files/many');
    expect(r.code).toBe(213);
    expect(r.lines).toHaveLength(1002);
    expect(r.lines.at(-1)).toBe(`213 ${N - 1000} more entries: use LIST`);
    c.close();
  });

  it('lists them over FTPS too (NLST with curl -l)', async () => {
    const r = await curl(aliceTls(), '/files/many/', ['-l']);
    expect(r.stdout.split(/\r?\n/).filter(Boolean)).toHaveLength(N);
  });
});

describe('file verbs with real clients', () => {
  it('appends with curl --append', async () => {
    await fs.writeFile(path.join(lab.data, 'log.txt'), 'one\n');
    const src = path.join(lab.dir, 'two.txt');
    await fs.writeFile(src, 'two\n');
    const r = await curl(alice(), '/files/log.txt', ['--append', '-T', src]);
    expect(r.code, r.stderr).toBe(0);
    expect(await fs.readFile(path.join(lab.data, 'log.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('gets SIZE and MDTM (curl -I) and sets the time with MFMT (lftp mirror -R)', async () => {
    const f = path.join(lab.data, 'timed.bin');
    await fs.writeFile(f, Buffer.alloc(4321));
    await fs.utimes(f, new Date('2021-05-06T07:08:09Z'), new Date('2021-05-06T07:08:09Z'));
    const head = await curl(alice(), '/files/timed.bin', ['-I']);
    expect(head.stdout).toContain('Content-Length: 4321');
    expect(head.stdout).toContain('Last-Modified: Thu, 06 May 2021 07:08:09 GMT');
    const local = path.join(lab.dir, 'mirror-src');
    await fs.mkdir(local);
    await fs.writeFile(path.join(local, 'old.txt'), 'old');
    await fs.utimes(path.join(local, 'old.txt'), new Date('2019-01-02T03:04:05Z'), new Date('2019-01-02T03:04:05Z'));
    const m = await lftp(alice(), ['debug -t 9', `mirror -R ${local} files/mirrored`]);
    expect(m.code, m.stderr.slice(-800)).toBe(0);
    expect(m.stderr).toContain('---> MFMT 20190102030405');
    expect((await fs.stat(path.join(lab.data, 'mirrored', 'old.txt'))).mtime.toISOString()).toBe(
      '2019-01-02T03:04:05.000Z',
    );
  });

  it('makes, renames, deletes and removes with lftp', async () => {
    await fs.writeFile(path.join(lab.data, 'mv-me.txt'), 'm');
    const r = await lftp(alice(), ['mkdir files/d1', 'mv files/mv-me.txt files/d1/moved.txt', 'cd files/d1', 'cls -1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('moved.txt');
    expect(await fs.readFile(path.join(lab.data, 'd1', 'moved.txt'), 'utf8')).toBe('m');
    const rm = await lftp(alice(), ['rm files/d1/moved.txt', 'rmdir files/d1']);
    expect(rm.code, rm.stderr).toBe(0);
    await expect(fs.stat(path.join(lab.data, 'd1'))).rejects.toThrow();
  });

  it('carries Chinese file names both ways', async () => {
    const name = '照片 2024年.txt';
    const src = path.join(lab.dir, 'zh-src.txt');
    await fs.writeFile(src, '中文内容');
    const up = await curl(alice(), `/files/${encodeURIComponent(name)}`, ['-T', src]);
    expect(up.code, up.stderr).toBe(0);
    expect(await fs.readFile(path.join(lab.data, name), 'utf8')).toBe('中文内容');
    const ls = await lftp(alice(), ['cd files', 'cls -1']);
    expect(ls.stdout.split('\n')).toContain(name);
    const got = await lftp(alice(), [`cat "files/${name}"`]);
    expect(got.stdout).toBe('中文内容');
  });

  it('refuses uploads from a read-only user (lftp and curl)', async () => {
    const bob = { port: lab.port, user: 'bob', password: USERS.bob };
    const src = path.join(lab.dir, 'bob.txt');
    await fs.writeFile(src, 'bob');
    const l = await lftp(bob, [`put ${src} -o files/bob.txt`]);
    expect(l.code).not.toBe(0);
    expect(l.stderr).toContain('553');
    const c = await curl(bob, '/files/bob2.txt', ['-T', src]);
    expect(c.code).not.toBe(0);
    await expect(fs.stat(path.join(lab.data, 'bob.txt'))).rejects.toThrow();
    await expect(fs.stat(path.join(lab.data, 'bob2.txt'))).rejects.toThrow();
  });
});
