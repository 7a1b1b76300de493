import { randomInt } from 'node:crypto';
import type { ConfigStore } from '../config/store.js';
import { CertError, type CertInfo, type ParsedPair, parseCertPair } from './parse.js';
import type { CertOwner, CertRecord } from './schema.js';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newKey = () => Array.from({ length: 8 }, () => KEY_ALPHABET[randomInt(KEY_ALPHABET.length)]).join('');

/** A stored certificate as the list shows it: never the key material. */
export interface CertView {
  Key: string;
  Remark: string;
  Enable: boolean;
  AddTime: string;
  Fingerprint: string;
  /** One per certificate of the chain, leaf first (ancestor's shape). */
  CertsInfo: { Domains: string[]; NotBeforeTime: string; NotAfterTime: string }[];
  /** Leaf expired (or not yet valid) right now. */
  Expired: boolean;
  /** The module that keeps this entry up to date (ACME), when one does. */
  ManagedBy?: CertOwner;
}

/**
 * What a module may do to the store (`ctx.certStore`), bound to the module's key: put or replace
 * the one entry of each of its items, remove it. A renewal replaces the entry in place (same store
 * key), so rules that name it need no change and the resolver serves it at the next handshake.
 */
export interface ModuleCertStore {
  /** Put or replace the entry of `item`; answers its store key. Throws CertError for a bad pair. */
  put(entry: { item: string; certPem: string; keyPem: string; remark: string }): Promise<string>;
  /** Remove the entry of `item`; false when there was none. */
  remove(item: string): Promise<boolean>;
  /** The store key of `item`'s entry, if there is one. */
  keyOf(item: string): string | undefined;
  /** The PEM chain of `item`'s entry (revocation, ARI), never its key. */
  certPem(item: string): string | undefined;
}

export interface LoadedCert {
  record: CertRecord;
  parsed: ParsedPair;
  leaf: CertInfo;
}

export class DuplicateCertError extends Error {}

/**
 * The certificate store of the core: CRUD over the config's `certs` slice.
 * Parsed forms are cached by record key + PEM, so a list or a handshake never
 * re-parses an unchanged certificate.
 */
export class CertStore {
  private cache = new Map<string, { pem: string; loaded: LoadedCert | null }>();

  constructor(private readonly store: ConfigStore) {}

  records(): CertRecord[] {
    return this.store.get().certs ?? [];
  }

  /** Every record that parses (a broken one, e.g. edited by hand, is skipped). */
  loaded(): LoadedCert[] {
    const out: LoadedCert[] = [];
    for (const record of this.records()) {
      const l = this.load(record);
      if (l) out.push(l);
    }
    return out;
  }

  list(): CertView[] {
    const now = Date.now();
    return this.records().map((r) => {
      const l = this.load(r);
      const chain = l?.parsed.chain ?? [];
      const leaf = chain[0];
      return {
        Key: r.key,
        Remark: r.remark,
        Enable: r.enable,
        AddTime: r.addTime,
        Fingerprint: l?.parsed.fingerprint ?? '',
        CertsInfo: chain.map((c) => ({ Domains: c.domains, NotBeforeTime: c.notBefore, NotAfterTime: c.notAfter })),
        Expired: !leaf || Date.parse(leaf.notAfter) < now || Date.parse(leaf.notBefore) > now,
        ...(r.managedBy ? { ManagedBy: r.managedBy } : {}),
      };
    });
  }

  /** Validate the pair, refuse a duplicate (same leaf certificate), save. */
  async add(input: { remark: string; certPem: string; keyPem: string }): Promise<string> {
    const parsed = parseCertPair(input.certPem, input.keyPem);
    let key = '';
    await this.store.update((draft) => {
      const list = draft.certs ?? [];
      for (const r of list) {
        if (this.load(r)?.parsed.fingerprint === parsed.fingerprint) {
          throw new DuplicateCertError(`this certificate is already stored (key ${r.key})`);
        }
      }
      do key = newKey();
      while (list.some((r) => r.key === key));
      list.push({
        key,
        enable: true,
        remark: input.remark,
        certPem: parsed.certPem,
        keyPem: parsed.keyPem,
        addTime: new Date().toISOString(),
      });
      draft.certs = list;
    });
    return key;
  }

  /**
   * Put or replace the entry `owner` manages (the pair is checked first). A replacement keeps the
   * store key and the switch; no duplicate check: a module's entry is its own.
   */
  async putManaged(input: { owner: CertOwner; certPem: string; keyPem: string; remark: string }): Promise<string> {
    const parsed = parseCertPair(input.certPem, input.keyPem);
    let key = '';
    await this.store.update((draft) => {
      const list = draft.certs ?? [];
      const same = list.find((r) => sameOwner(r.managedBy, input.owner));
      if (same) {
        same.certPem = parsed.certPem;
        same.keyPem = parsed.keyPem;
        same.remark = input.remark;
        key = same.key;
      } else {
        do key = newKey();
        while (list.some((r) => r.key === key));
        list.push({
          key,
          enable: true,
          remark: input.remark,
          certPem: parsed.certPem,
          keyPem: parsed.keyPem,
          addTime: new Date().toISOString(),
          managedBy: { ...input.owner },
        });
      }
      draft.certs = list;
    });
    return key;
  }

  /** Remove the entry `owner` manages; false when there was none. */
  async removeManaged(owner: CertOwner): Promise<boolean> {
    const key = this.keyOf(owner);
    return key ? this.remove(key) : false;
  }

  keyOf(owner: CertOwner): string | undefined {
    return this.records().find((r) => sameOwner(r.managedBy, owner))?.key;
  }

  /** The store bound to one module (`ctx.certStore`). */
  forModule(module: string): ModuleCertStore {
    return {
      put: (e) =>
        this.putManaged({ owner: { module, item: e.item }, certPem: e.certPem, keyPem: e.keyPem, remark: e.remark }),
      remove: (item) => this.removeManaged({ module, item }),
      keyOf: (item) => this.keyOf({ module, item }),
      certPem: (item) => this.records().find((r) => sameOwner(r.managedBy, { module, item }))?.certPem,
    };
  }

  async update(key: string, patch: { enable?: boolean; remark?: string }): Promise<boolean> {
    let found = false;
    await this.store.update((draft) => {
      const r = draft.certs?.find((x) => x.key === key);
      if (!r) return;
      found = true;
      if (patch.enable !== undefined) r.enable = patch.enable;
      if (patch.remark !== undefined) r.remark = patch.remark;
    });
    return found;
  }

  async remove(key: string): Promise<boolean> {
    let found = false;
    await this.store.update((draft) => {
      const before = draft.certs?.length ?? 0;
      draft.certs = (draft.certs ?? []).filter((x) => x.key !== key);
      found = draft.certs.length !== before;
    });
    this.cache.delete(key);
    return found;
  }

  /** Called on every config change (the resolver rebuilds its index). */
  onChange(fn: () => void): () => void {
    return this.store.onChange((next, prev) => {
      if (next.certs !== prev.certs) fn();
    });
  }

  private load(record: CertRecord): LoadedCert | null {
    const pem = record.certPem + record.keyPem;
    const hit = this.cache.get(record.key);
    if (hit && hit.pem === pem) return hit.loaded ? { ...hit.loaded, record } : null;
    let loaded: LoadedCert | null = null;
    try {
      const parsed = parseCertPair(record.certPem, record.keyPem);
      loaded = { record, parsed, leaf: parsed.chain[0] };
    } catch (err) {
      if (!(err instanceof CertError)) throw err;
    }
    this.cache.set(record.key, { pem, loaded });
    return loaded;
  }
}

const sameOwner = (a: CertOwner | undefined, b: CertOwner) => a?.module === b.module && a.item === b.item;

const stores = new WeakMap<ConfigStore, CertStore>();

/** The one CertStore of a config store (the admin routes, the supervisor and modules share it). */
export function certStoreFor(store: ConfigStore): CertStore {
  let s = stores.get(store);
  if (!s) {
    s = new CertStore(store);
    stores.set(store, s);
  }
  return s;
}
