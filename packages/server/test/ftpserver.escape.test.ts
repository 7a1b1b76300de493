// The shared escape corpus (test/storage/escapeCorpus.ts) through the FTP server: every attack
// argument, as given after `CWD /mount` and absolute, and the raw non-UTF-8 byte forms, through
// CWD, RETR, STOR, APPE, LIST, NLST, MLSD, MLST, SIZE, MDTM, DELE, MKD, RMD and RNFR / RNTO both
// ways, by a user who may write. 0 escapes: no reply and no data carries a secret marker, and
// nothing outside the storage root changed.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLocalStorage } from '../src/core/storage/local.js';
import { FtpTestClient } from './ftp-client.js';
import { type FtpLab, startFtpLab, USERS } from './ftpserver-helpers.js';
import {
  type EscapeSandbox,
  FTP_ESCAPE_BYTES,
  ftpEscapes,
  leakedMarkers,
  plantEscapeTargets,
} from './storage/escapeCorpus.js';

let lab: FtpLab;
let sandbox: EscapeSandbox;

beforeAll(async () => {
  // The corpus sends thousands of commands; the command budget is not what is tested here.
  lab = await startFtpLab({ limits: { commandRate: 100_000, commandBurst: 100_000 } });
  const dir = path.join(lab.dir, 'escape');
  await fs.mkdir(dir);
  sandbox = await plantEscapeTargets(dir);
  lab.publish({ S9: createLocalStorage({ key: 'S9', root: sandbox.root, readOnly: false }) });
  await lab.reload((c) => {
    c.mounts.push({ key: 'M9', name: 'mount', storage: 'S9', enabled: true });
    const alice = c.users.find((u) => u.name === 'alice');
    if (alice) alice.access.M9 = 'rw';
  });
});
afterAll(async () => {
  await lab?.close();
});

const SIMPLE = ['CWD', 'MLST', 'SIZE', 'MDTM', 'DELE', 'MKD', 'RMD'];
const LISTS = ['RETR', 'LIST', 'NLST', 'MLSD'];
const STORES = ['STOR', 'APPE'];

it('lets no argument of the corpus out of the storage root', async () => {
  const c = await FtpTestClient.connect(lab.port);
  await c.read();
  expect((await c.login('alice', USERS.alice)).code).toBe(230);
  const seen: string[] = [];
  let answered = 0;
  let allowed = 0;
  const line = (verb: string, arg: string | Buffer) =>
    Buffer.isBuffer(arg) ? Buffer.concat([Buffer.from(`${verb} `), arg]) : `${verb} ${arg}`;
  // A line that holds CR LF is two commands on the wire: every reply it causes is read.
  const extraLines = (l: string | Buffer) => (Buffer.isBuffer(l) ? 0 : (l.match(/\n/g)?.length ?? 0));
  const readExtra = async (l: string | Buffer) => {
    for (let i = 0; i < extraLines(l); i++) seen.push((await c.read()).text);
  };
  const send = async (l: string | Buffer) => {
    const first = await c.cmd(l);
    const all = [first];
    for (let i = 0; i < extraLines(l); i++) all.push(await c.read());
    for (const r of all) {
      seen.push(r.text);
      answered++;
      if (r.code < 400) allowed++;
    }
    return first;
  };
  const args: Array<string | Buffer> = [...ftpEscapes('mount'), ...FTP_ESCAPE_BYTES];
  for (const arg of args) {
    // Relative arguments start in the mount's folder.
    expect((await c.cmd('CWD /mount')).code).toBe(250);
    for (const verb of SIMPLE) await send(line(verb, arg));
    await c.cmd('CWD /mount');
    for (const verb of LISTS) {
      const r = await c.fetch(line(verb, arg));
      seen.push(r.first.text, r.last?.text ?? '', r.data.toString('latin1'));
      await readExtra(line(verb, arg));
    }
    for (const verb of STORES) {
      const r = await c.store(line(verb, arg), 'ESCAPE-WRITE');
      seen.push(r.first.text, r.last?.text ?? '');
      await readExtra(line(verb, arg));
    }
    // The attack path as the source of a rename, and as its target.
    await send(line('RNFR', arg));
    await send('RNTO /mount/stolen.txt');
    await fs.writeFile(path.join(sandbox.root, 'movable.txt'), 'm');
    await send('RNFR /mount/movable.txt');
    await send(line('RNTO', arg));
  }
  expect(leakedMarkers(sandbox, seen.join('\n'))).toEqual([]);
  expect(await sandbox.changedOutside()).toEqual([]);
  // The corpus ran against a working server: most was refused, some things inside were served.
  expect(answered).toBeGreaterThan(args.length * 5);
  expect(allowed).toBeGreaterThan(0);
  // Ordinary reads still work after all that.
  await fs.writeFile(path.join(sandbox.root, 'inside.txt'), sandbox.insideContent);
  expect((await c.fetch('RETR /mount/inside.txt')).data.toString()).toBe(sandbox.insideContent);
  c.close();
}, 60_000);
