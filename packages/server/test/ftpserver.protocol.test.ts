// The FTP server on the wire, command by command, with the tests' own client (exact replies):
// login, the virtual root of mounts, folders and names, REST / APPE / STOU, listings, read-only
// users and storages refused by every write verb, active mode refused, TLS required, ABOR.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FtpTestClient } from './ftp-client.js';
import { type FtpLab, startFtpLab, USERS } from './ftpserver-helpers.js';
import { freePort } from './portforward-helpers.js';
import { waitFor } from './wait.js';

let lab: FtpLab;
beforeAll(async () => {
  lab = await startFtpLab({ config: { anonymous: { enabled: true, access: { M1: 'ro' } } } });
});
afterAll(async () => {
  await lab?.close();
});

async function client(user?: keyof typeof USERS): Promise<FtpTestClient> {
  const c = await FtpTestClient.connect(lab.port);
  expect((await c.read()).code).toBe(220);
  if (user) expect((await c.login(user, USERS[user])).code).toBe(230);
  return c;
}

const file = (...p: string[]) => path.join(lab.data, ...p);

describe('greeting and login', () => {
  it('lists its features and answers SYST, HELP, NOOP', async () => {
    const c = await client();
    const feat = await c.cmd('FEAT');
    expect(feat.code).toBe(211);
    for (const f of [
      'UTF8',
      'MLST type*;size*;modify*;perm*;unique*;',
      'SIZE',
      'MDTM',
      'MFMT',
      'REST STREAM',
      'EPSV',
      'TVFS',
      'AUTH TLS',
      'PBSZ',
      'PROT',
    ])
      expect(feat.lines).toContain(` ${f}`);
    expect((await c.cmd('SYST')).text).toBe('215 UNIX Type: L8');
    expect((await c.cmd('NOOP')).code).toBe(200);
    expect((await c.cmd('HELP')).lines[1]).toContain('RETR');
    expect((await c.cmd('OPTS UTF8 ON')).code).toBe(200);
    c.close();
  });

  it('answers an unknown user and a wrong password alike, and lets the right one in', async () => {
    const c = await client();
    const a = await c.login('nobody', 'x');
    const b = await c.login('alice', 'wrong');
    expect(a.text).toBe('530 Login incorrect');
    expect(b.text).toBe(a.text);
    expect((await c.cmd('PWD')).code).toBe(530);
    expect((await c.login('alice', USERS.alice)).code).toBe(230);
    expect((await c.cmd('PWD')).text).toBe('257 "/" is the current directory');
    c.close();
  });

  it('closes the connection after three failed logins', async () => {
    const c = await client();
    for (let i = 0; i < 3; i++) expect((await c.login('bob', `nope${i}`)).code).toBe(530);
    expect((await c.read()).code).toBe(421);
    await waitFor(() => c.closed, { what: 'the server to close the connection' });
  });

  it('lets anonymous in with any password, read-only on its mounts', async () => {
    const c = await client();
    expect((await c.login('anonymous', 'me@example.com')).code).toBe(230);
    const root = await c.fetch('NLST');
    expect(root.data.toString()).toBe('files\r\n');
    expect((await c.store('STOR /files/anon.txt', 'x')).first.code).toBe(553);
    c.close();
  });
});

describe('the virtual root and paths', () => {
  it('lists the user’s mounts at the root and clamps .. there', async () => {
    const c = await client('bob');
    expect((await c.fetch('NLST')).data.toString()).toBe('files\r\n');
    expect((await c.cmd('CWD files')).code).toBe(250);
    expect((await c.cmd('CWD ../../..')).code).toBe(250);
    expect((await c.cmd('PWD')).text).toContain('"/"');
    expect((await c.cmd('CWD /readonly')).code).toBe(550);
    const a = await client('alice');
    expect((await a.fetch('NLST')).data.toString().split('\r\n').filter(Boolean).sort()).toEqual(['files', 'readonly']);
    a.close();
    c.close();
  });

  it('quotes a path with a double quote in 257 replies', async () => {
    const c = await client('alice');
    expect((await c.cmd('MKD /files/say "hi"')).text).toBe('257 "/files/say ""hi""" created');
    expect((await c.cmd('CWD /files/say "hi"')).code).toBe(250);
    expect((await c.cmd('PWD')).text).toBe('257 "/files/say ""hi""" is the current directory');
    expect((await c.cmd('CDUP')).code).toBe(250);
    expect((await c.cmd('RMD say "hi"')).code).toBe(250);
    c.close();
  });

  it('makes, renames and removes folders and files', async () => {
    const c = await client('alice');
    await c.cmd('CWD /files');
    expect((await c.cmd('MKD d1')).code).toBe(257);
    expect((await c.cmd('MKD d1')).code).toBe(550);
    expect((await c.store('STOR d1/f.txt', 'content')).last?.code).toBe(226);
    expect((await c.cmd('RMD d1')).text).toBe('550 Directory not empty');
    expect((await c.cmd('RNFR d1/f.txt')).code).toBe(350);
    expect((await c.cmd('RNTO g.txt')).code).toBe(250);
    expect(await fs.readFile(file('g.txt'), 'utf8')).toBe('content');
    // RNTO onto a folder is refused; RNTO without RNFR too; across mounts too.
    expect((await c.cmd('RNFR g.txt')).code).toBe(350);
    expect((await c.cmd('RNTO d1')).code).toBe(553);
    expect((await c.cmd('RNTO x')).code).toBe(503);
    expect((await c.cmd('RNFR g.txt')).code).toBe(350);
    expect((await c.cmd('RNTO /readonly/g.txt')).code).toBe(553);
    expect((await c.cmd('DELE d1')).code).toBe(550);
    expect((await c.cmd('RMD d1')).code).toBe(250);
    expect((await c.cmd('DELE g.txt')).code).toBe(250);
    expect((await c.cmd('DELE g.txt')).code).toBe(550);
    // A mount itself cannot be removed or renamed.
    expect((await c.cmd('RMD /files')).code).toBe(550);
    expect((await c.cmd('RNFR /files')).code).toBe(550);
    c.close();
  });

  it('answers SIZE, MDTM, MFMT and MLST', async () => {
    await fs.writeFile(file('t.bin'), Buffer.alloc(1234, 7));
    const c = await client('alice');
    expect((await c.cmd('SIZE /files/t.bin')).text).toBe('213 1234');
    expect((await c.cmd('SIZE /files')).code).toBe(550);
    expect((await c.cmd('MFMT 20200102030405 /files/t.bin')).text).toBe('213 Modify=20200102030405; /files/t.bin');
    expect((await c.cmd('MDTM /files/t.bin')).text).toBe('213 20200102030405');
    expect((await fs.stat(file('t.bin'))).mtime.toISOString()).toBe('2020-01-02T03:04:05.000Z');
    expect((await c.cmd('MFMT 2020 /files/t.bin')).code).toBe(501);
    const m = await c.cmd('MLST /files/t.bin');
    expect(m.code).toBe(250);
    expect(m.lines[1]).toMatch(
      /^ type=file;size=1234;modify=20200102030405\.000;perm=adfrw;unique=[0-9a-f]{16}; \/files\/t\.bin$/,
    );
    expect((await c.cmd('OPTS MLST type;size;')).text).toBe('200 MLST OPTS type;size;');
    expect((await c.cmd('MLST /files/t.bin')).lines[1]).toBe(' type=file;size=1234; /files/t.bin');
    const bob = await client('bob');
    expect((await bob.cmd('MLST /files/t.bin')).lines[1]).toContain('perm=r;');
    bob.close();
    c.close();
  });

  it('tolerates ls flags and lists a file or a folder', async () => {
    await fs.writeFile(file('l.txt'), 'x');
    const c = await client('alice');
    const list = await c.fetch('LIST -la /files');
    expect(list.last?.code).toBe(226);
    expect(list.data.toString()).toMatch(/^-rw-r--r-- +1 ftp +ftp +1 \w{3} [ \d]\d \d\d:\d\d l\.txt\r$/m);
    const one = await c.fetch('LIST /files/l.txt');
    expect(one.data.toString().trim().endsWith(' l.txt')).toBe(true);
    expect((await c.fetch('MLSD /files/l.txt')).first.code).toBe(501);
    c.close();
  });
});

describe('transfers', () => {
  it('resumes a download with REST and an upload with REST + STOR, and appends with APPE', async () => {
    const body = Buffer.from('0123456789abcdefghij');
    await fs.writeFile(file('r.bin'), body);
    const c = await client('alice');
    await c.cmd('CWD /files');
    expect((await c.cmd('REST 10')).code).toBe(350);
    expect((await c.fetch('RETR r.bin')).data.toString()).toBe('abcdefghij');
    expect((await c.cmd('REST 999')).code).toBe(350);
    expect((await c.fetch('RETR r.bin')).first.code).toBe(554);
    // The REST offset is spent by one transfer.
    expect((await c.fetch('RETR r.bin')).data.equals(body)).toBe(true);
    await fs.writeFile(file('u.bin'), 'AAAAAAAAAA');
    expect((await c.cmd('REST 4')).code).toBe(350);
    expect((await c.store('STOR u.bin', 'bbb')).last?.code).toBe(226);
    expect(await fs.readFile(file('u.bin'), 'utf8')).toBe('AAAAbbb');
    expect((await c.store('APPE u.bin', 'ccc')).last?.code).toBe(226);
    expect(await fs.readFile(file('u.bin'), 'utf8')).toBe('AAAAbbbccc');
    expect((await c.store('APPE new.bin', 'n')).last?.code).toBe(226);
    expect(await fs.readFile(file('new.bin'), 'utf8')).toBe('n');
    c.close();
  });

  it('stores a unique file with STOU and names it in the 150 reply', async () => {
    const c = await client('alice');
    await c.cmd('CWD /files');
    const r = await c.store('STOU', 'unique');
    const name = /FILE: (\S+)/.exec(r.first.text)?.[1] ?? '';
    expect(name).toMatch(/^ftp-[0-9a-f]{12}$/);
    expect(await fs.readFile(file(name), 'utf8')).toBe('unique');
    c.close();
  });

  it('keeps Chinese file names byte-exact in UTF-8', async () => {
    const c = await client('alice');
    const name = '中文文件 名.txt';
    expect((await c.store(`STOR /files/${name}`, '你好')).last?.code).toBe(226);
    expect(await fs.readFile(file(name), 'utf8')).toBe('你好');
    expect((await c.fetch('NLST /files')).data.toString('utf8').split('\r\n')).toContain(name);
    expect((await c.fetch('MLSD /files')).data.toString('utf8')).toContain(`; ${name}\r\n`);
    expect((await c.cmd(`SIZE /files/${name}`)).text).toBe(`213 ${Buffer.byteLength('你好')}`);
    // Bytes that are not UTF-8 are refused, never read leniently.
    expect((await c.cmd(Buffer.concat([Buffer.from('SIZE /files/'), Buffer.from([0xc0, 0xae])]))).code).toBe(553);
    c.close();
  });

  it('answers ABOR during a download: 426 for the transfer, then 226', async () => {
    const big = file('big.bin');
    await fs.writeFile(big, Buffer.alloc(64 << 20));
    const c = await client('alice');
    const p = await c.passive();
    const data = await p.connect();
    // Nothing is read from the data connection: the transfer stalls on back-pressure.
    data.pause();
    expect((await c.cmd('RETR /files/big.bin')).code).toBe(150);
    await waitFor(
      () => lab.runtime.ftp?.sessions.size && [...(lab.runtime.ftp?.sessions ?? [])].some((s) => s.transfer),
    );
    c.sendRaw('ABOR\r\n');
    expect((await c.read()).code).toBe(426);
    expect((await c.read()).code).toBe(226);
    expect((await c.cmd('NOOP')).code).toBe(200);
    data.destroy();
    c.close();
  });

  it('refuses active mode (PORT, EPRT) and answers PASV with the local address', async () => {
    const c = await client('alice');
    expect((await c.cmd('PORT 127,0,0,1,4,1')).code).toBe(502);
    expect((await c.cmd('EPRT |1|127.0.0.1|1025|')).code).toBe(502);
    const p = await c.passive();
    expect(p.reply.text).toMatch(/^227 Entering Passive Mode \(127,0,0,1,\d+,\d+\)$/);
    expect(p.port).toBeGreaterThanOrEqual(lab.passive.min);
    expect(p.port).toBeLessThanOrEqual(lab.passive.max);
    const e = await c.passive({ epsv: true });
    expect(e.reply.text).toMatch(/^229 Entering Extended Passive Mode \(\|\|\|\d+\|\)$/);
    expect((await c.cmd('EPSV 2')).text).toBe('522 Network protocol not supported, use (1)');
    expect((await c.cmd('EPSV ALL')).code).toBe(200);
    expect((await c.cmd('PASV')).code).toBe(503);
    c.close();
  });

  it('announces the configured address to clients (also LAN ones when told)', async () => {
    await lab.reload((cfg) => {
      cfg.passive.announceAddress = '203.0.113.7';
    });
    const c = await client('alice');
    // A LAN client (loopback) gets the local address unless announceForLan is on.
    expect((await c.passive()).reply.text).toContain('(127,0,0,1,');
    await lab.reload((cfg) => {
      cfg.passive.announceForLan = true;
    });
    expect((await c.passive()).reply.text).toContain('(203,0,113,7,');
    await lab.reload((cfg) => {
      cfg.passive.announceAddress = '';
      cfg.passive.announceForLan = false;
    });
    c.close();
  });

  it('answers a transfer without PASV with 425 and leaves the old file when no data came', async () => {
    await fs.writeFile(file('keep.txt'), 'old');
    const c = await client('alice');
    expect((await c.cmd('STOR /files/keep.txt')).code).toBe(425);
    expect(await fs.readFile(file('keep.txt'), 'utf8')).toBe('old');
    c.close();
  });
});

describe('read-only', () => {
  const writes = (dir: string) => [
    { line: `MKD ${dir}/nd`, codes: [550] },
    { line: `RMD ${dir}/sub`, codes: [550] },
    { line: `DELE ${dir}/ro.txt`, codes: [550] },
    { line: `RNFR ${dir}/ro.txt`, codes: [550] },
    { line: `MFMT 20200101000000 ${dir}/ro.txt`, codes: [550] },
    { line: 'SITE CHMOD 777 ro.txt', codes: [502] },
  ];
  const stores = (dir: string) => [`STOR ${dir}/ro.txt`, `APPE ${dir}/ro.txt`, `STOR ${dir}/new.txt`, 'STOU'];

  async function refusesEverything(c: FtpTestClient, dir: string, folder: string): Promise<void> {
    const before = await fs.readFile(path.join(folder, 'ro.txt'), 'utf8');
    for (const w of writes(dir)) expect(w.codes, w.line).toContain((await c.cmd(w.line)).code);
    // RNTO after a refused RNFR has no source; after an allowed one (other mount) it is refused too.
    expect((await c.cmd(`RNTO ${dir}/x`)).code).toBe(503);
    await c.cmd(`CWD ${dir}`);
    for (const s of stores(dir)) {
      const r = await c.store(s, 'overwrite');
      expect(r.first.code, s).toBe(553);
    }
    expect((await c.cmd('REST 1')).code).toBe(350);
    expect((await c.store(`STOR ${dir}/ro.txt`, 'x')).first.code).toBe(553);
    expect(await fs.readFile(path.join(folder, 'ro.txt'), 'utf8')).toBe(before);
    expect(await fs.readdir(folder)).not.toContain('new.txt');
    // Reading still works.
    expect((await c.fetch(`RETR ${dir}/ro.txt`)).data.toString()).toBe(before);
  }

  it('refuses every write verb to a user with read-only access', async () => {
    await fs.mkdir(file('sub'), { recursive: true });
    await fs.writeFile(file('ro.txt'), 'untouched');
    const c = await client('bob');
    await refusesEverything(c, '/files', lab.data);
    c.close();
  });

  it('refuses every write verb on a read-only storage, whatever the user may do', async () => {
    await fs.mkdir(path.join(lab.ro, 'sub'), { recursive: true });
    await fs.writeFile(path.join(lab.ro, 'ro.txt'), 'storage is read-only');
    const c = await client('alice');
    await refusesEverything(c, '/readonly', lab.ro);
    // The root holds the mounts only.
    expect((await c.cmd('MKD /newmount')).code).toBe(550);
    expect((await c.store('STOR /x.txt', 'x')).first.code).toBe(553);
    c.close();
  });
});

describe('TLS', () => {
  it('upgrades with AUTH TLS, protects data with PROT P, and resumes the TLS session on data', async () => {
    const c = await client();
    expect((await c.startTls(lab.ca)).code).toBe(234);
    expect((await c.login('alice', USERS.alice)).code).toBe(230);
    expect((await c.cmd('PBSZ 0')).code).toBe(200);
    expect((await c.cmd('PROT P')).code).toBe(200);
    const resumedBefore = lab.runtime.ftp?.counters.dataTlsResumed ?? 0;
    const r = await c.store('STOR /files/tls.txt', 'secret data', { ca: lab.ca });
    expect(r.last?.code).toBe(226);
    expect(await fs.readFile(file('tls.txt'), 'utf8')).toBe('secret data');
    expect((await c.fetch('RETR /files/tls.txt', { ca: lab.ca })).data.toString()).toBe('secret data');
    expect(lab.runtime.ftp?.counters.dataTlsResumed).toBe(resumedBefore + 2);
    expect((await c.cmd('CCC')).code).toBe(534);
    c.close();
  });

  it('drops commands pipelined behind AUTH TLS in plaintext', async () => {
    const c = await client();
    c.sendRaw('AUTH TLS\r\nUSER alice\r\n');
    expect((await c.read()).code).toBe(234);
    const raw = c.socket;
    raw.removeAllListeners('data');
    const tls = await import('node:tls');
    const t = tls.connect({ socket: raw, ca: lab.ca, servername: 'localhost' });
    await once(t, 'secureConnect');
    t.setEncoding('utf8');
    let got = '';
    t.on('data', (d: string) => {
      got += d;
    });
    // Had the USER line been kept, its 331 would come before this PASS's 503.
    t.write('PASS x\r\n');
    await waitFor(() => got.includes('\r\n'));
    expect(got).toBe('503 Send USER first\r\n');
    t.destroy();
  });

  it('in required mode refuses USER before AUTH TLS and data without PROT P', async () => {
    await lab.reload((cfg) => {
      cfg.tls.mode = 'required';
    });
    const c = await client();
    expect((await c.cmd('USER alice')).code).toBe(530);
    await c.startTls(lab.ca);
    expect((await c.login('alice', USERS.alice)).code).toBe(230);
    expect((await c.fetch('LIST')).first.code).toBe(521);
    expect((await c.cmd('PBSZ 0')).code).toBe(200);
    expect((await c.cmd('PROT C')).code).toBe(534);
    expect((await c.cmd('PROT P')).code).toBe(200);
    expect((await c.fetch('NLST', { ca: lab.ca })).data.toString()).toContain('files');
    c.close();
    await lab.reload((cfg) => {
      cfg.tls.mode = 'explicit';
    });
  });

  it('says 431 to AUTH TLS when no certificate is stored', async () => {
    const other = await startFtpLab({ certs: false });
    const c = await FtpTestClient.connect(other.port);
    await c.read();
    expect((await c.cmd('FEAT')).lines).not.toContain(' AUTH TLS');
    expect((await c.cmd('AUTH TLS')).code).toBe(431);
    c.close();
    await other.close();
  });
});

describe('status', () => {
  it('shows the session and its transfer in STAT and in the module status', async () => {
    const c = await client('alice');
    const s = await c.cmd('STAT');
    expect(s.code).toBe(211);
    expect(s.lines).toContain(' Logged in as alice');
    const listed = await c.cmd('STAT /files');
    expect(listed.code).toBe(213);
    const view = lab.runtime.statusView();
    expect(view.listening).toBe(true);
    expect(view.sessions.some((x) => x.user === 'alice')).toBe(true);
    expect(view.bytesOut).toBeGreaterThan(0);
    c.close();
  });

  it('writes a log line for logins and transfers', () => {
    const codes = lab.runtime.log.page(1, 10_000, 'oldest').logs.map((l) => l.code);
    expect(codes).toContain('loginOk');
    expect(codes).toContain('loginFailed');
    expect(codes).toContain('transferDone');
    expect(codes).toContain('tooManyFailures');
  });

  it('counts what moved', async () => {
    const payload = Buffer.alloc(100_000, 1);
    const before = lab.runtime.ftp?.counters.bytesIn ?? 0;
    const c = await client('alice');
    await c.store('STOR /files/count.bin', payload);
    expect((lab.runtime.ftp?.counters.bytesIn ?? 0) - before).toBe(payload.length);
    expect(
      createHash('sha256')
        .update(await fs.readFile(file('count.bin')))
        .digest('hex'),
    ).toBe(createHash('sha256').update(payload).digest('hex'));
    c.close();
  });
});

describe('listener', () => {
  it('serves IPv6 clients: EPSV works, PASV (IPv4 only) says to use EPSV', async () => {
    const v6 = await startFtpLab({ config: { address: '::1' } });
    try {
      const c = await FtpTestClient.connect(v6.port, '::1');
      expect((await c.read()).code).toBe(220);
      expect((await c.login('alice', USERS.alice)).code).toBe(230);
      expect((await c.cmd('PASV')).text).toBe('425 PASV is for IPv4; use EPSV');
      expect((await c.cmd('EPSV 1')).text).toBe('522 Network protocol not supported, use (2)');
      expect((await c.fetch('NLST', { epsv: true })).data.toString()).toContain('files');
      c.close();
    } finally {
      await v6.close();
    }
  });

  it('moves to a new port on reload and keeps the sessions already open', async () => {
    const other = await startFtpLab();
    try {
      const c = await FtpTestClient.connect(other.port);
      await c.read();
      expect((await c.login('alice', USERS.alice)).code).toBe(230);
      const port = await freePort();
      await other.reload((cfg) => {
        cfg.port = port;
      });
      expect((await c.fetch('NLST')).data.toString()).toContain('files');
      const fresh = await FtpTestClient.connect(port);
      expect((await fresh.read()).code).toBe(220);
      fresh.close();
      c.close();
    } finally {
      await other.close();
    }
  });

  it('says when the configured certificate name has no certificate of its own', async () => {
    await lab.reload((cfg) => {
      cfg.tls.certificate = 'nas.example.com';
    });
    expect(lab.runtime.statusView().reasons).toContainEqual({
      code: 'certificateMissing',
      params: { name: 'nas.example.com' },
    });
    await lab.reload((cfg) => {
      cfg.tls.certificate = 'localhost';
    });
    expect(lab.runtime.statusView().reasons).toEqual([]);
    await lab.reload((cfg) => {
      cfg.tls.certificate = '';
    });
  });
});
