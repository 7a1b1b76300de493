// Data connections and what moves over them: PASV / EPSV (active PORT / EPRT refused), REST,
// RETR, STOR, APPE, STOU, LIST, NLST, MLSD, ABOR, and STAT with a path (a listing on the control
// connection).
import { randomBytes } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { type Duplex, Readable } from 'node:stream';
import type { WriteMode } from '../../../core/storage/types.js';
import type { Command } from './commands.js';
import { FtpError, storageReply } from './errors.js';
import { sessionStatus } from './infoCommands.js';
import { type ListedEntry, listable, listedOf, lsLine, mlsxLine } from './listing.js';
import { guarded, vpathOf } from './pathCommands.js';
import { type DataResult, pumpIn, pumpOut } from './pump.js';
import type { FtpSession, TransferState } from './session.js';
import { serverHandshake } from './tls.js';
import { baseName, type Located } from './virtualFs.js';

/** Entries STAT <path> lists on the control connection. */
const STAT_MAX_ENTRIES = 1000;

const ACTIVE_REFUSED = 'Active mode is not supported (FTP bounce risk); use PASV or EPSV';

async function openPassive(s: FtpSession): Promise<number> {
  s.passive?.close();
  s.passive = undefined;
  const { min, max } = s.host.passive.range();
  const listener = await s.host.passive.open(s.localAddress, {
    peer: s.ip,
    timeoutMs: s.host.limits.dataConnectMs,
    onForeign: (peer) => s.host.log(3, 'dataForeign', { client: s.client, peer }),
  });
  if (!listener) {
    s.host.log(3, 'passiveExhausted', { client: s.client, portMin: min, portMax: max });
    throw new FtpError(425, 'No free passive port; try again later');
  }
  s.passive = listener;
  return listener.port;
}

/** The IPv4 address PASV announces: the announced one (for peers outside the LAN, or all), else the local one. */
async function pasvAddress(s: FtpSession): Promise<string> {
  const { announceAddress, announceForLan } = s.host.settings();
  if (announceAddress && (announceForLan || !s.host.isLan(s.ip))) {
    const ip = isIPv4(announceAddress) ? announceAddress : await s.host.resolveAnnounce(announceAddress);
    if (ip) return ip;
  }
  if (!isIPv4(s.localAddress)) throw new FtpError(425, 'PASV is for IPv4; use EPSV');
  return s.localAddress;
}

async function pasv(s: FtpSession): Promise<void> {
  if (s.epsvAll) throw new FtpError(503, 'EPSV ALL was sent: use EPSV');
  const address = await pasvAddress(s);
  const port = await openPassive(s);
  s.reply(227, `Entering Passive Mode (${address.replace(/\./g, ',')},${port >> 8},${port & 255})`);
}

async function epsv(s: FtpSession, arg: string): Promise<void> {
  const a = arg.trim().toUpperCase();
  if (a === 'ALL') {
    s.epsvAll = true;
    s.reply(200, 'EPSV ALL ok');
    return;
  }
  const family = isIPv4(s.localAddress) ? '1' : '2';
  if (a !== '' && a !== family) throw new FtpError(522, `Network protocol not supported, use (${family})`);
  const port = await openPassive(s);
  s.reply(229, `Entering Extended Passive Mode (|||${port}|)`);
}

/**
 * Runs one transfer on the session's passive connection: waits for the client's connection,
 * says 150, runs TLS on it under PROT P, moves the bytes with `move`, and answers 226, 426
 * (aborted, or the connection was cut) or the failure.
 */
async function withData(
  s: FtpSession,
  verb: TransferState['verb'],
  vpath: string,
  move: (data: Duplex, signal: AbortSignal) => Promise<DataResult>,
  opts: { opening?: string; onFail?: () => void; level?: 4 | 5 } = {},
): Promise<void> {
  const listener = s.passive;
  s.passive = undefined;
  if (!listener) {
    opts.onFail?.();
    throw new FtpError(425, 'Use PASV or EPSV first');
  }
  const abort = new AbortController();
  let settle = () => {};
  const state: TransferState = {
    verb,
    path: vpath,
    since: Date.now(),
    bytes: 0,
    rate: 0,
    windowAt: Date.now(),
    windowBytes: 0,
    abort,
    done: new Promise<void>((resolve) => {
      settle = resolve;
    }),
  };
  s.transfer = state;
  const level = opts.level ?? 4;
  const params = () => ({ user: s.userName, client: s.client, verb, path: vpath, bytes: state.bytes });
  let data: Duplex | undefined;
  try {
    const onAbort = new Promise<undefined>((resolve) =>
      abort.signal.addEventListener('abort', () => resolve(undefined)),
    );
    const raw = await Promise.race([listener.take(), onAbort]);
    listener.close(true);
    if (!raw || abort.signal.aborted) {
      raw?.destroy();
      opts.onFail?.();
      if (abort.signal.aborted) s.reply(426, 'Transfer aborted');
      else s.reply(425, 'Cannot open data connection');
      return;
    }
    data = raw;
    s.reply(150, opts.opening ?? `Opening BINARY mode data connection for ${baseName(vpath) || '/'}`);
    if (s.protectedData) {
      const up = await serverHandshake(raw, s.host.tls, s.host.limits.handshakeMs, s.tlsContext).catch((err: Error) => {
        throw new FtpError(425, `TLS on the data connection failed: ${err.message}`);
      });
      if (up.socket.isSessionReused()) s.host.dataTlsResumed();
      data = up.socket;
    }
    const result = await move(data, abort.signal);
    const ms = Date.now() - state.since;
    if (result === 'done' && !abort.signal.aborted) {
      s.host.log(level, 'transferDone', { ...params(), ms });
      s.reply(226, 'Transfer complete');
    } else {
      s.host.log(level, 'transferAborted', params());
      s.reply(426, abort.signal.aborted ? 'Transfer aborted' : 'Connection closed; transfer aborted');
    }
  } catch (err) {
    data?.destroy();
    opts.onFail?.();
    const reply = storageReply(err);
    s.host.log(3, 'transferFailed', { ...params(), detail: reply.text });
    s.reply(reply.code, reply.text);
  } finally {
    if (s.transfer === state) s.transfer = undefined;
    settle();
  }
}

function requireProtection(s: FtpSession): void {
  if (s.host.settings().tlsMode === 'required' && !s.protectedData)
    throw new FtpError(521, 'Data connections must be protected: send PBSZ 0 and PROT P');
}

/** REST applies to the next transfer command only, whatever becomes of it. */
async function spendingRest(s: FtpSession, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } finally {
    s.restOffset = 0;
  }
}

async function retr(s: FtpSession, arg: string): Promise<void> {
  requireProtection(s);
  const vpath = vpathOf(s, arg);
  const at = s.fs.locate(vpath);
  if (at.kind === 'root') throw new FtpError(550, 'Not a regular file');
  const e = await guarded(at.storage.stat(at.path));
  if (e.kind !== 'file') throw new FtpError(550, 'Not a regular file');
  const start = s.restOffset;
  if (start > e.size) throw new FtpError(554, `REST offset ${start} is beyond the end of the file`);
  const src = await guarded(at.storage.read(at.path, { start }));
  await withData(s, 'RETR', vpath, (data, signal) => pumpOut(src, data, s, signal), {
    onFail: () => src.destroy(),
  });
}

async function store(s: FtpSession, arg: string, verb: 'STOR' | 'APPE' | 'STOU'): Promise<void> {
  requireProtection(s);
  let vpath: string;
  if (verb === 'STOU') {
    const dir = vpathOf(s, arg.trim() === '' ? '.' : arg);
    vpath = `${dir === '/' ? '' : dir}/ftp-${randomBytes(6).toString('hex')}`;
  } else vpath = vpathOf(s, arg);
  const at = s.fs.locateWritable(vpath, true);
  const offset = verb === 'STOR' ? s.restOffset : 0;
  const mode: WriteMode = verb === 'APPE' ? 'append' : verb === 'STOU' ? 'create' : offset > 0 ? 'offset' : 'replace';
  if (mode === 'offset') {
    const e = await guarded(at.storage.stat(at.path));
    if (e.kind !== 'file') throw new FtpError(550, 'Not a regular file');
    if (offset > e.size) throw new FtpError(554, `REST offset ${offset} is beyond the end of the file`);
  }
  const sink = await guarded(at.storage.write(at.path, { mode, offset }), true);
  // Nothing arrived (no data connection): abandon the write, the old file stays as it was.
  sink.on('error', () => {});
  const abandon = () => sink.destroy(new Error('no data connection'));
  await withData(s, verb, vpath, (data, signal) => pumpIn(data, sink, s, signal), {
    onFail: abandon,
    opening: verb === 'STOU' ? `FILE: ${baseName(vpath)}` : undefined,
  });
}

/** LIST / NLST / MLSD / STAT arguments: `-a`, `-l`, `-la` … flags first (tolerated), then a path. */
function listTarget(arg: string): string {
  let rest = arg.trimStart();
  while (/^-[A-Za-z]+(\s|$)/.test(rest)) rest = rest.replace(/^-[A-Za-z]+\s*/, '');
  return rest;
}

/** The entries of a folder (or the one file `LIST file` names); at the root, the user's mounts. */
async function entriesOf(s: FtpSession, at: Located, dirsOnly: boolean): Promise<ListedEntry[]> {
  if (at.kind === 'root') {
    const out: ListedEntry[] = [];
    for (const m of s.fs.list()) {
      const storage = s.host.storage(m.storage);
      const writable = m.access === 'rw' && storage !== undefined && !storage.readOnly;
      const e = storage ? await storage.stat('/').catch(() => undefined) : undefined;
      out.push({ name: m.name, kind: 'dir', size: 0, mtimeMs: e?.mtimeMs ?? 0, writable, id: `mount:${m.key}` });
    }
    return out;
  }
  const e = await guarded(at.storage.stat(at.path));
  if (e.kind !== 'dir') {
    if (dirsOnly) throw new FtpError(501, 'Not a directory');
    return [listedOf(e, at.storage.key, at.writable)];
  }
  const list = await guarded(at.storage.list(at.path));
  return list.filter((x) => listable(x.name)).map((x) => listedOf(x, at.storage.key, at.writable));
}

/** Listing text in chunks of about 64 KiB, so a folder of 10,000 entries goes out with back-pressure. */
function* chunks(entries: ListedEntry[], line: (e: ListedEntry) => string): Generator<Buffer> {
  let text = '';
  for (const e of entries) {
    text += line(e);
    if (text.length >= 65_536) {
      yield Buffer.from(text);
      text = '';
    }
  }
  if (text) yield Buffer.from(text);
}

async function list(s: FtpSession, arg: string, verb: 'LIST' | 'NLST' | 'MLSD'): Promise<void> {
  requireProtection(s);
  const vpath = vpathOf(s, listTarget(arg));
  const entries = await entriesOf(s, s.fs.locate(vpath), verb === 'MLSD');
  const now = Date.now();
  const line =
    verb === 'LIST'
      ? (e: ListedEntry) => lsLine(e, now)
      : verb === 'NLST'
        ? (e: ListedEntry) => `${e.name}\r\n`
        : (e: ListedEntry) => `${mlsxLine(e, s.mlstFacts)}\r\n`;
  const src = Readable.from(chunks(entries, line));
  await withData(s, verb, vpath, (data, signal) => pumpOut(src, data, s, signal), {
    level: 5,
    opening: `Opening ASCII mode data connection for ${verb}`,
  });
}

async function abor(s: FtpSession): Promise<void> {
  const t = s.transfer;
  if (!t) {
    s.passive?.close();
    s.passive = undefined;
    s.reply(225, 'No transfer to abort');
    return;
  }
  t.abort.abort();
  // The transfer's own 426 goes first (RFC 959 §4.1.3), then ABOR's 226.
  await t.done;
  s.reply(226, 'ABOR successful');
}

async function stat(s: FtpSession, arg: string): Promise<void> {
  if (arg.trim() === '' || !s.user) return sessionStatus(s);
  const vpath = vpathOf(s, listTarget(arg));
  const entries = await entriesOf(s, s.fs.locate(vpath), false);
  const now = Date.now();
  // The control connection is no place for a big folder: the rest is for LIST.
  const shown = entries.slice(0, STAT_MAX_ENTRIES).map((e) => lsLine(e, now).slice(0, -2));
  const more = entries.length - shown.length;
  s.reply(213, [`Status of ${vpath}:`, ...shown, more > 0 ? `${more} more entries: use LIST` : 'End of status']);
}

export const TRANSFER_COMMANDS: Record<string, Command> = {
  PASV: { needsLogin: true, run: (s) => pasv(s) },
  EPSV: { needsLogin: true, run: (s, arg) => epsv(s, arg) },
  PORT: { needsLogin: true, run: (s) => s.reply(502, ACTIVE_REFUSED) },
  EPRT: { needsLogin: true, run: (s) => s.reply(502, ACTIVE_REFUSED) },
  REST: {
    needsLogin: true,
    arg: 'required',
    run(s, arg) {
      const t = arg.trim();
      if (!/^\d{1,16}$/.test(t) || !Number.isSafeInteger(Number(t)))
        throw new FtpError(501, 'REST needs a byte offset');
      s.restOffset = Number(t);
      s.reply(350, `Restarting at ${s.restOffset}; send RETR or STOR`);
    },
  },
  RETR: { needsLogin: true, arg: 'required', run: (s, arg) => spendingRest(s, () => retr(s, arg)) },
  STOR: { needsLogin: true, arg: 'required', run: (s, arg) => spendingRest(s, () => store(s, arg, 'STOR')) },
  APPE: { needsLogin: true, arg: 'required', run: (s, arg) => spendingRest(s, () => store(s, arg, 'APPE')) },
  STOU: { needsLogin: true, run: (s, arg) => spendingRest(s, () => store(s, arg, 'STOU')) },
  LIST: { needsLogin: true, run: (s, arg) => list(s, arg, 'LIST') },
  NLST: { needsLogin: true, run: (s, arg) => list(s, arg, 'NLST') },
  MLSD: { needsLogin: true, run: (s, arg) => list(s, arg, 'MLSD') },
  ABOR: { needsLogin: true, run: (s) => abor(s) },
  STAT: { needsLogin: false, run: (s, arg) => stat(s, arg) },
};
