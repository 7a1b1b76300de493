import tls from 'node:tls';
import type { CertRecord } from './schema.js';
import type { CertStore, LoadedCert } from './store.js';

/** Where the certificates come from: the core's store, or a copy of it in a web service helper process. */
export type CertSource = Pick<CertStore, 'loaded' | 'onChange'>;

export type TlsMinVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

export interface ResolveOptions {
  minVersion?: TlsMinVersion;
}

/**
 * Picks a certificate per TLS handshake: the exact server name, then a
 * one-level `*.` wildcard, then the default (a fallback the consumer gives,
 * else the first usable certificate). Among several candidates for one name
 * the currently valid one that expires last wins, so an uploaded renewal is
 * used at the next handshake. The index is rebuilt when the store changes;
 * secure contexts are cached per certificate and minimum version.
 */
export class CertResolver {
  private exact = new Map<string, LoadedCert>();
  private wildcard = new Map<string, LoadedCert>();
  private fallback: LoadedCert | undefined;
  private contexts = new Map<string, tls.SecureContext>();
  private dirty = true;

  constructor(private readonly store: CertSource) {
    store.onChange(() => {
      this.dirty = true;
    });
  }

  /** The enabled certificates with their keys, for a helper process's copy (never for an API answer). */
  records(): CertRecord[] {
    return this.store
      .loaded()
      .filter((c) => c.record.enable)
      .map((c) => c.record);
  }

  /** Called after the certificates changed. */
  onChange(fn: () => void): () => void {
    return this.store.onChange(fn);
  }

  /** The certificate for `servername` (undefined: none stored and enabled). */
  pick(servername: string | undefined): LoadedCert | undefined {
    if (this.dirty) this.rebuild();
    const name = (servername ?? '').toLowerCase().replace(/\.$/, '');
    if (name) {
      const exact = this.exact.get(name);
      if (exact) return exact;
      const dot = name.indexOf('.');
      if (dot > 0) {
        const wild = this.wildcard.get(name.slice(dot + 1));
        if (wild) return wild;
      }
    }
    return this.fallback;
  }

  /** The certificate stored for `servername` itself (exact or wildcard), never the default one. */
  match(servername: string): LoadedCert | undefined {
    const c = servername ? this.pick(servername) : undefined;
    return c && c !== this.fallback ? c : this.matchesFallback(c, servername);
  }

  /** The default certificate also counts when it names the server itself. */
  private matchesFallback(c: LoadedCert | undefined, servername: string): LoadedCert | undefined {
    if (!c) return undefined;
    const name = servername.toLowerCase().replace(/\.$/, '');
    const dot = name.indexOf('.');
    return c.leaf.domains.some((d) => d === name || (dot > 0 && d === `*.${name.slice(dot + 1)}`)) ? c : undefined;
  }

  /**
   * SNICallback for a listener with its own certificate (the admin console): a stored
   * certificate for the requested name wins; any other name gets the listener's own.
   */
  matchingSniCallback(
    opts: ResolveOptions = {},
  ): (servername: string, cb: (err: Error | null, ctx?: tls.SecureContext) => void) => void {
    return (servername, cb) => {
      try {
        cb(null, this.match(servername) ? this.contextFor(servername, opts) : undefined);
      } catch (err) {
        cb(err as Error);
      }
    };
  }

  /** Whether some enabled certificate exists (a listener without one cannot offer HTTPS). */
  hasAny(): boolean {
    return this.pick(undefined) !== undefined;
  }

  contextFor(servername: string | undefined, opts: ResolveOptions = {}): tls.SecureContext | undefined {
    const c = this.pick(servername);
    if (!c) return undefined;
    const id = `${c.record.key}:${c.parsed.fingerprint}:${opts.minVersion ?? ''}`;
    let ctx = this.contexts.get(id);
    if (!ctx) {
      ctx = tls.createSecureContext({ cert: c.record.certPem, key: c.record.keyPem, minVersion: opts.minVersion });
      this.contexts.set(id, ctx);
    }
    return ctx;
  }

  /** For `tls.createServer({ SNICallback })`. */
  sniCallback(
    opts: ResolveOptions = {},
  ): (servername: string, cb: (err: Error | null, ctx?: tls.SecureContext) => void) => void {
    return (servername, cb) => {
      try {
        const ctx = this.contextFor(servername, opts);
        if (ctx) cb(null, ctx);
        else cb(new Error(`no certificate for ${servername || '(no server name)'}`));
      } catch (err) {
        cb(err as Error);
      }
    };
  }

  private rebuild(): void {
    this.dirty = false;
    this.exact.clear();
    this.wildcard.clear();
    this.contexts.clear();
    this.fallback = undefined;
    const now = Date.now();
    const usable = this.store.loaded().filter((c) => c.record.enable);
    const rank = (c: LoadedCert) => {
      const valid = Date.parse(c.leaf.notBefore) <= now && Date.parse(c.leaf.notAfter) >= now;
      return (valid ? 1e15 : 0) + Date.parse(c.leaf.notAfter);
    };
    const better = (a: LoadedCert | undefined, b: LoadedCert) => !a || rank(b) > rank(a);
    for (const c of usable) {
      for (const d of c.leaf.domains) {
        if (d.startsWith('*.')) {
          const base = d.slice(2);
          if (better(this.wildcard.get(base), c)) this.wildcard.set(base, c);
        } else if (better(this.exact.get(d), c)) this.exact.set(d, c);
      }
      if (better(this.fallback, c)) this.fallback = c;
    }
  }
}

const resolvers = new WeakMap<CertStore, CertResolver>();

export function certResolverFor(store: CertStore): CertResolver {
  let r = resolvers.get(store);
  if (!r) {
    r = new CertResolver(store);
    resolvers.set(store, r);
  }
  return r;
}
