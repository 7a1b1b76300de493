// An entry of storage management as a Storage: the backend its kind names, read-only as set.
import type { StorageEntryConfig } from '@lucky/shared';
import { createLocalStorage } from '../../core/storage/local.js';
import type { Storage, StorageInfo } from '../../core/storage/types.js';
import { createWebdavStorage } from '../../core/storage/webdavRemote.js';

export function openStorage(entry: StorageEntryConfig): Storage {
  if (entry.kind === 'local') {
    return createLocalStorage({ key: entry.key, root: entry.local.path, readOnly: entry.readOnly });
  }
  return createWebdavStorage({
    key: entry.key,
    url: entry.webdav.url,
    user: entry.webdav.user,
    password: entry.webdav.password,
    tlsVerify: entry.webdav.tlsVerify,
    readOnly: entry.readOnly,
  });
}

export const infoOf = (entry: StorageEntryConfig): StorageInfo => ({
  key: entry.key,
  name: entry.name,
  kind: entry.kind,
  readOnly: entry.readOnly,
});

/** What makes two configs of an entry open the same storage (the name and switch do not). */
export const backendId = (e: StorageEntryConfig): string =>
  JSON.stringify([e.kind, e.readOnly, e.kind === 'local' ? e.local : e.webdav]);
