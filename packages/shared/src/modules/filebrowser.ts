// The browser file manager's shared half (`filebrowser`, screen `/filebrowser`): config schema,
// issue codes, log lines, API bodies and views. The file manager shows every storage of storage
// management (the admin owns the box: there is no second list of roots to keep in step); a
// read-only storage refuses every write. Share links hand a file or a folder to people without an
// admin login, served by the console's listener under `/s/<id>` with their own small page.
import { z } from 'zod';
import { type CodedText, fillTemplate } from '../contract/coded.js';
import { type LogPageResponse, logPageQuerySchema } from '../contract/logPage.js';
import { moduleSwitchShape } from '../contract/switch.js';
import { issueKit } from './fieldIssue.js';
import { SECRET_MASK } from './secretText.js';

export const FILEBROWSER_LIMITS = {
  /** A text file opened in the editor, and the body of a save. */
  editBytes: { max: 2 * 1024 * 1024 },
  /** Names in one move / copy / delete / zip / exists call. */
  batch: { max: 10_000 },
  /** A storage path (UTF-16 units). */
  path: { max: 4096 },
  /** One name (a rename, a new folder). */
  name: { max: 255 },
  thumbnailCacheMb: { min: 16, max: 100_000, default: 256 },
  /** Thumbnails made at once (each is one libvips pipeline on one thread). */
  thumbnailWorkers: { min: 1, max: 8, default: 1 },
  shares: { max: 1024 },
  sharePassword: { min: 4, max: 128 },
  shareNote: { max: 256 },
  maxDownloads: { min: 0, max: 1_000_000 },
  sharePasswordMaxFailures: { min: 1, max: 100, default: 5 },
  sharePasswordLockMinutes: { min: 1, max: 1440, default: 15 },
  /** Uploads not finished are forgotten (their partial file removed) after this many hours. */
  uploadExpiryHours: { min: 1, max: 720, default: 24 },
} as const;

/** A share link's id: 128 bits of randomness as base64url (22 characters). */
export const SHARE_ID = /^[A-Za-z0-9_-]{22}$/;
/** Key of a share in the keyed list (server-assigned). */
const KEY = /^[A-Za-z0-9]{1,32}$/;

/**
 * A storage failure as the file manager answers it: `storage_<StorageErrorCode>`, the same words
 * for every operation (the UI translates `filebrowser.err_storage_<code>`).
 */
export const FILEBROWSER_STORAGE_ERRORS = {
  storage_badPath: 'not a path inside the storage: {path}',
  storage_notFound: 'not found: {path}',
  storage_exists: 'something called {path} is there already',
  storage_notDir: 'not a folder: {path}',
  storage_isDir: 'a folder, not a file: {path}',
  storage_conflict: 'the folder it goes into is missing, or it would go into itself: {path}',
  storage_readOnly: 'the storage is read-only',
  storage_denied: 'the file system refused: {path}',
  storage_noSpace: 'no space left on the storage',
  storage_unreachable: 'the storage cannot be reached: {detail}',
  storage_badAnswer: 'the remote server answered something unusable: {detail}',
  storage_failed: 'failed: {detail}',
} as const;
export type FilebrowserStorageErrorCode = keyof typeof FILEBROWSER_STORAGE_ERRORS;

/**
 * Issue codes (the zod messages) with their English text; the UI translates `filebrowser.err_<code>`.
 * zod's own checks answer the generic codes (tooSmall, tooBig, invalidType, invalidValue, invalid).
 * The storage's own failures (notFound, exists, readOnly, …) answer as `storage_<code>` (below).
 */
export const FILEBROWSER_MESSAGES = {
  storageRequired: 'choose a storage',
  storageUnavailable: 'storage {storage} is not available (storage management is off or has no such entry)',
  pathInvalid: 'not a path inside the storage',
  nameRequired: 'a name is required',
  nameInvalid: 'a name is one folder or file name: no / or \\, not . or .., no control characters',
  tooBigToEdit: 'the file is larger than {max} bytes and opens only as a download',
  changedOnDisk: 'the file changed since it was opened; reload it or save under another name',
  ticketInvalid: 'the download link has expired; reload the folder',
  sharePasswordTooShort: 'the password needs at least {min} characters',
  shareNotFound: 'no such share link',
  shareTargetMissing: 'the shared file or folder is gone',
  uploadNotFound: 'no such upload (finished, cancelled or expired)',
  uploadTooLarge: 'the storage has {free} bytes free, the upload needs {size}',
  moduleDisabled: 'the file manager is switched off',
  notAnImage: 'no thumbnail for {path}: not an image the thumbnailer reads',
  thumbnailsOff: 'thumbnails are switched off in the file manager settings',
  ...FILEBROWSER_STORAGE_ERRORS,
} as const;
export type FilebrowserIssueCode = keyof typeof FILEBROWSER_MESSAGES;
export const filebrowserIssues = issueKit(FILEBROWSER_MESSAGES);

/** Lines of the module's log (English, `{name}` from the params); the UI translates `filebrowser.log_<code>`. */
export const FILEBROWSER_LOG = {
  uploaded: 'uploaded {storage}:{path} ({bytes} bytes)',
  deleted: 'deleted {storage}:{path}',
  trashed: 'moved {storage}:{path} to the trash',
  moved: 'moved {from} to {to}',
  copied: 'copied {from} to {to}',
  renamed: 'renamed {storage}:{path} to {name}',
  saved: 'saved {storage}:{path} ({bytes} bytes)',
  shareCreated: 'share link for {storage}:{path} made',
  shareRevoked: 'share link for {storage}:{path} removed',
  shareOpened: '{client} opened the share link of {storage}:{path}',
  shareDownload: '{client} downloaded {path} through the share link of {storage}:{share}',
  sharePasswordWrong: '{client}: wrong password for the share link of {storage}:{path}',
  sharePasswordLocked: '{client}: too many wrong passwords, refused for {seconds} s',
  thumbnailFailed: 'no thumbnail for {storage}:{path}: {detail}',
  uploadsExpired: '{count} unfinished uploads expired and were removed',
} as const;
export type FilebrowserLogCode = keyof typeof FILEBROWSER_LOG;

/** English of a log line. */
export function filebrowserLogText(code: FilebrowserLogCode, params: Record<string, unknown>): string {
  return fillTemplate(FILEBROWSER_LOG[code], params);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/** One file or folder name, as a rename, a new folder or an upload gives it. */
export function isFileName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= FILEBROWSER_LIMITS.name.max &&
    name !== '.' &&
    name !== '..' &&
    !name.includes('/') &&
    !name.includes('\\') &&
    !CONTROL.test(name)
  );
}

const L = FILEBROWSER_LIMITS;
const int = (r: { min: number; max: number; default: number }) =>
  z.number().int().min(r.min).max(r.max).default(r.default);

const storageKey = z.string().trim().min(1, 'storageRequired').max(32);
/** A path inside a storage as the browser sends it (`/`, `/a/b`); the storage layer checks it. */
const storagePath = z.string().min(1, 'pathInvalid').max(L.path.max).startsWith('/', 'pathInvalid');
const fileName = z
  .string()
  .trim()
  .min(1, 'nameRequired')
  .transform((s) => s.normalize('NFC'))
  .refine(isFileName, 'nameInvalid');

/**
 * A share as stored. `id` is the link's secret part (128 random bits, base64url); `password` is a
 * scrypt hash or '' (masked on read). Download counts live in the module's state file, not here:
 * a download must not rewrite the config.
 */
export const filebrowserShareSchema = z.object({
  key: z.string().regex(KEY),
  id: z.string().regex(SHARE_ID),
  storage: storageKey,
  path: storagePath,
  kind: z.enum(['file', 'dir']),
  enabled: z.boolean().default(true),
  password: z.string().max(512).default(''),
  /** Epoch ms; 0 = never. */
  expiresAt: z.number().int().min(0).default(0),
  /** 0 = unlimited. A folder share counts each file and each zip. */
  maxDownloads: z.number().int().min(L.maxDownloads.min).max(L.maxDownloads.max).default(0),
  note: z.string().max(L.shareNote.max).default(''),
  createdAt: z.number().int().min(0).default(0),
});
export type FilebrowserShare = z.infer<typeof filebrowserShareSchema>;

/** POST /api/filebrowser/shares: a new share (the server draws the id and stats the target). */
export const filebrowserShareInputSchema = z.object({
  storage: storageKey,
  path: storagePath,
  /** A new password in plain text; '' = none. */
  password: z
    .string()
    .max(L.sharePassword.max)
    .default('')
    .superRefine((p, ctx) => {
      if (p !== '' && p.length < L.sharePassword.min)
        ctx.addIssue({ code: 'custom', message: 'sharePasswordTooShort', params: { min: L.sharePassword.min } });
    }),
  expiresAt: z.number().int().min(0).default(0),
  maxDownloads: z.number().int().min(L.maxDownloads.min).max(L.maxDownloads.max).default(0),
  note: z.string().trim().max(L.shareNote.max).default(''),
});
export type FilebrowserShareInput = z.input<typeof filebrowserShareInputSchema>;

/** PUT /api/filebrowser/shares/:key: what may change (password: SECRET_MASK keeps, '' removes, else a new one). */
export const filebrowserSharePatchSchema = z.object({
  enabled: z.boolean().optional(),
  password: z
    .string()
    .max(L.sharePassword.max)
    .optional()
    .superRefine((p, ctx) => {
      if (p !== undefined && p !== '' && p !== SECRET_MASK && p.length < L.sharePassword.min)
        ctx.addIssue({ code: 'custom', message: 'sharePasswordTooShort', params: { min: L.sharePassword.min } });
    }),
  expiresAt: z.number().int().min(0).optional(),
  maxDownloads: z.number().int().min(L.maxDownloads.min).max(L.maxDownloads.max).optional(),
  note: z.string().trim().max(L.shareNote.max).optional(),
});
export type FilebrowserSharePatch = z.infer<typeof filebrowserSharePatchSchema>;

const settingsShape = {
  /** The module switch; on by default (it publishes nothing on the network by itself). */
  ...moduleSwitchShape(true),
  /** A delete moves to `.trash` at the storage's root (a delete inside the trash is for good). */
  trash: z.boolean().default(false),
  /** Thumbnails of images in the grid view (made lazily, cached on disk). */
  thumbnails: z.boolean().default(true),
  thumbnailCacheMb: int(L.thumbnailCacheMb),
  thumbnailWorkers: int(L.thumbnailWorkers),
  /**
   * Share links answer callers outside the LAN too (the rest of the console stays LAN-only).
   * Off: a share link works only on the LAN.
   */
  sharesOutsideLan: z.boolean().default(true),
  sharePasswordMaxFailures: int(L.sharePasswordMaxFailures),
  sharePasswordLockMinutes: int(L.sharePasswordLockMinutes),
  uploadExpiryHours: int(L.uploadExpiryHours),
};

/** The settings without the shares (GET/PUT /api/filebrowser/settings). */
export const filebrowserSettingsSchema = z.object(settingsShape);
export type FilebrowserSettings = z.infer<typeof filebrowserSettingsSchema>;

/** PUT /api/filebrowser/settings: any subset of the settings (the switch included). */
export const filebrowserSettingsPatchSchema = z.object({
  enabled: z.boolean().optional(),
  trash: z.boolean().optional(),
  thumbnails: z.boolean().optional(),
  thumbnailCacheMb: settingsShape.thumbnailCacheMb.unwrap().optional(),
  thumbnailWorkers: settingsShape.thumbnailWorkers.unwrap().optional(),
  sharesOutsideLan: z.boolean().optional(),
  sharePasswordMaxFailures: settingsShape.sharePasswordMaxFailures.unwrap().optional(),
  sharePasswordLockMinutes: settingsShape.sharePasswordLockMinutes.unwrap().optional(),
  uploadExpiryHours: settingsShape.uploadExpiryHours.unwrap().optional(),
});
export type FilebrowserSettingsPatch = z.infer<typeof filebrowserSettingsPatchSchema>;

/** The config slice; `{}` parses to the module on, no trash, thumbnails on, no shares. */
export const filebrowserConfigSchema = z.object({
  ...settingsShape,
  shares: z.array(filebrowserShareSchema).max(L.shares.max).default([]),
});
export type FilebrowserConfig = z.infer<typeof filebrowserConfigSchema>;

/** Paths of the slice's whole-value secrets: the share passwords' hashes. */
export const FILEBROWSER_SECRETS = ['shares.*.password'] as const;

// ---- API bodies and queries -------------------------------------------------------------------

/** GET /api/filebrowser/list */
export const filebrowserListQuerySchema = z.object({ storage: storageKey, path: storagePath.default('/') });

/**
 * GET /api/filebrowser/file (`?storage&path[&download=1][&ticket=…]`): the bytes, with ranges,
 * ETag and conditional requests. `download=1` answers `attachment`. Without an Authorization
 * header a ticket (POST /api/filebrowser/ticket) is accepted, so `<img>`, `<video>` and plain
 * links work. GET /api/filebrowser/thumb takes the same query (+ `size`).
 */
export const filebrowserFileQuerySchema = z.object({
  storage: storageKey,
  path: storagePath,
  download: z.enum(['0', '1']).default('0'),
  ticket: z.string().max(512).optional(),
});
export const filebrowserThumbQuerySchema = filebrowserFileQuerySchema.extend({
  /** The longer side in pixels. */
  size: z.coerce.number().int().min(32).max(1024).default(256),
});

/** POST /api/filebrowser/ticket: a read ticket for one storage (an hour), for URLs without headers. */
export const filebrowserTicketBodySchema = z.object({ storage: storageKey });
export interface FilebrowserTicketResponse {
  ret: 0;
  ticket: string;
  expiresAt: number;
}

/**
 * GET /api/filebrowser/zip (`?storage&dir&name=a&name=b[&ticket]`): the named entries of `dir`
 * (all of it when no name is given) as a streamed zip (stored, ZIP64, no temporary file).
 */
export const filebrowserZipQuerySchema = z.object({
  storage: storageKey,
  dir: storagePath.default('/'),
  name: z
    .union([fileName, z.array(fileName).max(L.batch.max)])
    .optional()
    .transform((n) => (n === undefined ? [] : Array.isArray(n) ? n : [n])),
  ticket: z.string().max(512).optional(),
});

/** POST /api/filebrowser/mkdir */
export const filebrowserMkdirBodySchema = z.object({ storage: storageKey, dir: storagePath, name: fileName });

/**
 * POST /api/filebrowser/text: a new text file (`create`), or the editor's save (`replace`, with
 * the ETag it opened: `changedOnDisk` when the file changed since).
 */
export const filebrowserTextBodySchema = z.object({
  storage: storageKey,
  path: storagePath,
  content: z.string().max(L.editBytes.max),
  mode: z.enum(['create', 'replace']),
  etag: z.string().max(256).optional(),
});
export interface FilebrowserTextResponse {
  ret: 0;
  entry: FilebrowserEntry;
}

/** POST /api/filebrowser/rename */
export const filebrowserRenameBodySchema = z.object({ storage: storageKey, path: storagePath, name: fileName });

/** What to do when the target name is taken. `keepBoth` picks `name (1).ext`, `name (2).ext` … */
export const CONFLICT_POLICIES = ['skip', 'replace', 'keepBoth'] as const;
export type ConflictPolicy = (typeof CONFLICT_POLICIES)[number];

/** POST /api/filebrowser/transfer: move or copy entries of one folder into another (any storage). */
export const filebrowserTransferBodySchema = z.object({
  op: z.enum(['move', 'copy']),
  from: z.object({ storage: storageKey, dir: storagePath, names: z.array(fileName).min(1).max(L.batch.max) }),
  to: z.object({ storage: storageKey, dir: storagePath }),
  conflict: z.enum(CONFLICT_POLICIES).default('keepBoth'),
});

/** POST /api/filebrowser/delete: entries of one folder; to the trash when it is on, unless `permanent`. */
export const filebrowserDeleteBodySchema = z.object({
  storage: storageKey,
  dir: storagePath,
  names: z.array(fileName).min(1).max(L.batch.max),
  permanent: z.boolean().default(false),
});

/** POST /api/filebrowser/exists: which of these names are taken in `dir` (before an upload or paste asks). */
export const filebrowserExistsBodySchema = z.object({
  storage: storageKey,
  dir: storagePath,
  names: z.array(z.string().max(L.name.max)).max(L.batch.max),
});
export interface FilebrowserExistsResponse {
  ret: 0;
  existing: string[];
}

/**
 * Uploads speak tus 1.0.0 (creation, termination, expiration) at `/api/filebrowser/uploads`.
 * The creation's Upload-Metadata carries these (base64 values, as tus says):
 */
export const filebrowserUploadMetaSchema = z.object({
  storage: storageKey,
  /** The folder it goes into (made, with its parents, for a folder upload's relative path). */
  dir: storagePath,
  /** The file's path below `dir`: `a.jpg`, or `holiday/day1/a.jpg` for a folder upload. */
  relativePath: z.string().min(1).max(L.path.max),
  conflict: z.enum(CONFLICT_POLICIES).default('keepBoth'),
  /** The file's modification time (epoch ms) to keep. */
  mtime: z.coerce.number().int().min(0).optional(),
});
export type FilebrowserUploadMeta = z.input<typeof filebrowserUploadMetaSchema>;

/** GET /api/filebrowser/logs */
export const filebrowserLogsQuerySchema = logPageQuerySchema;

// ---- views ------------------------------------------------------------------------------------

/** What the file manager makes of a name, for its icon and its preview. */
export type FilebrowserFileType = 'dir' | 'image' | 'video' | 'audio' | 'pdf' | 'text' | 'archive' | 'other';

export interface FilebrowserEntry {
  name: string;
  kind: 'file' | 'dir';
  size: number;
  mtimeMs: number;
  type: FilebrowserFileType;
  etag: string;
}

/** A storage as the file manager shows it (from storage management). */
export interface FilebrowserRootView {
  key: string;
  name: string;
  kind: 'local' | 'webdav';
  readOnly: boolean;
}

/** GET /api/filebrowser/roots */
export interface FilebrowserRootsResponse {
  ret: 0;
  /** The module switch. */
  enabled: boolean;
  /** Empty while storage management is off or has no entry (the screen says where to add one). */
  list: FilebrowserRootView[];
}

/** GET /api/filebrowser/list */
export interface FilebrowserListResponse {
  ret: 0;
  storage: string;
  /** Canonical. */
  path: string;
  readOnly: boolean;
  /** The folder's own entry. */
  entry: FilebrowserEntry;
  entries: FilebrowserEntry[];
}

/** Per entry of a transfer or delete: done, skipped (conflict `skip`), or why not. */
export interface FilebrowserItemResult {
  name: string;
  result: 'done' | 'skipped' | 'failed';
  /** The name it got (keepBoth may rename). */
  as?: string;
  reason?: CodedText;
}

/** POST /api/filebrowser/transfer, POST /api/filebrowser/delete */
export interface FilebrowserBatchResponse {
  ret: 0;
  results: FilebrowserItemResult[];
}

/** GET /api/filebrowser/settings, PUT /api/filebrowser/settings */
export interface FilebrowserSettingsResponse {
  ret: 0;
  settings: FilebrowserSettings;
}

/**
 * `active`; `expired` (past expiresAt); `exhausted` (maxDownloads reached); `disabled`;
 * `missing` (the target or its storage is gone).
 */
export type FilebrowserShareState = 'active' | 'expired' | 'exhausted' | 'disabled' | 'missing';

export interface FilebrowserShareView {
  key: string;
  id: string;
  /** The link's path on the console (`/s/<id>`); the screen puts the console's origin before it. */
  url: string;
  storage: string;
  storageName: string;
  path: string;
  kind: 'file' | 'dir';
  enabled: boolean;
  /** SECRET_MASK when a password is set, else ''. */
  password: string;
  expiresAt: number;
  maxDownloads: number;
  downloads: number;
  lastAccessAt: number;
  note: string;
  createdAt: number;
  state: FilebrowserShareState;
}

/** GET /api/filebrowser/shares */
export interface FilebrowserSharesResponse {
  ret: 0;
  list: FilebrowserShareView[];
}

/** POST /api/filebrowser/shares, PUT /api/filebrowser/shares/:key */
export interface FilebrowserShareResponse {
  ret: 0;
  share: FilebrowserShareView;
}

export type FilebrowserLogsResponse = LogPageResponse;

/** An error of this module with its English text. */
export function filebrowserIssue(code: FilebrowserIssueCode, params: Record<string, unknown> = {}): CodedText {
  return { code, params, text: fillTemplate(FILEBROWSER_MESSAGES[code], params) };
}
