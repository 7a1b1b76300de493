// Storage management's checks beyond its schema, and the refusals in its vocabulary: a local
// folder must exist and be a folder when an enabled entry is saved (a disabled one may name a
// disk that is not plugged in now); publishing `/` or sending a password over plain HTTP is
// saved with a warning.
import { constants, promises as fs } from 'node:fs';
import nodePath from 'node:path';
import {
  type Coded,
  STORAGEMANAGEMENT_WARNINGS,
  type StorageEntryConfig,
  type StoragemanagementIssueCode,
  storagemanagementIssues,
} from '@lucky/shared';
import { type ApiFailure, fieldFailure } from '../../core/http/reply.js';

const STATUS: Partial<Record<StoragemanagementIssueCode, number>> = {
  storageNotFound: 404,
  storageInUse: 409,
  moduleDisabled: 409,
};

export function refuse(
  field: string,
  code: StoragemanagementIssueCode,
  params: Record<string, unknown> = {},
  status = STATUS[code] ?? 400,
): ApiFailure {
  return fieldFailure({ field, code, params, msg: storagemanagementIssues.describe(code, params) }, status);
}

/** Refuses an enabled local entry whose folder is missing, a file, or closed to us. */
export async function checkFolder(entry: StorageEntryConfig): Promise<void> {
  if (!entry.enabled || entry.kind !== 'local') return;
  const path = entry.local.path;
  let code: StoragemanagementIssueCode | undefined;
  try {
    const st = await fs.stat(path);
    if (!st.isDirectory()) code = 'pathNotDir';
    else await fs.access(path, constants.R_OK | constants.X_OK);
  } catch (e) {
    const errno = (e as NodeJS.ErrnoException).code;
    code = errno === 'EACCES' || errno === 'EPERM' ? 'pathDenied' : errno === 'ENOTDIR' ? 'pathNotDir' : 'pathNotFound';
  }
  if (code) throw refuse('local.path', code, { path });
}

/** What the owner should know about a saved entry (it is saved all the same). */
export function warningsOf(entry: StorageEntryConfig): Coded[] {
  const out: Coded[] = [];
  if (entry.kind === 'local' && nodePath.resolve(entry.local.path) === '/') out.push({ code: 'rootFolder' });
  if (entry.kind === 'webdav' && /^http:\/\//i.test(entry.webdav.url) && entry.webdav.password !== '') {
    let host = '';
    try {
      host = new URL(entry.webdav.url).host;
    } catch {
      host = entry.webdav.url;
    }
    out.push({ code: 'plainHttp', params: { host } });
  }
  return out;
}

/** English of a warning, for the log. */
export const warningText = (w: Coded): string =>
  STORAGEMANAGEMENT_WARNINGS[w.code as keyof typeof STORAGEMANAGEMENT_WARNINGS].replace(/\{(\w+)\}/g, (m, n: string) =>
    n in (w.params ?? {}) ? String(w.params?.[n]) : m,
  );
