// Folders, names and times: PWD, CWD, CDUP, MKD, RMD, DELE, RNFR / RNTO, SIZE, MDTM, MFMT, MLST.
// Every argument is resolved in the session's virtual space (virtualFs.ts) first; writes go
// through `locateWritable`, which refuses the root, a mount itself and read-only places.
import type { StorageEntry } from '../../../core/storage/types.js';
import type { Command } from './commands.js';
import { FtpError, storageReply } from './errors.js';
import { type ListedEntry, listedOf, mlsxLine } from './listing.js';
import { ftpTime, parseFtpTime, quotePath } from './reply.js';
import type { FtpSession } from './session.js';
import { type Located, resolveVirtualPath } from './virtualFs.js';

/** Storage calls with their failures as FTP replies (`write`: 553 for a bad name). */
export async function guarded<T>(p: Promise<T>, write = false): Promise<T> {
  try {
    return await p;
  } catch (err) {
    throw storageReply(err, write);
  }
}

export function vpathOf(s: FtpSession, arg: string): string {
  return resolveVirtualPath(s.cwd, arg.trim() === '' ? '.' : arg);
}

/** The listing entry for a located place: the root and a mount's top are folders. */
export async function entryOf(at: Located): Promise<ListedEntry> {
  if (at.kind === 'root') return { name: '/', kind: 'dir', size: 0, mtimeMs: 0, writable: false, id: 'root' };
  const e: StorageEntry = await guarded(at.storage.stat(at.path));
  const listed = listedOf(e, at.storage.key, at.writable);
  return at.path === '/' ? { ...listed, name: at.mount.name } : listed;
}

function logChange(s: FtpSession, verb: string, path: string): void {
  s.host.log(4, 'changed', { user: s.userName, client: s.client, verb, path });
}

async function fileOf(
  s: FtpSession,
  arg: string,
): Promise<{ at: Extract<Located, { kind: 'mount' }>; entry: StorageEntry }> {
  const at = s.fs.locate(vpathOf(s, arg));
  if (at.kind === 'root') throw new FtpError(550, 'Not a regular file');
  const entry = await guarded(at.storage.stat(at.path));
  if (entry.kind !== 'file') throw new FtpError(550, 'Not a regular file');
  return { at, entry };
}

async function cwd(s: FtpSession, arg: string): Promise<void> {
  const vpath = vpathOf(s, arg);
  const at = s.fs.locate(vpath);
  if (at.kind === 'mount') {
    const e = await guarded(at.storage.stat(at.path));
    if (e.kind !== 'dir') throw new FtpError(550, 'Not a directory');
  }
  s.cwd = vpath;
  s.reply(250, `Directory changed to ${vpath}`);
}

async function rename(s: FtpSession, arg: string, from: string | undefined): Promise<void> {
  if (from === undefined) throw new FtpError(503, 'Send RNFR first');
  const src = s.fs.locateWritable(from);
  const dstPath = vpathOf(s, arg);
  const dst = s.fs.locateWritable(dstPath, true);
  if (src.mount.key !== dst.mount.key) throw new FtpError(553, 'Cannot rename across mounts');
  // Onto a file it replaces it (as rename(2)); onto a folder it is refused, never a folder deleted.
  const target = await dst.storage.stat(dst.path).catch(() => undefined);
  if (target?.kind === 'dir') throw new FtpError(553, 'A directory of that name exists');
  await guarded(dst.storage.move(src.path, dst.path, { overwrite: target !== undefined }), true);
  logChange(s, 'RNTO', `${from} -> ${dstPath}`);
  s.reply(250, 'Rename successful');
}

export const PATH_COMMANDS: Record<string, Command> = {
  PWD: { needsLogin: true, run: (s) => s.reply(257, `${quotePath(s.cwd)} is the current directory`) },
  CWD: { needsLogin: true, run: (s, arg) => cwd(s, arg) },
  CDUP: { needsLogin: true, run: (s) => cwd(s, '..') },
  MKD: {
    needsLogin: true,
    arg: 'required',
    async run(s, arg) {
      const vpath = vpathOf(s, arg);
      const at = s.fs.locateWritable(vpath);
      await guarded(at.storage.mkdir(at.path));
      logChange(s, 'MKD', vpath);
      s.reply(257, `${quotePath(vpath)} created`);
    },
  },
  RMD: {
    needsLogin: true,
    arg: 'required',
    async run(s, arg) {
      const vpath = vpathOf(s, arg);
      const at = s.fs.locateWritable(vpath);
      const e = await guarded(at.storage.stat(at.path));
      if (e.kind !== 'dir') throw new FtpError(550, 'Not a directory');
      // The storage deletes a folder with what is in it; RMD removes empty folders only.
      if ((await guarded(at.storage.list(at.path))).length > 0) throw new FtpError(550, 'Directory not empty');
      await guarded(at.storage.delete(at.path));
      logChange(s, 'RMD', vpath);
      s.reply(250, 'Directory removed');
    },
  },
  DELE: {
    needsLogin: true,
    arg: 'required',
    async run(s, arg) {
      const vpath = vpathOf(s, arg);
      const at = s.fs.locateWritable(vpath);
      const e = await guarded(at.storage.stat(at.path));
      if (e.kind !== 'file') throw new FtpError(550, 'Is a directory');
      await guarded(at.storage.delete(at.path));
      logChange(s, 'DELE', vpath);
      s.reply(250, 'File deleted');
    },
  },
  RNFR: {
    needsLogin: true,
    arg: 'required',
    async run(s, arg) {
      const vpath = vpathOf(s, arg);
      const at = s.fs.locateWritable(vpath);
      await guarded(at.storage.stat(at.path));
      s.renameFrom = vpath;
      s.reply(350, 'Ready for RNTO');
    },
  },
  RNTO: { needsLogin: true, arg: 'required', run: (s, arg, ctx) => rename(s, arg, ctx.renameFrom) },
  SIZE: {
    needsLogin: true,
    arg: 'required',
    async run(s, arg) {
      const { entry } = await fileOf(s, arg);
      s.reply(213, String(entry.size));
    },
  },
  MDTM: {
    needsLogin: true,
    arg: 'required',
    async run(s, arg) {
      const { entry } = await fileOf(s, arg);
      s.reply(213, ftpTime(entry.mtimeMs));
    },
  },
  MFMT: {
    needsLogin: true,
    arg: 'required',
    async run(s, arg) {
      const space = arg.indexOf(' ');
      const ms = space < 0 ? undefined : parseFtpTime(arg.slice(0, space));
      if (ms === undefined) throw new FtpError(501, 'Usage: MFMT YYYYMMDDHHMMSS path');
      const vpath = vpathOf(s, arg.slice(space + 1));
      const at = s.fs.locateWritable(vpath);
      await guarded(at.storage.setMtime(at.path, ms));
      s.reply(213, `Modify=${ftpTime(ms)}; ${vpath}`);
    },
  },
  MLST: {
    needsLogin: true,
    async run(s, arg) {
      const vpath = vpathOf(s, arg);
      const entry = await entryOf(s.fs.locate(vpath));
      s.reply(250, [`Listing ${vpath}`, mlsxLine(entry, s.mlstFacts, vpath), 'End']);
    },
  },
};

// RFC 959's X-forms (old Windows and VMS clients) do the same.
PATH_COMMANDS.XPWD = PATH_COMMANDS.PWD as Command;
PATH_COMMANDS.XCWD = PATH_COMMANDS.CWD as Command;
PATH_COMMANDS.XCUP = PATH_COMMANDS.CDUP as Command;
PATH_COMMANDS.XMKD = PATH_COMMANDS.MKD as Command;
PATH_COMMANDS.XRMD = PATH_COMMANDS.RMD as Command;
