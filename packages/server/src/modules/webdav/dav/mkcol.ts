import { readBody } from './body.js';
import { mayChange } from './conditions.js';
import { DavError, davErrorOf, isNotFound } from './errors.js';
import { type Exchange, mustWrite, refuseAtMountRoot, resourceOf, sendStatus } from './exchange.js';

/** MKCOL (RFC 4918 §9.3): a body is a 415, an existing resource a 405, a missing parent a 409. */
export async function mkcol(x: Exchange): Promise<void> {
  const body = await readBody(x.req);
  if (x.place.kind !== 'mount') throw new DavError(x.place.kind === 'outside' ? 404 : 403);
  if (body.length > 0) throw new DavError(415);
  refuseAtMountRoot(x);
  const r = resourceOf(x, x.place);
  mustWrite(r);
  const exists = await r.storage.stat(r.path).then(
    () => true,
    (err) => {
      if (isNotFound(err)) return false;
      throw davErrorOf(err, 'read');
    },
  );
  if (exists) throw new DavError(405);
  await mayChange(x, r, { membership: true });
  try {
    await r.storage.mkdir(r.path);
  } catch (err) {
    throw davErrorOf(err, 'write');
  }
  x.opts.locks.props.remove(r.mount.storageKey, r.path);
  sendStatus(x, 201);
}
