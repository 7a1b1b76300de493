// Storage management's shared half: config schema, issue codes, reasons, API bodies and views.
// An entry is a storage the file services (WebDAV, FTP, the file manager) mount: a local folder,
// or a remote WebDAV server used as a client. The server opens the enabled entries and publishes
// them to every module (ctx.storages); each file service names the entries it mounts.
import { z } from 'zod';
import type { Coded } from '../contract/coded.js';
import { moduleSwitchShape } from '../contract/switch.js';
import type { ModuleKey } from '../modules.js';
import { isHttpUrl } from '../net.js';
import { type GenericIssueCode, issueKit } from './fieldIssue.js';

export const STORAGE_KINDS = ['local', 'webdav'] as const;
export type StorageKindName = (typeof STORAGE_KINDS)[number];

export const STORAGEMANAGEMENT_LIMITS = {
  name: { max: 64 },
  entries: { max: 64 },
  path: { max: 4096 },
  url: { max: 2048 },
  user: { max: 256 },
  password: { max: 1024 },
  /** How often every open storage is probed (space, reachability). */
  probeIntervalMs: 60_000,
} as const;

/**
 * Issue codes (the zod messages and the routes' refusals) with their English text; the UI
 * translates `storagemanagement.err_<code>`.
 */
export const STORAGEMANAGEMENT_MESSAGES = {
  nameRequired: 'a name is required',
  nameTaken: 'another storage is called {name}',
  pathRequired: 'choose a folder',
  pathNotAbsolute: 'the folder is an absolute path (starting with /)',
  pathInvalid: 'the folder path holds a character a path cannot have',
  pathNotFound: 'there is no folder {path}',
  pathNotDir: '{path} is a file, not a folder',
  pathDenied: 'the program may not read {path}',
  urlRequired: 'the server address is required',
  urlInvalid: 'not an http:// or https:// address',
  urlHasCredentials: 'put the account in its own fields, not in the address',
  storageNotFound: 'no such storage',
  storageInUse: 'storage {name} is used by {users}; remove it there first',
  moduleDisabled: 'storage management is switched off',
} as const;
export type StoragemanagementIssueCode = keyof typeof STORAGEMANAGEMENT_MESSAGES;
export type StoragemanagementErrorCode = StoragemanagementIssueCode | GenericIssueCode;
export const storagemanagementIssues = issueKit(STORAGEMANAGEMENT_MESSAGES);

const L = STORAGEMANAGEMENT_LIMITS;

// C0 controls and DEL: no folder name needs them, and NUL cannot reach the kernel.
const hasControl = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
};

const localShape = {
  /** Absolute path of the folder on this machine. */
  path: z.string().trim().max(L.path.max).default(''),
};

const webdavShape = {
  /** The remote folder's URL (http or https); its path is the storage's root. */
  url: z.string().trim().max(L.url.max).default(''),
  user: z.string().max(L.user.max).default(''),
  /** A whole-value secret: read as SECRET_MASK, kept when sent back so. */
  password: z.string().max(L.password.max).default(''),
  /** Check the server's certificate (off only for a self-signed box on the LAN). */
  tlsVerify: z.boolean().default(true),
};

const entryShape = {
  name: z.string().trim().min(1, 'nameRequired').max(L.name.max),
  enabled: z.boolean().default(true),
  kind: z.enum(STORAGE_KINDS).default('local'),
  /** Every write through any service is refused, whatever the service's users may do. */
  readOnly: z.boolean().default(false),
  local: z.object(localShape).prefault({}),
  webdav: z.object(webdavShape).prefault({}),
};

type EntryFields = z.infer<z.ZodObject<typeof entryShape>>;

/** Only the chosen kind's fields are checked: the other kind's stay as they were typed. */
function checkEntry(e: EntryFields, ctx: z.RefinementCtx): void {
  const issue = (path: string[], message: StoragemanagementIssueCode) =>
    ctx.addIssue({ code: 'custom', path, message });
  if (e.kind === 'local') {
    const p = e.local.path;
    if (p === '') issue(['local', 'path'], 'pathRequired');
    else if (!p.startsWith('/')) issue(['local', 'path'], 'pathNotAbsolute');
    else if (hasControl(p)) issue(['local', 'path'], 'pathInvalid');
  } else {
    const u = e.webdav.url;
    if (u === '') issue(['webdav', 'url'], 'urlRequired');
    else if (!isHttpUrl(u)) issue(['webdav', 'url'], 'urlInvalid');
    else if (/^https?:\/\/[^/?#]*@/i.test(u)) issue(['webdav', 'url'], 'urlHasCredentials');
  }
}

const ENTRY_KEY = /^[A-Za-z0-9]{1,32}$/;

/** An entry as the browser sends it (the server assigns the key). */
export const storageEntryInputSchema = z.object(entryShape).superRefine(checkEntry);
export const storageEntrySchema = z.object({ key: z.string().regex(ENTRY_KEY), ...entryShape }).superRefine(checkEntry);

/** The config slice; `{}` parses to the module switched on with no storages. */
export const storagemanagementConfigSchema = z.object({
  ...moduleSwitchShape(true),
  storages: z.array(storageEntrySchema).max(L.entries.max).default([]),
});

/** Paths of the slice's whole-value secrets (masked on read, kept unless replaced). */
export const STORAGEMANAGEMENT_SECRETS = ['storages.*.webdav.password'] as const;

export type StorageEntryInput = z.input<typeof storageEntryInputSchema>;
export type StorageEntryConfig = z.infer<typeof storageEntrySchema>;
export type StoragemanagementConfig = z.infer<typeof storagemanagementConfigSchema>;

// ---- words the server writes for the UI --------------------------------------------------------

/**
 * Why a storage is not available, English; the UI translates `storagemanagement.reason_<code>`.
 * A probe's failure is the storage error's code with `detail` (the system's or the server's own
 * words), which follows the text (englishWithCauses / codedTextWithCauses).
 */
export const STORAGEMANAGEMENT_REASONS = {
  moduleDisabled: 'storage management is switched off',
  entryDisabled: 'this storage is switched off',
  notChecked: 'not checked yet',
  unreachable: 'cannot be reached',
  denied: 'access refused',
  badAnswer: 'the server answered something unexpected',
  notFound: 'the folder is gone',
  notDir: 'not a folder',
  failed: 'the check failed',
  openFailed: 'could not be opened',
} as const;
export type StoragemanagementReasonCode = keyof typeof STORAGEMANAGEMENT_REASONS;

/** Warnings a save answers beside the saved entry (saved all the same). */
export const STORAGEMANAGEMENT_WARNINGS = {
  rootFolder: 'the whole file system (/) is published to the file services that mount this storage',
  plainHttp: 'the password travels unencrypted to {host} (http://)',
} as const;
export type StoragemanagementWarningCode = keyof typeof STORAGEMANAGEMENT_WARNINGS;

// ---- views: what the GET routes answer --------------------------------------------------------

/**
 * online: probed fine; offline: the last probe failed (reason); checking: opened, not probed yet;
 * disabled: the entry is off; stopped: storage management is off.
 */
export type StorageState = 'online' | 'offline' | 'checking' | 'disabled' | 'stopped';

/** Bytes; a backend that cannot tell leaves a figure out. */
export interface StorageSpaceView {
  total?: number;
  free?: number;
  used?: number;
}

/** A file service mounting the storage (from that module's config, switched on or not). */
export interface StorageMountView {
  module: ModuleKey;
  /** The mount's or user's name there. */
  owner: string;
  enabled: boolean;
}

/** An entry as read: its password masked, with what the last probe found and who mounts it. */
export interface StorageEntryView extends StorageEntryConfig {
  state: StorageState;
  reason?: Coded;
  /** English of `reason`. */
  error?: string;
  space?: StorageSpaceView;
  /** Epoch ms of the last probe. */
  checkedAt?: number;
  mounts: StorageMountView[];
}

/** GET /api/storagemanagement/storages */
export interface StoragemanagementListResponse {
  ret: 0;
  /** The module switch. */
  enabled: boolean;
  list: StorageEntryView[];
}

/** GET /api/storagemanagement/storages/:key and every change of one entry. */
export interface StoragemanagementEntryResponse {
  ret: 0;
  storage: StorageEntryView;
  /** Saved, with something the owner should know (publishing `/`, a password over plain HTTP). */
  warnings: Coded[];
}
