// Calls of storage management (docs/API.md, "Storage management"), answered with the views of the
// shared module. Calls that change something are `silent`: their failures carry a field and a
// code that the screen translates and puts beside the right form item. "Check now" waits for the
// probe, which may take a remote server's own time-out.
import type { StorageEntryInput, StoragemanagementEntryResponse, StoragemanagementListResponse } from '@lucky/shared';
import { del, get, post, put } from '../../api/client';

const BASE = 'api/storagemanagement/storages';
const entryPath = (key: string) => `${BASE}/${encodeURIComponent(key)}`;

/** A probe is bounded by the server at 20 s; the call gets a little more. */
const PROBE_TIMEOUT_MS = 25_000;

export const storageKeys = {
  all: ['storagemanagement'] as const,
  list: ['storagemanagement', 'storages'] as const,
};

export const fetchStorages = (signal?: AbortSignal) => get<StoragemanagementListResponse>(BASE, { signal });

export const createStorage = (entry: StorageEntryInput) =>
  post<StoragemanagementEntryResponse>(BASE, entry, { silent: true });

export const updateStorage = (key: string, entry: StorageEntryInput) =>
  put<StoragemanagementEntryResponse>(entryPath(key), entry, { silent: true });

export const enableStorage = (key: string, enabled: boolean) =>
  put<StoragemanagementEntryResponse>(`${entryPath(key)}/enable`, { enabled }, { silent: true });

export const deleteStorage = (key: string) => del(entryPath(key), { silent: true });

export const probeStorage = (key: string) =>
  post<StoragemanagementEntryResponse>(`${entryPath(key)}/probe`, {}, { silent: true, timeoutMs: PROBE_TIMEOUT_MS });

/** The module switch (the core's call for every module): off, no storage is open for the file services. */
export const setModuleEnabled = (enabled: boolean) =>
  put<{ ret: 0 }>('api/modules/storagemanagement/enabled', { enabled }, { silent: true });
