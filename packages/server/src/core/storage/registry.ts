import type { Storage, StorageInfo, StorageMount, StorageService } from './types.js';

/** The process's one StorageService; `mounts` is the supervisor's view of every module's mounts. */
export class StorageRegistry implements StorageService {
  private storages = new Map<string, { info: StorageInfo; storage: Storage }>();

  constructor(private readonly mounts: () => StorageMount[]) {}

  get(key: string): Storage | undefined {
    return this.storages.get(key)?.storage;
  }

  list(): StorageInfo[] {
    return [...this.storages.values()].map((s) => s.info);
  }

  mountsOf(key: string): StorageMount[] {
    return this.mounts().filter((m) => m.storage === key);
  }

  publish(next: ReadonlyMap<string, { info: StorageInfo; storage: Storage }>): void {
    const kept = new Set([...next.values()].map((s) => s.storage));
    for (const { storage } of this.storages.values()) {
      // Closing is best effort: a remote that is gone has nothing left to release.
      if (!kept.has(storage)) void storage.close().catch(() => undefined);
    }
    this.storages = new Map(next);
  }
}
