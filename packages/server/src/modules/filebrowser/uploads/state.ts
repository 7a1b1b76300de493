import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ConflictPolicy } from '@lucky/shared';

/** An upload id: 128 random bits as hex (what the tus server's default naming draws). */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;

/**
 * What the server keeps of an unfinished upload, one JSON file per upload
 * (`<configDir>/filebrowser/uploads/<id>.json`). The bytes are not here: they are in the partial
 * file on the storage, whose size is the upload's offset (so a dropped connection resumes from
 * exactly what reached the disk).
 */
export interface UploadState {
  id: string;
  storage: string;
  /** Canonical folder the file goes into (the relative path's folders included, made at creation). */
  dir: string;
  /** The file's own name in `dir`. */
  name: string;
  /** The hidden partial file, a storage path in `dir`. */
  part: string;
  /**
   * The bytes are gathered in `<id>.part` beside the state (a storage that cannot write at an
   * offset: remote WebDAV) and copied to `part` on the storage once complete.
   */
  staged?: boolean;
  size: number;
  conflict: ConflictPolicy;
  mtime?: number;
  /** Epoch ms; the upload expires `uploadExpiryHours` after it. */
  createdAt: number;
}

/** The state files of the uploads in one folder; ids are checked before they name a file. */
export class UploadStates {
  constructor(readonly dir: string) {}

  private file(id: string): string {
    if (!UPLOAD_ID.test(id)) throw new Error(`not an upload id: ${id}`);
    return path.join(this.dir, `${id}.json`);
  }

  async save(s: UploadState): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.file(s.id);
    const tmp = `${file}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(s), { mode: 0o600 });
    await fs.rename(tmp, file);
  }

  /** The state, or undefined for an id that is not well-formed or not (any longer) known. */
  async load(id: string): Promise<UploadState | undefined> {
    if (!UPLOAD_ID.test(id)) return undefined;
    try {
      return JSON.parse(await fs.readFile(this.file(id), 'utf8')) as UploadState;
    } catch {
      return undefined;
    }
  }

  async remove(id: string): Promise<void> {
    if (UPLOAD_ID.test(id)) await fs.rm(this.file(id), { force: true });
  }

  /** The local file a staged upload gathers its bytes in. */
  stagedFile(id: string): string {
    if (!UPLOAD_ID.test(id)) throw new Error(`not an upload id: ${id}`);
    return path.join(this.dir, `${id}.part`);
  }

  /** Every known upload id. */
  async ids(): Promise<string[]> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    return names
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -5))
      .filter((id) => UPLOAD_ID.test(id));
  }
}
