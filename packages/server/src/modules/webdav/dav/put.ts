// PUT: the body streamed into the storage (`replace`: written beside and renamed over the old
// file when whole, so readers never see half of it), with back-pressure from the storage to the
// client; 201 for a new file, 204 for a replaced one.
import { Transform, type TransformCallback, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type StorageEntry, StorageError } from '../../../core/storage/types.js';
import { bodyStream, ClientGone, quiet } from './body.js';
import { httpPreconditions, mayChange } from './conditions.js';
import { DavError, davErrorOf, isNotFound } from './errors.js';
import { type Exchange, mustWrite, refuseAtMountRoot, resourceOf, sendStatus } from './exchange.js';

export async function put(x: Exchange): Promise<void> {
  if (x.place.kind !== 'mount') throw new DavError(x.place.kind === 'outside' ? 404 : 403);
  refuseAtMountRoot(x);
  const r = resourceOf(x, x.place);
  mustWrite(r);
  // No partial PUT (RFC 9110 §14.5): refused as nginx's dav module does, not written whole.
  if (x.req.headers['content-range'] !== undefined) throw new DavError(501);
  let entry: StorageEntry | undefined;
  try {
    entry = await r.storage.stat(r.path);
  } catch (err) {
    if (!isNotFound(err)) throw davErrorOf(err, 'read');
  }
  if (entry?.kind === 'dir') throw new DavError(405);
  await mayChange(x, r, { membership: !entry });
  const pre = httpPreconditions(x, entry);
  if (pre) throw new DavError(pre);

  let out: Writable;
  try {
    out = quiet(await r.storage.write(r.path, { mode: 'replace', signal: x.signal }));
  } catch (err) {
    throw davErrorOf(err, 'write');
  }
  const body = bodyStream(x.req);
  try {
    if (body) await pipeline(body, counter(x), out, { signal: x.signal });
    else await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  } catch (err) {
    out.destroy(err instanceof Error ? err : new Error('aborted'));
    // A body that stopped before its end is the client going away, not the storage failing.
    if (x.signal.aborted || (body && !body.readableEnded && !(err instanceof StorageError))) throw new ClientGone();
    throw davErrorOf(err, 'write');
  }
  if (!entry) x.opts.locks.props.remove(r.mount.storageKey, r.path);
  const after = await r.storage.stat(r.path).catch(() => undefined);
  sendStatus(x, entry ? 204 : 201, after ? { etag: after.etag } : {});
}

/** Counts the body bytes for the log, passing them on untouched. */
function counter(x: Exchange): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
      x.bytes += chunk.length;
      cb(null, chunk);
    },
  });
}
