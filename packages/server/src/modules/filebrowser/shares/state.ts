// Download counts and last access of the share links, in `<configDir>/filebrowser/shares-state.json`.
// Not in the config: a download must not rewrite lucky.json (nor push a backup out of the five
// kept). Written atomically, at most once per WRITE_DELAY_MS, so a burst of downloads costs one
// write; a crash loses at most those few seconds of counts.
import { closeSync, promises as fs, fsyncSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../../core/config/atomicWrite.js';

export interface ShareUse {
  downloads: number;
  lastAccessAt: number;
}

const WRITE_DELAY_MS = 3000;
const NONE: ShareUse = { downloads: 0, lastAccessAt: 0 };

export class ShareState {
  private uses = new Map<string, ShareUse>();
  private loaded: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  readonly file: string;

  constructor(configDir: string) {
    this.file = path.join(configDir, 'filebrowser', 'shares-state.json');
  }

  /** Reads the file once (a missing or unreadable one starts from zero). */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      try {
        const raw = JSON.parse(await fs.readFile(this.file, 'utf8')) as Record<string, Partial<ShareUse>>;
        for (const [key, u] of Object.entries(raw ?? {})) {
          const downloads = Number(u?.downloads);
          const lastAccessAt = Number(u?.lastAccessAt);
          this.uses.set(key, {
            downloads: Number.isSafeInteger(downloads) && downloads > 0 ? downloads : 0,
            lastAccessAt: Number.isSafeInteger(lastAccessAt) && lastAccessAt > 0 ? lastAccessAt : 0,
          });
        }
      } catch {
        // No file yet, or a torn one from before atomic writes: counts start again.
      }
    })();
    return this.loaded;
  }

  get(key: string): ShareUse {
    return this.uses.get(key) ?? NONE;
  }

  /** The link was opened (a page or a file). */
  touch(key: string, now = Date.now()): void {
    this.uses.set(key, { ...this.get(key), lastAccessAt: now });
    this.schedule();
  }

  /** One whole download (a file from byte 0 to its end, or a zip). */
  counted(key: string, now = Date.now()): void {
    const u = this.get(key);
    this.uses.set(key, { downloads: u.downloads + 1, lastAccessAt: now });
    this.schedule();
  }

  /** Forget the shares not in `keep` (removed links). */
  prune(keep: Iterable<string>): void {
    const alive = new Set(keep);
    let changed = false;
    for (const key of [...this.uses.keys()])
      if (!alive.has(key)) {
        this.uses.delete(key);
        changed = true;
      }
    if (changed) this.schedule();
  }

  /**
   * Writes now what is pending, synchronously: the module is stopping, and the program may remove
   * or replace the config folder right after (a small file, once per stop).
   */
  flushSync(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const fd = openSync(tmp, 'w', 0o600);
      try {
        writeSync(fd, JSON.stringify(Object.fromEntries(this.uses)));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
    } catch {
      // As write(): counts are not worth failing a stop for.
    }
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writing.then(() => this.write());
    }, WRITE_DELAY_MS);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    try {
      await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      await writeFileAtomic(this.file, JSON.stringify(Object.fromEntries(this.uses)));
    } catch {
      // A full disk must not break downloads; the next change tries again.
    }
  }
}

const stores = new Map<string, ShareState>();

/** The one state of a config directory (the routes read it while the module is off too). */
export function shareStateFor(configDir: string): ShareState {
  let s = stores.get(configDir);
  if (!s) {
    s = new ShareState(configDir);
    stores.set(configDir, s);
  }
  return s;
}
