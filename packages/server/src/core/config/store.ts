import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type ClampedValue, CONFIG_BACKUPS_KEPT, parseStored } from '@lucky/shared';
import { ZodError } from 'zod';
import type { Logger } from '../logs/logger.js';
import { fsyncDir, writeFileAtomic } from './atomicWrite.js';
import { type AppConfig, configSchema, migrateConfig } from './schema.js';

export const CONFIG_FILE = 'lucky.json';
export const BACKUP_DIR = 'backups';

export class ConfigValidationError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/**
 * Parse and validate a config document (the file, or an uploaded backup) without touching the
 * store. A number outside a range narrowed since the file was written is read as the nearest
 * bound (`onClamp` says which), so an older file keeps working; anything else invalid throws.
 */
export function parseConfigDocument(text: string, onClamp?: (c: ClampedValue) => void): AppConfig {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ConfigValidationError(`not valid JSON: ${(err as Error).message}`, '');
  }
  try {
    return parseStored(configSchema, migrateConfig(doc), onClamp);
  } catch (err) {
    if (!(err instanceof ZodError)) throw err;
    const issue = err.issues[0];
    const field = issue.path.join('.');
    throw new ConfigValidationError(`${field || 'config'}: ${issue.message}`, field);
  }
}

/** The log line for a stored value read as its bound. */
export const clampedLine = (where: string, c: ClampedValue) =>
  `${where}${c.field} = ${c.from} is outside its range; read as ${c.to} (saved as such with the next change)`;

type Listener = (next: AppConfig, prev: AppConfig) => void;

/**
 * The one config file of the config dir. Reads validate with the shared
 * schemas; writes are atomic and keep the previous CONFIG_BACKUPS_KEPT
 * versions as hard links in `backups/`, so a save interrupted by kill -9 can
 * never leave the program without a readable config.
 */
export class ConfigStore {
  private current!: AppConfig;
  private writeChain: Promise<void> = Promise.resolve();
  private listeners = new Set<Listener>();
  /** Where the running config came from, for the log and the overview. */
  source: 'file' | 'backup' | 'defaults' = 'file';

  constructor(
    readonly dir: string,
    private readonly makeDefaults: () => Promise<AppConfig>,
    private readonly log: Logger,
  ) {}

  get file(): string {
    return path.join(this.dir, CONFIG_FILE);
  }

  get(): AppConfig {
    return this.current;
  }

  onChange(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  async load(): Promise<AppConfig> {
    await fs.mkdir(path.join(this.dir, BACKUP_DIR), { recursive: true, mode: 0o700 });
    const text = await readIfExists(this.file);
    if (text === undefined) {
      this.current = await this.makeDefaults();
      this.source = 'defaults';
      await this.persist(this.current);
      this.log.info(`created a new config file ${this.file}`);
      return this.current;
    }
    try {
      this.current = parseConfigDocument(text, (c) => this.log.warn(clampedLine(`${CONFIG_FILE}: `, c)));
      this.source = 'file';
      return this.current;
    } catch (err) {
      const kept = `${this.file}.corrupt-${stamp()}`;
      await fs.copyFile(this.file, kept).catch(() => undefined);
      this.log.error(`CONFIG FILE UNREADABLE (${(err as Error).message}); a copy is kept as ${kept}`);
    }
    for (const backup of await this.listBackups()) {
      try {
        this.current = parseConfigDocument(await fs.readFile(backup, 'utf8'));
        this.source = 'backup';
        this.log.error(`STARTED FROM BACKUP ${backup}; check your settings`);
        await this.persist(this.current);
        return this.current;
      } catch {
        this.log.warn(`backup ${backup} is unreadable too`);
      }
    }
    this.current = await this.makeDefaults();
    this.source = 'defaults';
    this.log.error('NO READABLE CONFIG OR BACKUP: STARTED WITH DEFAULTS (login 666 / 666)');
    await this.persist(this.current);
    return this.current;
  }

  /**
   * Validate → save → publish. `mutate` gets a deep copy; a thrown error or an
   * invalid result changes nothing, on disk or in memory.
   */
  async update(mutate: (draft: AppConfig) => AppConfig | undefined): Promise<AppConfig> {
    const run = async () => {
      const prev = this.current;
      const draft = structuredClone(prev);
      const next = configSchema.parse(mutate(draft) ?? draft);
      await this.persist(next);
      this.current = next;
      for (const fn of this.listeners) fn(next, prev);
      return next;
    };
    const result = this.writeChain.then(run, run);
    this.writeChain = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Replace the whole config (restore of a backup). */
  replace(next: AppConfig): Promise<AppConfig> {
    return this.update(() => next);
  }

  async listBackups(): Promise<string[]> {
    const dir = path.join(this.dir, BACKUP_DIR);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    return names
      .filter((n) => /^lucky\.\d{8}T\d{9}-\d+\.json$/.test(n))
      .sort()
      .reverse()
      .map((n) => path.join(dir, n));
  }

  private seq = 0;

  private async persist(config: AppConfig): Promise<void> {
    const text = `${JSON.stringify(config, null, 2)}\n`;
    // Keep the version being replaced: a hard link is instant and shares mode 0600.
    const backupDir = path.join(this.dir, BACKUP_DIR);
    const exists = await fs.stat(this.file).then(
      (s) => s.isFile(),
      () => false,
    );
    if (exists) {
      const name = path.join(backupDir, `lucky.${stamp()}-${String(this.seq++).padStart(6, '0')}.json`);
      await fs.link(this.file, name).catch(async () => fs.copyFile(this.file, name));
      await fsyncDir(backupDir);
    }
    await writeFileAtomic(this.file, text, 0o600);
    const backups = await this.listBackups();
    for (const old of backups.slice(CONFIG_BACKUPS_KEPT)) await fs.rm(old, { force: true });
  }
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Sortable UTC stamp with milliseconds: 20261122T043000123. */
function stamp(): string {
  return new Date().toISOString().replace(/[-:Z]/g, '').replace('.', '');
}
