import {
  FILEBROWSER_STORAGE_ERRORS,
  type FilebrowserConfig,
  type FilebrowserStorageErrorCode,
  filebrowserIssues,
  fillTemplate,
} from '@lucky/shared';
import { ApiFailure, fieldFailure } from '../../core/http/reply.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { type Storage, StorageError } from '../../core/storage/types.js';
import type { FilebrowserRuntime } from './runtime.js';

/** The HTTP status of each storage failure. */
const STATUS: Record<StorageError['code'], number> = {
  badPath: 400,
  notFound: 404,
  exists: 409,
  notDir: 409,
  isDir: 409,
  conflict: 409,
  readOnly: 403,
  denied: 403,
  noSpace: 507,
  unreachable: 502,
  badAnswer: 502,
  failed: 500,
};

/**
 * A storage failure as the API answers it: `storage_<code>` with the path (never the storage's
 * real location on disk) and the system's words as `detail`.
 */
export function storageFailure(err: unknown, field = 'path'): ApiFailure {
  if (err instanceof ApiFailure) return err;
  if (!(err instanceof StorageError)) throw err;
  const code = `storage_${err.code}` as FilebrowserStorageErrorCode;
  const params = { path: err.path, detail: err.detail ?? err.code };
  return fieldFailure(
    { field, code, params, msg: fillTemplate(FILEBROWSER_STORAGE_ERRORS[code], params) },
    STATUS[err.code] ?? 500,
  );
}

/** Runs `f`, answering a storage failure in the API's words. */
export async function onStorage<T>(f: () => Promise<T>, field?: string): Promise<T> {
  try {
    return await f();
  } catch (err) {
    throw storageFailure(err, field);
  }
}

/** The running module, or `moduleDisabled` (409). */
export function runningModule(api: ModuleApi<FilebrowserConfig>): FilebrowserRuntime {
  const rt = api.runtime() as FilebrowserRuntime | undefined;
  if (!rt)
    throw fieldFailure(
      { field: '', code: 'moduleDisabled', params: {}, msg: filebrowserIssues.describe('moduleDisabled') },
      409,
    );
  return rt;
}

/**
 * The storage with this key, looked up per request (never kept: storage management may replace
 * it), or `storageUnavailable` naming the field.
 */
export function storageOf(api: ModuleApi<FilebrowserConfig>, key: string, field = 'storage'): Storage {
  const s = api.storages.get(key);
  if (!s) {
    const params = { storage: key };
    throw fieldFailure(
      { field, code: 'storageUnavailable', params, msg: filebrowserIssues.describe('storageUnavailable', params) },
      404,
    );
  }
  return s;
}

/** `dir` + `name` as a storage path (`/` + name at the root). */
export const joinPath = (dir: string, name: string): string =>
  dir === '/' || dir === '' ? `/${name}` : `${dir.replace(/\/+$/, '')}/${name}`;
