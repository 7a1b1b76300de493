import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface AuditEntry {
  time: string;
  clientIp: string;
  /** The admin account, `token:<API token name>`, or absent (a login naming another account). */
  actor?: string;
  /** `PUT /api/baseconfigure`, `POST /api/login` … */
  action: string;
  /** 0 = done; anything else = refused or failed. */
  ret: number;
  msg?: string;
}

export interface AuditFilter {
  q?: string;
  result?: 'ok' | 'failed';
}

const FILE = 'audit.log';
const MAX_FILE_BYTES = 1024 * 1024;
const KEEP_IN_MEMORY = 1000;

/**
 * Who did what from where: every state-changing admin call and every login
 * attempt, appended as JSON lines to `<config dir>/audit.log` (0600, rotated
 * at 1 MB to audit.log.1) and kept in memory for the security screen.
 */
export class AuditLog {
  private entries: AuditEntry[] = [];
  private chain: Promise<void> = Promise.resolve();
  /** Lines not yet appended: written in one append per batch, so a login flood costs one file write, not one per call. */
  private pending: string[] = [];

  constructor(private readonly dir: string) {}

  private get file(): string {
    return path.join(this.dir, FILE);
  }

  async load(): Promise<void> {
    try {
      const text = await fs.readFile(this.file, 'utf8');
      this.entries = text
        .split('\n')
        .filter(Boolean)
        .slice(-KEEP_IN_MEMORY)
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as AuditEntry];
          } catch {
            return [];
          }
        });
    } catch {
      // no audit file yet
    }
  }

  record(entry: Omit<AuditEntry, 'time'>): void {
    const e: AuditEntry = { time: new Date().toISOString(), ...entry };
    this.entries.push(e);
    if (this.entries.length > KEEP_IN_MEMORY + 100) this.entries = this.entries.slice(-KEEP_IN_MEMORY);
    this.pending.push(JSON.stringify(e));
    if (this.pending.length === 1) this.chain = this.chain.then(() => this.append()).catch(() => undefined);
  }

  /**
   * Newest first. `q`: text the address, actor, action or message contains (any case);
   * `result`: `ok` (ret 0) or `failed` (anything else).
   */
  page(page: number, pageSize: number, filter: AuditFilter = {}): { total: number; list: AuditEntry[] } {
    const q = filter.q?.trim().toLowerCase();
    const newest = this.entries.filter((e) => {
      if (filter.result === 'ok' && e.ret !== 0) return false;
      if (filter.result === 'failed' && e.ret === 0) return false;
      if (!q) return true;
      return [e.clientIp, e.actor ?? '', e.action, e.msg ?? ''].some((x) => x.toLowerCase().includes(q));
    });
    newest.reverse();
    return { total: newest.length, list: newest.slice((page - 1) * pageSize, page * pageSize) };
  }

  flush(): Promise<void> {
    return this.chain;
  }

  private async append(): Promise<void> {
    const lines = this.pending.splice(0);
    if (lines.length === 0) return;
    const size = await fs.stat(this.file).then(
      (s) => s.size,
      () => 0,
    );
    if (size > MAX_FILE_BYTES) await fs.rename(this.file, `${this.file}.1`);
    await fs.appendFile(this.file, `${lines.join('\n')}\n`, { mode: 0o600 });
  }
}
