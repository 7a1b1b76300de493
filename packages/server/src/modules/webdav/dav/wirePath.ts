// From the request target (or a Destination / If tag) to a place in the service: outside the
// prefix, above it (Windows probes the server's root), the prefix itself (the read-only root
// listing the mounts), or a path inside one mount's storage. Decoding and the path rules are
// core/storage/paths.ts's; `.` / `..` are refused, never resolved, so a wire path cannot climb.
import { decodeUrlPath, isWithin } from '../../../core/storage/paths.js';
import { DavError } from './errors.js';

/** Where a decoded path lands under the service's prefix. */
export type Place =
  | { kind: 'outside' }
  /** An ancestor of the prefix (`/` when the prefix is `/dav`). */
  | { kind: 'above'; path: string }
  /** The prefix itself: the collection of the mounts. */
  | { kind: 'root' }
  /** Inside a mount: its name and the canonical path in its storage (`/` for the mount's root). */
  | { kind: 'mount'; mount: string; path: string };

/** The raw path of a request target: origin-form, or absolute-form / an absolute URL (its host is not ours to judge). */
export function rawPathOf(target: string): string {
  let raw = target;
  const abs = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(raw);
  if (abs) raw = raw.slice(abs[0].length) || '/';
  const cut = raw.search(/[?#]/);
  if (cut >= 0) raw = raw.slice(0, cut);
  return raw;
}

/** The place of a request target or header URL; a path that does not decode is a 400. */
export function placeOf(prefix: string, target: string): Place {
  const raw = rawPathOf(target);
  if (!raw.startsWith('/')) throw new DavError(400);
  let path: string;
  try {
    path = decodeUrlPath(raw);
  } catch {
    throw new DavError(400);
  }
  return placeOfPath(prefix, path);
}

/** The place of a decoded canonical path. */
export function placeOfPath(prefix: string, path: string): Place {
  if (prefix !== '/') {
    if (path === prefix) return { kind: 'root' };
    if (!path.startsWith(`${prefix}/`)) {
      return prefix.startsWith(path === '/' ? '/' : `${path}/`) ? { kind: 'above', path } : { kind: 'outside' };
    }
    path = path.slice(prefix.length);
  }
  if (path === '/') return { kind: 'root' };
  const slash = path.indexOf('/', 1);
  if (slash < 0) return { kind: 'mount', mount: path.slice(1), path: '/' };
  return { kind: 'mount', mount: path.slice(1, slash), path: path.slice(slash) };
}

const encodeSegment = (s: string) => encodeURIComponent(s);

/** The URL of the root collection. */
export function rootHref(prefix: string): string {
  return prefix === '/' ? '/' : `${prefix}/`;
}

/** The URL of a resource in a mount (collections end with `/`). */
export function hrefOf(prefix: string, mount: string, path: string, collection: boolean): string {
  let href = rootHref(prefix) + encodeSegment(mount);
  if (path !== '/') for (const seg of path.slice(1).split('/')) href += `/${encodeSegment(seg)}`;
  return collection ? `${href}/` : href;
}

/** The URL of a path above the prefix. */
export function aboveHref(path: string): string {
  return path === '/' ? '/' : `${path.split('/').map(encodeSegment).join('/')}/`;
}

/** The decoded path under the prefix, for log lines. */
export function displayPath(place: Place): string {
  switch (place.kind) {
    case 'mount':
      return `/${place.mount}${place.path === '/' ? '' : place.path}`;
    case 'above':
      return place.path;
    default:
      return '/';
  }
}

/** `/a/b` → `/a`; `/a` → `/`. */
export function parentPath(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** `/a/b` → `b`. */
export function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Is `path` `base` or below it (canonical paths)? */
export const within = isWithin;

/** `base` joined with a name. */
export function childPath(base: string, name: string): string {
  return base === '/' ? `/${name}` : `${base}/${name}`;
}

/** `p` (at or below `from`) moved to below `to`. */
export function rebase(from: string, to: string, p: string): string {
  const rel = p === from ? '' : from === '/' ? p : p.slice(from.length);
  if (rel === '') return to;
  return to === '/' ? rel : to + rel;
}
