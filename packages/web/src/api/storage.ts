// Everything the console keeps in the browser sits under ONE localStorage key
// as a JSON object (spec §3), so "clear all" never touches other sites' data
// on the same origin (a reverse-proxied LAN host often serves several apps).
import type { Language } from '@lucky/shared';

export const STORAGE_KEY = 'lucky';

export interface StoredValues {
  lang: Language;
  /** Session token from `/api/login`, sent as the Authorization header. */
  token: string;
  /** Last known 2FA switch (from `/version` and `/2FAStatus`). */
  twoFAEnable: boolean;
  /** Latest version announced by each of the two remote information sources. */
  lastVersion: [string, string];
  V2L: string;
  staticHost: string;
  appinfourl: string;
  showAboutView: boolean;
  showLocalView: boolean;
  /**
   * "Remember me" keeps only the account name filled in. The password is never
   * stored: anything readable by page scripts is effectively clear text.
   */
  rememberAccount: boolean;
  loginAccount: string;
  /** The user's choice of colours; absent = follow the system (`prefers-color-scheme`). */
  theme: 'light' | 'dark';
}

export type StoredKey = keyof StoredValues;

// Private windows or a full quota make localStorage throw; the console then
// keeps working for this page load with an in-memory copy.
let memoryFallback: string | null = null;

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return memoryFallback;
  }
}

function writeRaw(value: string | null): void {
  memoryFallback = value;
  try {
    if (value === null) window.localStorage.removeItem(STORAGE_KEY);
    else window.localStorage.setItem(STORAGE_KEY, value);
  } catch {
    // keep the in-memory copy
  }
}

function readAll(): Partial<StoredValues> {
  const raw = readRaw();
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    // A hand-edited or foreign value must not break the console.
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Partial<StoredValues>) : {};
  } catch {
    return {};
  }
}

export function getItem<K extends StoredKey>(key: K): StoredValues[K] | undefined {
  return readAll()[key];
}

export function setItem<K extends StoredKey>(key: K, value: StoredValues[K]): void {
  const all = readAll();
  all[key] = value;
  writeRaw(JSON.stringify(all));
}

/** Sets several values in one write. */
export function setItems(values: Partial<StoredValues>): void {
  writeRaw(JSON.stringify({ ...readAll(), ...values }));
}

export function removeItem(key: StoredKey): void {
  const all = readAll();
  if (!(key in all)) return;
  delete all[key];
  writeRaw(JSON.stringify(all));
}

/** Removes everything the console stored, and only that. */
export function clearAll(): void {
  writeRaw(null);
}

export const storage = { get: getItem, set: setItem, setMany: setItems, remove: removeItem, clear: clearAll };
