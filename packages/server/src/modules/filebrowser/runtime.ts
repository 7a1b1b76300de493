import path from 'node:path';
import type { FilebrowserConfig, FilebrowserLogCode, LogLevel } from '@lucky/shared';
import { filebrowserLogText } from '@lucky/shared';
import { RuleLog } from '../../core/logs/ruleLog.js';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import { ShareService } from './shares/service.js';
import { Thumbnails } from './thumbnails.js';
import { Tickets } from './tickets.js';
import { UploadService } from './uploads/service.js';

/** Lines kept in the module's log. */
const LOG_CAPACITY = 2000;

/**
 * The running file manager. It holds no listener: what it keeps is the module's log and the
 * services the routes use (read tickets, thumbnails, uploads, share links), each in its own file.
 * The supervisor starts it only while the switch is on; off, every file route answers
 * `moduleDisabled`.
 */
export class FilebrowserRuntime implements ModuleRuntime<FilebrowserConfig> {
  config!: FilebrowserConfig;
  readonly log: RuleLog;
  /** Resumable uploads (tus). */
  readonly uploads: UploadService;
  /** Read tickets for URLs without a header; the key is drawn per run (a restart ends them). */
  readonly tickets = new Tickets();
  readonly thumbnails: Thumbnails;
  /** The share links' cookie key, password throttle and download counts. */
  readonly shares: ShareService;

  constructor(readonly ctx: ModuleContext) {
    this.log = new RuleLog({ level: 4, capacity: LOG_CAPACITY, toConsole: false }, ctx.log);
    this.uploads = new UploadService({
      storages: ctx.storages,
      configDir: ctx.configDir,
      expiryHours: () => this.config.uploadExpiryHours,
      line: (level, code, params) => this.line(level, code, params),
    });
    this.thumbnails = new Thumbnails(path.join(ctx.configDir, 'filebrowser', 'thumbs'), () => ({
      cacheBytes: this.config.thumbnailCacheMb * 1024 * 1024,
      workers: this.config.thumbnailWorkers,
    }));
    this.shares = new ShareService(this);
  }

  async start(config: FilebrowserConfig): Promise<void> {
    this.config = config;
    // Uploads left unfinished (also while the program was stopped) go after the expiry.
    const sweep = () => void this.uploads.sweep().catch((e) => this.ctx.log.warn(`upload sweep: ${String(e)}`));
    sweep();
    this.ctx.setInterval(sweep, this.uploads.tuning.sweepEveryMs);
  }

  async reload(next: FilebrowserConfig): Promise<void> {
    this.config = next;
  }

  async stop(): Promise<void> {}

  /** A coded line in the module's log. */
  line(level: LogLevel, code: FilebrowserLogCode, params: Record<string, unknown>): void {
    this.log.coded(level, code, params, filebrowserLogText(code, params));
  }

  status() {
    const storages = this.ctx.storages.list().length;
    return {
      // On by default, but with no storage to show it serves nothing: `stopped`, as storage
      // management with nothing open.
      ...(storages === 0 ? { state: 'stopped' as const } : {}),
      details: { storages, shares: this.config?.shares.length ?? 0 },
    };
  }
}
