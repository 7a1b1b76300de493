// The DNS provider layer's contract, for every module that writes DNS records: DDNS keeps
// A / AAAA records in step with an address, ACME DNS-01 adds and removes TXT records.
import type { DdnsProvider, DdnsTask } from '@lucky/shared';
import type { HttpClients, ProxySpec } from '../outbound/client.js';

/** A provider API (the DDNS `callback` is the DDNS module's own request template, not one of them). */
export type DnsProviderKind = Exclude<DdnsProvider, 'callback'>;

/**
 * One account at a provider: which API and its credentials (`id`, `secret`, and `server` /
 * `zone` / `tsigAlgorithm` for PowerDNS and RFC 2136), as a DDNS task's `dns` holds them.
 */
export type DnsAccount = Omit<DdnsTask['dns'], 'callback'>;

/** A name as providers address it. */
export interface DnsName {
  /** Full name, ASCII, lower case, no trailing dot. */
  fqdn: string;
  /** The part below `root` ('' = the apex). */
  sub: string;
  /** The registered domain (what most provider APIs call the domain or zone). */
  root: string;
  /** Provider options (a DDNS domain line's `?key=value`: `RecordId`, `Line`, `proxied` …). */
  params?: Record<string, string>;
}

export interface DnsCapabilities {
  /** Can add and remove TXT records (what ACME DNS-01 needs). */
  txt: boolean;
  /**
   * Several TXT values can live on one name at once (a wildcard and its apex validate two).
   * false for DuckDNS: one TXT value per domain, which an add replaces and a remove clears.
   */
  txtMany: boolean;
}

/** `same`: the record already held the value, nothing was written. */
export type SetOutcome = 'created' | 'updated' | 'same';
export type AddTxtOutcome = 'created' | 'same';
export type RemoveTxtOutcome = 'removed' | 'absent';

/**
 * A provider bound to one account and the caller's HTTP options. Every call is idempotent: it
 * reads first and writes only what is missing. TTLs are raised to the provider's minimum and 0
 * means the provider's default (`DDNS_PROVIDER_INFO`).
 */
export interface DnsProvider {
  readonly kind: DnsProviderKind;
  readonly capabilities: DnsCapabilities;
  /** Makes `ip` the one value of the name's A or AAAA record. */
  setAddress(name: DnsName, type: 'A' | 'AAAA', ip: string, ttl: number): Promise<SetOutcome>;
  /** Adds `value` to the name's TXT values and leaves the others alone. */
  addTxt(name: DnsName, value: string, ttl: number): Promise<AddTxtOutcome>;
  /** Removes `value` from the name's TXT values; the name's other values stay. */
  removeTxt(name: DnsName, value: string): Promise<RemoveTxtOutcome>;
}

/** How a provider's calls travel: the caller's HTTP clients (closed with the caller), proxy and limits. */
export interface DnsClientOptions {
  http: HttpClients;
  proxy?: ProxySpec;
  /** API calls over this address family only. */
  family?: 4 | 6;
  /** Per call (and per DNS exchange for RFC 2136). */
  timeoutMs: number;
  signal?: AbortSignal;
  now?: () => Date;
  /** Replaces the provider's API base: tests point it at a local stub; never a user setting. */
  endpoint?: string;
}

/** The core's DNS service, handed to modules as `ctx.dns`. */
export interface DnsService {
  /** Every provider API with what it can do (ACME offers those with `txt`). */
  kinds(): { kind: DnsProviderKind; capabilities: DnsCapabilities }[];
  /** undefined for a kind that is not a provider API. */
  capabilities(kind: string): DnsCapabilities | undefined;
  /** Throws ProviderError for a kind that is not a provider API. */
  create(account: DnsAccount, options: DnsClientOptions): DnsProvider;
  /**
   * A full name split at its registered domain: the last two labels, or three under a
   * multi-level suffix (built-in list plus `extraSuffixes`, longest match wins).
   */
  name(fqdn: string, extraSuffixes?: readonly string[]): DnsName;
}

/** A refusal or unexpected answer of the provider; `message` is what a status shows. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
