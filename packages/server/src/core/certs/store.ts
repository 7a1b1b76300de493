import { randomInt } from 'node:crypto';
import type { ConfigStore } from '../config/store.js';
import { CertError, type CertInfo, type ParsedPair, parseCertPair } from './parse.js';
import type { CertRecord } from './schema.js';

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
