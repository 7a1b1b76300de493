// Dead properties (PROPPATCH): in memory per module runtime, and, when the runtime gives a folder,
// one small JSON file per storage beside the module's config, written shortly after a change.
// Bounded: a value, a resource's properties and a storage's properties each have a byte cap, so
// a client cannot grow the process (or the file) without limit.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { rebase, within } from './wirePath.js';

export interface DeadProp {
  ns: string;
  name: string;
  /** The whole property element, self-contained XML (xml.ts `serialize`). */
  xml: string;
}

export interface PropStoreOptions {
  /** Folder for the JSON files (one per storage); absent: memory only. */
  propsDir?: string;
  /** One property's XML; default 64 KiB. */
  maxValueBytes?: number;
  /** All properties of one resource; default 256 KiB. */
  maxResourceBytes?: number;
  /** All properties in one storage; default 8 MiB. */
  maxStorageBytes?: number;
}

export type PropPatchOp = { op: 'set'; prop: DeadProp } | { op: 'remove'; ns: string; name: string };

/** Why a patch was refused: the status of the property at fault (the others get 424). */
export interface PatchRefusal {
  status: number;
  index: number;
}

export const propKey = (ns: string, name: string) => `{${ns}}${name}`;

interface StorageProps {
  paths: Map<string, Map<string, DeadProp>>;
  bytes: number;
}

const WRITE_DELAY_MS = 500;

export class PropStore {
  private readonly storages = new Map<string, StorageProps>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly dirty = new Set<string>();
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();
  private readonly maxValue: number;
  private readonly maxResource: number;
  private readonly maxStorage: number;

  constructor(private readonly opts: PropStoreOptions = {}) {
    this.maxValue = opts.maxValueBytes ?? 64 * 1024;
    this.maxResource = opts.maxResourceBytes ?? 256 * 1024;
    this.maxStorage = opts.maxStorageBytes ?? 8 * 1024 * 1024;
  }

  private fileOf(storage: string): string | undefined {
    return this.opts.propsDir ? path.join(this.opts.propsDir, `${encodeURIComponent(storage)}.props.json`) : undefined;
  }

  /** Load a storage's properties once (its file, when persisted); the other methods need this first. */
  ready(storage: string): Promise<void> {
    if (this.storages.has(storage)) return Promise.resolve();
    let p = this.loading.get(storage);
    if (!p) {
      p = this.load(storage).finally(() => this.loading.delete(storage));
      this.loading.set(storage, p);
    }
    return p;
  }

  private async load(storage: string): Promise<void> {
    const entry: StorageProps = { paths: new Map(), bytes: 0 };
    const file = this.fileOf(storage);
    if (file) {
      try {
        const data = JSON.parse(await fs.readFile(file, 'utf8')) as { paths?: Record<string, DeadProp[]> };
        for (const [p, props] of Object.entries(data.paths ?? {})) {
          const map = new Map<string, DeadProp>();
          for (const d of props) {
            if (typeof d?.ns !== 'string' || typeof d.name !== 'string' || typeof d.xml !== 'string') continue;
            if (entry.bytes + d.xml.length > this.maxStorage) break;
            map.set(propKey(d.ns, d.name), { ns: d.ns, name: d.name, xml: d.xml });
            entry.bytes += d.xml.length;
          }
          if (map.size) entry.paths.set(p, map);
        }
      } catch {
        // No file yet, or one that does not parse: start empty (properties are not worth a failed start).
      }
    }
    if (!this.storages.has(storage)) this.storages.set(storage, entry);
  }

  private entry(storage: string): StorageProps {
    let e = this.storages.get(storage);
    if (!e) {
      e = { paths: new Map(), bytes: 0 };
      this.storages.set(storage, e);
    }
    return e;
  }

  /** The dead properties of a resource (after `ready`). */
  of(storage: string, p: string): ReadonlyMap<string, DeadProp> | undefined {
    return this.storages.get(storage)?.paths.get(p);
  }

  /** Apply set / remove operations in order, all or nothing (RFC 4918 §9.2). */
  patch(storage: string, p: string, ops: readonly PropPatchOp[]): PatchRefusal | undefined {
    const e = this.entry(storage);
    const before = e.paths.get(p);
    const next = new Map(before ?? []);
    for (const [index, o] of ops.entries()) {
      if (o.op === 'remove') next.delete(propKey(o.ns, o.name));
      else {
        if (o.prop.xml.length > this.maxValue) return { status: 507, index };
        next.set(propKey(o.prop.ns, o.prop.name), o.prop);
      }
    }
    const size = sizeOf(next);
    if (size > this.maxResource) return { status: 507, index: ops.length - 1 };
    const grown = e.bytes - sizeOf(before) + size;
    if (grown > this.maxStorage) return { status: 507, index: ops.length - 1 };
    e.bytes = grown;
    if (next.size) e.paths.set(p, next);
    else e.paths.delete(p);
    this.changed(storage);
    return undefined;
  }

  /** Forget the properties of `p` and everything below it. */
  remove(storage: string, p: string): void {
    const e = this.storages.get(storage);
    if (!e) return;
    let changed = false;
    for (const [k, props] of [...e.paths]) {
      if (!within(p, k)) continue;
      e.bytes -= sizeOf(props);
      e.paths.delete(k);
      changed = true;
    }
    if (changed) this.changed(storage);
  }

  /**
   * Carry the properties of `from` (and below it when `recursive`) to `to` in another or the same
   * storage (COPY, MOVE). What the target storage has no room for is dropped.
   */
  copy(fromStorage: string, from: string, toStorage: string, to: string, recursive: boolean): void {
    const src = this.storages.get(fromStorage);
    if (!src) return;
    const moved: [string, Map<string, DeadProp>][] = [];
    for (const [k, props] of src.paths) {
      if (k === from || (recursive && within(from, k))) moved.push([rebase(from, to, k), new Map(props)]);
    }
    if (moved.length === 0) return;
    const dst = this.entry(toStorage);
    for (const [k, props] of moved) {
      const size = sizeOf(props);
      const had = dst.paths.get(k);
      if (dst.bytes - sizeOf(had) + size > this.maxStorage) continue;
      dst.bytes += size - sizeOf(had);
      dst.paths.set(k, props);
    }
    this.changed(toStorage);
  }

  private changed(storage: string): void {
    if (!this.opts.propsDir) return;
    this.dirty.add(storage);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, WRITE_DELAY_MS).unref();
  }

  /** Write the changed storages' files now (the runtime calls it when it stops). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const storages = [...this.dirty];
    this.dirty.clear();
    this.writing = this.writing.then(async () => {
      for (const s of storages) await this.write(s).catch(() => undefined);
    });
    return this.writing;
  }

  private async write(storage: string): Promise<void> {
    const file = this.fileOf(storage);
    const e = this.storages.get(storage);
    if (!file || !e) return;
    const paths: Record<string, DeadProp[]> = {};
    for (const [p, props] of e.paths) paths[p] = [...props.values()];
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, JSON.stringify({ version: 1, paths }), { mode: 0o600 });
    await fs.rename(tmp, file);
  }
}

function sizeOf(props: ReadonlyMap<string, DeadProp> | undefined): number {
  let n = 0;
  if (props) for (const d of props.values()) n += d.xml.length;
  return n;
}
