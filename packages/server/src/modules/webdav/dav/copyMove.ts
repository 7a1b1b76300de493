// COPY and MOVE (RFC 4918 §9.8, §9.9). The Destination is an absolute URL or path; only its path
// is compared with the prefix (a reverse proxy may change the host), decoded as request paths
// are. Within one storage the storage copies / renames; between two storages the files are
// streamed across (and a MOVE deletes the source once the copy is whole).
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Storage, type StorageEntry, StorageError } from '../../../core/storage/types.js';
import { quiet, readBody } from './body.js';
import { checkIf, locksFor, requireTokens } from './conditions.js';
import { DavError, davErrorOf, isNotFound } from './errors.js';
import { type Exchange, mustWrite, type Resource, resourceOf, sendStatus } from './exchange.js';
import { childPath, displayPath, placeOf, within } from './wirePath.js';

/** Folders nested deeper than this are not copied across storages (a symlink loop must end). */
const MAX_COPY_DEPTH = 64;

export async function copyMove(x: Exchange): Promise<void> {
  await readBody(x.req);
  const move = x.method === 'MOVE';
  if (x.place.kind !== 'mount') throw new DavError(x.place.kind === 'outside' ? 404 : 403);
  const src = resourceOf(x, x.place);
  if (move) {
    mustWrite(src);
    if (src.path === '/') throw new DavError(403);
  }

  const header = x.req.headers.destination;
  if (typeof header !== 'string' || header === '') throw new DavError(400);
  const destPlace = placeOf(x.opts.prefix, header);
  if (destPlace.kind === 'outside') throw new DavError(502);
  x.destination = displayPath(destPlace);
  if (destPlace.kind !== 'mount' || destPlace.path === '/') throw new DavError(403);
  let dst: Resource;
  try {
    dst = resourceOf(x, destPlace);
  } catch (err) {
    // A mount the user cannot see is not a place they can write to.
    throw err instanceof DavError && err.status === 404 ? new DavError(403) : err;
  }
  mustWrite(dst);

  const depthHeader = x.req.headers.depth;
  const depth = depthHeader === undefined ? 'infinity' : String(depthHeader).trim().toLowerCase();
  if (depth !== 'infinity' && (move || depth !== '0')) throw new DavError(400);
  const overwriteHeader = String(x.req.headers.overwrite ?? 'T')
    .trim()
    .toUpperCase();
  if (overwriteHeader !== 'T' && overwriteHeader !== 'F') throw new DavError(400);
  const overwrite = overwriteHeader === 'T';
  const recursive = depth === 'infinity';

  const sameStorage = src.mount.storageKey === dst.mount.storageKey;
  if (sameStorage && src.path === dst.path) throw new DavError(403);

  let from: StorageEntry;
  try {
    from = await src.storage.stat(src.path);
  } catch (err) {
    throw davErrorOf(err, 'read');
  }
  // Into itself, or over one of its own ancestors (which would delete the source first).
  if (sameStorage && from.kind === 'dir' && within(src.path, dst.path)) throw new DavError(403);
  let to: StorageEntry | undefined;
  try {
    to = await dst.storage.stat(dst.path);
  } catch (err) {
    if (!isNotFound(err)) throw davErrorOf(err, 'read');
  }
  if (sameStorage && to && within(dst.path, src.path)) throw new DavError(403);
  if (to && !overwrite) throw new DavError(412);

  await checkIf(x, src);
  if (move) requireTokens(x, locksFor(x, src, { membership: true, subtree: true }), (l) => l.rootHref);
  requireTokens(x, locksFor(x, dst, { membership: !to, subtree: !!to }), (l) => l.rootHref);

  const atomicReplace = sameStorage && to?.kind === 'file' && from.kind === 'file';
  try {
    if (to && !atomicReplace) await dst.storage.delete(dst.path);
    if (sameStorage) {
      if (move) await src.storage.move(src.path, dst.path, { overwrite: atomicReplace });
      else await src.storage.copy(src.path, dst.path, { overwrite: atomicReplace, recursive });
    } else {
      await copyAcross(src.storage, src.path, dst.storage, dst.path, recursive, x.signal, 0);
      if (move) await src.storage.delete(src.path);
    }
  } catch (err) {
    throw davErrorOf(err, 'write');
  }

  const { props } = x.opts.locks;
  await props.ready(src.mount.storageKey);
  await props.ready(dst.mount.storageKey);
  if (to) props.remove(dst.mount.storageKey, dst.path);
  props.copy(src.mount.storageKey, src.path, dst.mount.storageKey, dst.path, move || recursive);
  if (move) {
    props.remove(src.mount.storageKey, src.path);
    // A lock does not move with its resource (RFC 4918 §9.9.4).
    x.opts.locks.removeWithin(src.mount.storageKey, src.path);
  }
  sendStatus(x, to ? 204 : 201);
}

/** Copy a file or folder from one storage to another, streaming the files. */
async function copyAcross(
  from: Storage,
  fp: string,
  to: Storage,
  tp: string,
  recursive: boolean,
  signal: AbortSignal,
  depth: number,
): Promise<void> {
  const e = await from.stat(fp);
  if (e.kind === 'file') {
    const input = quiet(await from.read(fp, { signal }));
    let output: Writable;
    try {
      output = quiet(await to.write(tp, { mode: 'replace', signal }));
    } catch (err) {
      input.destroy();
      throw err;
    }
    await pipeline(input, output, { signal });
    await to.setMtime(tp, e.mtimeMs).catch(() => undefined);
    return;
  }
  await to.mkdir(tp);
  if (!recursive) return;
  if (depth >= MAX_COPY_DEPTH) throw new StorageError('failed', fp, 'folders nested too deep');
  for (const c of await from.list(fp, { signal })) {
    await copyAcross(from, childPath(fp, c.name), to, childPath(tp, c.name), true, signal, depth + 1);
  }
}
