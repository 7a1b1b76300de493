// Calls of the file manager (packages/shared/src/modules/filebrowser.ts). Calls that change
// something are `silent`: the screen words their failures (`filebrowser.err_<code>`) itself.
import type {
  ConflictPolicy,
  FilebrowserBatchResponse,
  FilebrowserExistsResponse,
  FilebrowserListResponse,
  FilebrowserLogsResponse,
  FilebrowserRootsResponse,
  FilebrowserSettingsPatch,
  FilebrowserSettingsResponse,
  FilebrowserShareInput,
  FilebrowserSharePatch,
  FilebrowserShareResponse,
  FilebrowserSharesResponse,
  FilebrowserTextResponse,
  FilebrowserTicketResponse,
} from '@lucky/shared';
import { ApiError, buildUrl, del, get, post, put, settleAnswer } from '../../api/client';
import { getItem } from '../../api/storage';

const BASE = 'api/filebrowser';

export const filebrowserKeys = {
  all: ['filebrowser'] as const,
  roots: ['filebrowser', 'roots'] as const,
  list: (storage: string, path: string) => ['filebrowser', 'list', storage, path] as const,
  ticket: (storage: string) => ['filebrowser', 'ticket', storage] as const,
  settings: ['filebrowser', 'settings'] as const,
  shares: ['filebrowser', 'shares'] as const,
  logs: ['filebrowser', 'logs'] as const,
};

export const fetchRoots = (signal?: AbortSignal) => get<FilebrowserRootsResponse>(`${BASE}/roots`, { signal });
export const fetchList = (storage: string, path: string, signal?: AbortSignal) =>
  get<FilebrowserListResponse>(`${BASE}/list`, { query: { storage, path }, signal, silent: true });
export const fetchTicket = (storage: string) =>
  post<FilebrowserTicketResponse>(`${BASE}/ticket`, { storage }, { silent: true });

export const makeDir = (storage: string, dir: string, name: string) =>
  post(`${BASE}/mkdir`, { storage, dir, name }, { silent: true });
/** A new empty text file (the toolbar's "new text file"). */
export const makeTextFile = (storage: string, path: string) => createTextFile(storage, path, '');
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

// ---- preview, editor, share links, settings, log --------------------------------------------

export interface TextFile {
  content: string;
  /** The version it was read at: a save sends it back, the server refuses when the file changed since. */
  etag: string;
}

/**
 * A text file for the viewer and the editor, read with the session's token (not the ticket: the
 * editor's content must come from the signed-in admin). Invalid UTF-8 shows as U+FFFD; the caller
 * checks the size first (FILEBROWSER_LIMITS.editBytes).
 */
export async function readTextFile(
  storage: string,
  path: string,
  fallbackEtag: string,
  signal?: AbortSignal,
): Promise<TextFile> {
  const token = getItem('token');
  let response: Response;
  try {
    response = await fetch(buildUrl(`${BASE}/file`, { storage, path }), {
      cache: 'no-store',
      signal,
      headers: token ? { Authorization: token } : {},
    });
  } catch {
    if (signal?.aborted) throw new ApiError('aborted', 'aborted');
    throw new ApiError('network', 'network');
  }
  if (!response.ok) {
    // The refusal is the usual JSON reply: the client's rules (session end, wording) apply.
    settleAnswer(response.status, await response.text(), { silent: true });
    throw new ApiError('http', String(response.status), { status: response.status });
  }
  const content = new TextDecoder('utf-8').decode(await response.arrayBuffer());
  return { content, etag: response.headers.get('ETag') ?? fallbackEtag };
}

/** The editor's save: replaces the file only while it is still the version read (else `changedOnDisk`). */
export const saveTextFile = (storage: string, path: string, content: string, etag: string) =>
  post<FilebrowserTextResponse>(
    `${BASE}/text`,
    { storage, path, content, mode: 'replace', etag },
    { silent: true, timeoutMs: 60_000 },
  );

/** "Save as": a new file (refused with storage_exists when the name is taken). */
export const createTextFile = (storage: string, path: string, content: string) =>
  post<FilebrowserTextResponse>(
    `${BASE}/text`,
    { storage, path, content, mode: 'create' },
    { silent: true, timeoutMs: 60_000 },
  );

export const fetchShares = (signal?: AbortSignal) => get<FilebrowserSharesResponse>(`${BASE}/shares`, { signal });
export const createShare = (input: FilebrowserShareInput) =>
  post<FilebrowserShareResponse>(`${BASE}/shares`, input, { silent: true });
export const updateShare = (key: string, patch: FilebrowserSharePatch) =>
  put<FilebrowserShareResponse>(`${BASE}/shares/${encodeURIComponent(key)}`, patch, { silent: true });
export const deleteShare = (key: string) => del(`${BASE}/shares/${encodeURIComponent(key)}`, { silent: true });

export const fetchSettings = (signal?: AbortSignal) => get<FilebrowserSettingsResponse>(`${BASE}/settings`, { signal });
export const saveSettings = (patch: FilebrowserSettingsPatch) =>
  put<FilebrowserSettingsResponse>(`${BASE}/settings`, patch, { silent: true });

export const fetchLogs = (q: { page: number; pageSize: number }, signal?: AbortSignal) =>
  get<FilebrowserLogsResponse>(`${BASE}/logs`, { query: { ...q, order: 'newest' }, signal });
export const clearLogs = () => del(`${BASE}/logs`, { silent: true });

/** The full address of a share link: this console's origin and the link's path (`/s/<id>`). */
export function shareLink(url: string): string {
  return new URL(url, window.location.origin).toString();
}
