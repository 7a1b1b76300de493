// The running module: opens every enabled entry as a Storage, publishes them to all modules
// (ctx.storages), and probes each one every minute (reachability with its reason, free / used
// space) for the list. A reload keeps the storages whose backend settings did not change (a
// rename or another entry's change does not cut the file services' transfers) and replaces the
// rest; the registry closes what is no longer published. Stopped, it publishes nothing.
import {
  type Coded,
  englishWithCauses,
  STORAGEMANAGEMENT_LIMITS,
  STORAGEMANAGEMENT_REASONS,
  type StorageEntryConfig,
  type StoragemanagementConfig,
  type StoragemanagementReasonCode,
} from '@lucky/shared';
import type { ModuleContext, ModuleRuntime } from '../../core/modules/types.js';
import { type Storage, StorageError, type StorageInfo, type StorageSpace } from '../../core/storage/types.js';
import { backendId, infoOf, openStorage } from './open.js';

/** A probe longer than this counts as unreachable (a dead network mount can hang statfs for minutes). */
const PROBE_TIME_LIMIT_MS = 20_000;

export interface ProbeResult {
  state: 'online' | 'offline' | 'checking';
  reason?: Coded;
  error?: string;
  space?: StorageSpace;
  checkedAt?: number;
}

interface OpenEntry {
  entry: StorageEntryConfig;
  id: string;
  /** undefined when the backend could not even be created (reason in `probe`). */
  storage?: Storage;
  probe: ProbeResult;
  inflight?: Promise<void>;
}

const english = (code: StoragemanagementReasonCode, params: Record<string, unknown>) =>
  englishWithCauses(STORAGEMANAGEMENT_REASONS[code], params);

/** A failed probe as a coded reason: the storage error's code where the UI has words for it. */
export function reasonOf(err: unknown): { reason: Coded; error: string } {
  const code: StoragemanagementReasonCode =
    err instanceof StorageError && err.code in STORAGEMANAGEMENT_REASONS
      ? (err.code as StoragemanagementReasonCode)
      : err instanceof StorageError && err.code === 'readOnly'
        ? 'denied'
        : 'failed';
  const detail = err instanceof StorageError ? (err.detail ?? err.code) : ((err as Error)?.message ?? String(err));
  const params = { detail };
  return { reason: { code, params }, error: english(code, params) };
}

export class StoragemanagementRuntime implements ModuleRuntime<StoragemanagementConfig> {
  private open = new Map<string, OpenEntry>();
  private count = 0;

  constructor(private readonly ctx: ModuleContext) {}

  async start(config: StoragemanagementConfig): Promise<void> {
    this.apply(config);
    this.ctx.setInterval(() => void this.probeAll(), STORAGEMANAGEMENT_LIMITS.probeIntervalMs);
    this.ctx.log.info(`storage management: ${this.open.size} of ${config.storages.length} storages open`);
  }

  async reload(next: StoragemanagementConfig): Promise<void> {
    this.apply(next);
  }

  async stop(): Promise<void> {
    this.open.clear();
    this.ctx.storages.publish(new Map());
  }

  status() {
    const all = [...this.open.values()];
    return {
      // On by default (the file services need its storages), but with nothing open it runs nothing:
      // the overview says `stopped`, never `running`, as for the web service without rules.
      ...(all.length === 0 ? { state: 'stopped' as const } : {}),
      details: {
        storages: this.count,
        open: all.length,
        online: all.filter((o) => o.probe.state === 'online').length,
        offline: all.filter((o) => o.probe.state === 'offline').length,
      },
    };
  }

  /** What the last probe of an enabled entry found (undefined: the entry is not open). */
  probeOf(key: string): ProbeResult | undefined {
    return this.open.get(key)?.probe;
  }

  /** Probes one entry now (the list's "check" button); resolves when done. */
  async probeNow(key: string): Promise<void> {
    const o = this.open.get(key);
    if (o) await this.probe(o);
  }

  private apply(config: StoragemanagementConfig): void {
    this.count = config.storages.length;
    const next = new Map<string, OpenEntry>();
    const fresh: OpenEntry[] = [];
    for (const entry of config.storages) {
      if (!entry.enabled) continue;
      const id = backendId(entry);
      const prev = this.open.get(entry.key);
      if (prev && prev.id === id && prev.storage) {
        prev.entry = entry;
        next.set(entry.key, prev);
        continue;
      }
      let o: OpenEntry;
      try {
        o = { entry, id, storage: openStorage(entry), probe: { state: 'checking' } };
        fresh.push(o);
      } catch (err) {
        const { reason, error } = reasonOf(err);
        const failed = { code: 'openFailed', params: reason.params };
        o = {
          entry,
          id,
          probe: {
            state: 'offline',
            reason: failed,
            error: english('openFailed', reason.params ?? {}),
            checkedAt: Date.now(),
          },
        };
        this.ctx.log.warn(`storage ${entry.name}: could not be opened (${error})`);
      }
      next.set(entry.key, o);
    }
    this.open = next;
    const published = new Map<string, { info: StorageInfo; storage: Storage }>();
    for (const [key, o] of next) if (o.storage) published.set(key, { info: infoOf(o.entry), storage: o.storage });
    this.ctx.storages.publish(published);
    for (const o of fresh) void this.probe(o);
  }

  private async probeAll(): Promise<void> {
    await Promise.all([...this.open.values()].map((o) => this.probe(o)));
  }

  private probe(o: OpenEntry): Promise<void> {
    if (o.inflight) return o.inflight;
    const storage = o.storage;
    if (!storage) return Promise.resolve();
    const run = async () => {
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new StorageError('unreachable', '/', `no answer within ${PROBE_TIME_LIMIT_MS / 1000} s`)),
          PROBE_TIME_LIMIT_MS,
        );
      });
      const before = o.probe.state;
      try {
        await Promise.race([storage.probe(), limit]);
        const space = await Promise.race([storage.space(), limit]);
        o.probe = { state: 'online', space, checkedAt: Date.now() };
        if (before === 'offline') this.ctx.log.info(`storage ${o.entry.name}: reachable again`);
      } catch (err) {
        const { reason, error } = reasonOf(err);
        if (before !== 'offline' || o.probe.error !== error) this.ctx.log.warn(`storage ${o.entry.name}: ${error}`);
        o.probe = { state: 'offline', reason, error, checkedAt: Date.now() };
      } finally {
        clearTimeout(timer);
      }
    };
    o.inflight = run().finally(() => {
      o.inflight = undefined;
    });
    return o.inflight;
  }
}
