// What the scheduler keeps across restarts, in `<configDir>/cron/state.json`: per task the last
// time its schedule was looked at (for the missed-run policy) and its history, a ring of the last
// `historySize` runs (newest first). Written after each run, atomically.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CRON_LIMITS, type CronRun } from '@lucky/shared';
import { writeFileAtomic } from '../../core/config/atomicWrite.js';

export interface TaskState {
  /** ms: the scheduler had handled every due time up to here (a run, or the module stopping). */
  checkedAt?: number;
  runs: CronRun[];
}

interface StateFile {
  nextId: number;
  tasks: Record<string, TaskState>;
}

export const stateFileOf = (configDir: string) => path.join(configDir, 'cron', 'state.json');

/** The stored state, or an empty one (with the reason) when the file is missing or broken. */
export function readState(configDir: string): { state: StateFile; problem?: string } {
  try {
    const raw = JSON.parse(readFileSync(stateFileOf(configDir), 'utf8')) as Partial<StateFile>;
    const tasks: Record<string, TaskState> = {};
    for (const [k, v] of Object.entries(raw.tasks ?? {})) {
      tasks[k] = {
        checkedAt: typeof v?.checkedAt === 'number' ? v.checkedAt : undefined,
        runs: Array.isArray(v?.runs) ? v.runs.slice(0, CRON_LIMITS.historyMax) : [],
      };
    }
    return { state: { nextId: Number(raw.nextId) || 1, tasks } };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { state: { nextId: 1, tasks: {} }, problem: e.code === 'ENOENT' ? undefined : e.message };
  }
}

export class CronState {
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly configDir: string,
    private readonly data: StateFile,
  ) {}

  task(key: string): TaskState {
    let t = this.data.tasks[key];
    if (!t) {
      t = { runs: [] };
      this.data.tasks[key] = t;
    }
    return t;
  }

  runs(key: string): CronRun[] {
    return this.data.tasks[key]?.runs ?? [];
  }

  /** Record a run at the front of the ring, cut to `size`. */
  addRun(key: string, run: Omit<CronRun, 'id'>, size: number): CronRun {
    const full = { id: this.data.nextId++, ...run };
    const t = this.task(key);
    t.runs = [full, ...t.runs].slice(0, size);
    return full;
  }

  /** Drop tasks that are gone and cut every ring to `size`. */
  prune(keys: ReadonlySet<string>, size: number): void {
    for (const k of Object.keys(this.data.tasks)) {
      if (!keys.has(k)) delete this.data.tasks[k];
      else this.data.tasks[k].runs = this.data.tasks[k].runs.slice(0, size);
    }
  }

  /** Write the file (writes queue up; the last one holds everything). */
  save(): Promise<void> {
    const text = `${JSON.stringify(this.data)}\n`;
    this.writing = this.writing
      .catch(() => {})
      .then(async () => {
        await mkdir(path.dirname(stateFileOf(this.configDir)), { recursive: true, mode: 0o700 });
        await writeFileAtomic(stateFileOf(this.configDir), text, 0o600);
      });
    return this.writing;
  }
}
