import { StorageError } from '../../../core/storage/types.js';

/**
 * A refusal with its HTTP status and, where RFC 4918 names one, the precondition / postcondition
 * element answered in a `DAV:error` body (`lock-token-submitted`, `propfind-finite-depth`, …),
 * with the hrefs it lists.
 */
export class DavError extends Error {
  constructor(
    readonly status: number,
    readonly condition?: string,
    readonly hrefs: readonly string[] = [],
  ) {
    super(`${status}${condition ? ` ${condition}` : ''}`);
    this.name = 'DavError';
  }
}

/**
 * What a storage operation was doing, for the one place where storage codes become statuses:
 * - `read`: GET, PROPFIND, the source of COPY — a path through a file is just not found;
 * - `write`: the target of PUT, MKCOL, COPY, MOVE — a missing or non-folder parent is a conflict.
 */
export type StorageOp = 'read' | 'write';

/** The HTTP status of a storage failure (RFC 4918 §9 for the conflict cases). */
export function statusOf(err: unknown, op: StorageOp): number {
  if (err instanceof DavError) return err.status;
  if (!(err instanceof StorageError)) return 500;
  switch (err.code) {
    case 'badPath':
      return 400;
    case 'notFound':
      return op === 'write' ? 409 : 404;
    case 'notDir':
      return op === 'write' ? 409 : 404;
    case 'exists':
    case 'isDir':
    case 'conflict':
      return 409;
    case 'readOnly':
    case 'denied':
      return 403;
    case 'noSpace':
      return 507;
    case 'unreachable':
      return 503;
    case 'badAnswer':
      return 502;
    default:
      return 500;
  }
}

/** A storage failure as a DavError (other errors pass through as 500s). */
export function davErrorOf(err: unknown, op: StorageOp): DavError {
  if (err instanceof DavError) return err;
  return new DavError(statusOf(err, op));
}

/** `notFound` from the storage (a missing resource is often an answer, not a failure). */
export const isNotFound = (err: unknown) =>
  err instanceof StorageError && (err.code === 'notFound' || err.code === 'notDir');
