// Calls of the file manager (packages/shared/src/modules/filebrowser.ts). Calls that change
// something are `silent`: the screen words their failures (`filebrowser.err_<code>`) itself.
import type {
  ConflictPolicy,
  FilebrowserBatchResponse,
  FilebrowserExistsResponse,
  FilebrowserListResponse,
  FilebrowserRootsResponse,
  FilebrowserTextResponse,
  FilebrowserTicketResponse,
} from '@lucky/shared';
import { get, post } from '../../api/client';

const BASE = 'api/filebrowser';

export const filebrowserKeys = {
  all: ['filebrowser'] as const,
  roots: ['filebrowser', 'roots'] as const,
  list: (storage: string, path: string) => ['filebrowser', 'list', storage, path] as const,
  ticket: (storage: string) => ['filebrowser', 'ticket', storage] as const,
};

export const fetchRoots = (signal?: AbortSignal) => get<FilebrowserRootsResponse>(`${BASE}/roots`, { signal });
export const fetchList = (storage: string, path: string, signal?: AbortSignal) =>
  get<FilebrowserListResponse>(`${BASE}/list`, { query: { storage, path }, signal, silent: true });
export const fetchTicket = (storage: string) =>
  post<FilebrowserTicketResponse>(`${BASE}/ticket`, { storage }, { silent: true });

export const makeDir = (storage: string, dir: string, name: string) =>
  post(`${BASE}/mkdir`, { storage, dir, name }, { silent: true });
export const makeTextFile = (storage: string, path: string) =>
  post<FilebrowserTextResponse>(`${BASE}/text`, { storage, path, content: '', mode: 'create' }, { silent: true });
export const renameEntry = (storage: string, path: string, name: string) =>
  post(`${BASE}/rename`, { storage, path, name }, { silent: true });
export const deleteEntries = (storage: string, dir: string, names: string[]) =>
  post<FilebrowserBatchResponse>(`${BASE}/delete`, { storage, dir, names }, { silent: true, timeoutMs: 600_000 });
export const existingNames = (storage: string, dir: string, names: string[]) =>
  post<FilebrowserExistsResponse>(`${BASE}/exists`, { storage, dir, names }, { silent: true });

export interface TransferSource {
  storage: string;
  dir: string;
  names: string[];
}
/** Move or copy: a cross-storage copy streams every byte, so it gets a long time-out. */
export const transfer = (
  op: 'move' | 'copy',
  from: TransferSource,
  to: { storage: string; dir: string },
  conflict: ConflictPolicy,
) =>
  post<FilebrowserBatchResponse>(
    `${BASE}/transfer`,
    { op, from, to, conflict },
    { silent: true, timeoutMs: 3_600_000 },
  );

/** Where tus uploads go (absolute: tus-js-client resolves the Location answers against it). */
export const uploadEndpoint = () => new URL(`${BASE}/uploads`, window.location.href).toString();

/** URLs for `<a>` and `<img>` (no header there: the storage's read ticket goes in the query). */
export function fileUrl(storage: string, path: string, ticket: string, download = false): string {
  const q = new URLSearchParams({ storage, path, ticket });
  if (download) q.set('download', '1');
  return `${BASE}/file?${q}`;
}
export function thumbUrl(storage: string, path: string, ticket: string, size = 256): string {
  return `${BASE}/thumb?${new URLSearchParams({ storage, path, ticket, size: String(size) })}`;
}
export function zipUrl(storage: string, dir: string, names: string[], ticket: string): string {
  const q = new URLSearchParams({ storage, dir, ticket });
  for (const n of names) q.append('name', n);
  return `${BASE}/zip?${q}`;
}
