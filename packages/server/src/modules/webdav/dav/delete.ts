// DELETE (RFC 4918 §9.6): a file, or a folder with everything below it (Depth infinity only).
// When the storage cannot delete a folder whole, the members are deleted one by one and those
// that fail are answered in a 207, each with its own status.
import type { Storage } from '../../../core/storage/types.js';
import { readBody } from './body.js';
import { mayChange } from './conditions.js';
import { DavError, davErrorOf, isNotFound, statusOf } from './errors.js';
import { type Exchange, mustWrite, type Resource, resourceOf, sendStatus, sendXml } from './exchange.js';
import { childPath, hrefOf } from './wirePath.js';
import { escapeXml, statusLine, XML_HEAD } from './xml.js';

/** Folders deeper than this are not walked member by member (a symlink loop must end). */
const MAX_WALK_DEPTH = 64;

export async function del(x: Exchange): Promise<void> {
  await readBody(x.req);
  if (x.place.kind !== 'mount') throw new DavError(x.place.kind === 'outside' ? 404 : 403);
  const r = resourceOf(x, x.place);
  mustWrite(r);
  // The mount's root is the whole storage: not deletable through the service.
  if (r.path === '/') throw new DavError(403);
  const depth = x.req.headers.depth;
  if (depth !== undefined && String(depth).trim().toLowerCase() !== 'infinity') throw new DavError(400);
  let kind: 'file' | 'dir';
  try {
    kind = (await r.storage.stat(r.path)).kind;
  } catch (err) {
    throw davErrorOf(err, 'read');
  }
  await mayChange(x, r, { membership: true, subtree: true });
  const failures = await remove(x, r, kind);
  if (failures.length === 0) {
    forget(x, r);
    sendStatus(x, 204);
    return;
  }
  if (failures.length === 1 && failures[0][0] === r.path) {
    sendStatus(x, failures[0][1]);
    return;
  }
  let body = `${XML_HEAD}<D:multistatus xmlns:D="DAV:">\n`;
  for (const [p, status, dir] of failures) {
    const href = hrefOf(x.opts.prefix, r.mount.name, p, dir);
    body += `<D:response><D:href>${escapeXml(href)}</D:href><D:status>${statusLine(status)}</D:status></D:response>\n`;
  }
  sendXml(x, 207, `${body}</D:multistatus>\n`);
}

/** Drop the locks and dead properties of what was deleted (a new resource there starts bare). */
function forget(x: Exchange, r: Resource): void {
  x.opts.locks.removeWithin(r.mount.storageKey, r.path);
  x.opts.locks.props.remove(r.mount.storageKey, r.path);
}

type Failure = [path: string, status: number, dir: boolean];

/** Delete `r`; the failures, deepest first (none: all gone). */
async function remove(x: Exchange, r: Resource, kind: 'file' | 'dir'): Promise<Failure[]> {
  try {
    await r.storage.delete(r.path);
    return [];
  } catch (err) {
    if (isNotFound(err)) return [];
    if (kind === 'file') return [[r.path, statusOf(err, 'write'), false]];
  }
  const failures: Failure[] = [];
  await walkDelete(r.storage, r.path, failures, 0, x.signal);
  return failures;
}

/** Delete below `p` member by member, then `p`; a folder that keeps a failed member is not reported itself. */
async function walkDelete(
  storage: Storage,
  p: string,
  failures: Failure[],
  depth: number,
  signal: AbortSignal,
): Promise<boolean> {
  if (depth > MAX_WALK_DEPTH || signal.aborted) {
    failures.push([p, 507, true]);
    return false;
  }
  let ok = true;
  try {
    for (const c of await storage.list(p)) {
      const cp = childPath(p, c.name);
      if (c.kind === 'dir') ok = (await walkDelete(storage, cp, failures, depth + 1, signal)) && ok;
      else {
        try {
          await storage.delete(cp);
        } catch (err) {
          if (isNotFound(err)) continue;
          failures.push([cp, statusOf(err, 'write'), false]);
          ok = false;
        }
      }
    }
  } catch (err) {
    if (isNotFound(err)) return true;
    failures.push([p, statusOf(err, 'write'), true]);
    return false;
  }
  if (!ok) return false;
  try {
    await storage.delete(p);
  } catch (err) {
    if (isNotFound(err)) return true;
    failures.push([p, statusOf(err, 'write'), true]);
    return false;
  }
  return true;
}
