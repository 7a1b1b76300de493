// Directory listings: LIST in `ls -l` form (what every client parses), NLST names, and RFC 3659
// MLSD / MLST facts (type, size, modify, perm, unique). A name holding CR or LF cannot be put on
// a listing line without forging the next one: it is left out.
import { createHash } from 'node:crypto';
import type { StorageEntry } from '../../../core/storage/types.js';
import { ftpTime } from './reply.js';

/** What a listing line needs of an entry (a storage entry, or a mount shown at the root). */
export interface ListedEntry {
  name: string;
  kind: 'file' | 'dir';
  size: number;
  mtimeMs: number;
  /** The user may change it (and, for a folder, what is inside). */
  writable: boolean;
  /** Stable per entry: the storage key and its path. */
  id: string;
}

export const MLST_FACTS = ['type', 'size', 'modify', 'perm', 'unique'] as const;
export type MlstFact = (typeof MLST_FACTS)[number];

export function listedOf(e: StorageEntry, storageKey: string, writable: boolean): ListedEntry {
  return { name: e.name, kind: e.kind, size: e.size, mtimeMs: e.mtimeMs, writable, id: `${storageKey}:${e.path}` };
}

/** Whether a name can stand on a listing line. */
export const listable = (name: string) => !/[\r\n]/.test(name);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const HALF_YEAR_MS = 182 * 86_400_000;

/** `ls -l` time: `Mon DD HH:MM` within half a year of now, else `Mon DD  YYYY` (UTC). */
function lsTime(ms: number, now: number): string {
  const d = new Date(ms);
  const day = String(d.getUTCDate()).padStart(2, ' ');
  const head = `${MONTHS[d.getUTCMonth()]} ${day}`;
  if (Math.abs(now - ms) < HALF_YEAR_MS)
    return `${head} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  return `${head}  ${d.getUTCFullYear()}`;
}

/** One LIST line (with CRLF), as pure-ftpd writes them: mode, links, owner, group, size, time, name. */
export function lsLine(e: ListedEntry, now: number): string {
  const w = e.writable ? 'w' : '-';
  const mode = e.kind === 'dir' ? `dr${w}xr-xr-x` : `-r${w}-r--r--`;
  const size = String(e.kind === 'dir' ? 4096 : e.size).padStart(12, ' ');
  return `${mode}    1 ftp      ftp      ${size} ${lsTime(e.mtimeMs, now)} ${e.name}\r\n`;
}

/** RFC 3659 `perm`: files r (+ a d f w when writable); folders e l (+ c d f m p). */
function perm(e: ListedEntry): string {
  if (e.kind === 'dir') return e.writable ? 'cdeflmp' : 'el';
  return e.writable ? 'adfrw' : 'r';
}

const unique = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 16);

/** `fact=value;…; name` with the chosen facts (MLSD line, or MLST's line after its leading space). */
export function mlsxLine(e: ListedEntry, facts: ReadonlySet<MlstFact>, name = e.name): string {
  let out = '';
  if (facts.has('type')) out += `type=${e.kind};`;
  if (facts.has('size') && e.kind === 'file') out += `size=${e.size};`;
  if (facts.has('modify')) out += `modify=${ftpTime(e.mtimeMs, true)};`;
  if (facts.has('perm')) out += `perm=${perm(e)};`;
  if (facts.has('unique')) out += `unique=${unique(e.id)};`;
  return `${out} ${name}`;
}

/** FEAT's MLST line: every fact, the ones on now starred. */
export function mlstFeature(facts: ReadonlySet<MlstFact>): string {
  return `MLST ${MLST_FACTS.map((f) => `${f}${facts.has(f) ? '*' : ''};`).join('')}`;
}
