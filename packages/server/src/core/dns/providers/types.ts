// What one provider implements. The service (../service.ts) binds it to an account and the
// caller's HTTP options, normalises TTLs and serialises the TXT changes of a name.
import type { HttpRequest, HttpResponse } from '../../outbound/client.js';
import type { AddTxtOutcome, DnsAccount, DnsProviderKind, RemoveTxtOutcome, SetOutcome } from '../types.js';

export { ProviderError } from '../types.js';

/** One A / AAAA record to bring in step. */
export interface RecordTarget {
  /** Full name, ASCII, no trailing dot; sub '' = the apex. */
  fqdn: string;
  sub: string;
  root: string;
  type: 'A' | 'AAAA';
  value: string;
  /** Raised to the provider's minimum, 0 = its default (see the service). */
  ttl: number;
  /** `?key=value` options of a DDNS domain line. */
  params: Record<string, string>;
}

/** One TXT value to add or remove (`value` as it is meant, without quotes). */
export interface TxtTarget {
  fqdn: string;
  sub: string;
  root: string;
  value: string;
  /** The TTL of an added value (a removal keeps the TTL of the values that stay). */
  ttl: number;
  params: Record<string, string>;
}

export interface ProviderContext {
  dns: DnsAccount;
  /** HTTP through the caller's proxy and API network, with its time limit. */
  http(req: Omit<HttpRequest, 'timeoutMs' | 'signal'> & { timeoutMs?: number }): Promise<HttpResponse>;
  /** The provider's API base; tests point it at a local stub. */
  endpoint(base: string): string;
  timeoutMs: number;
  signal?: AbortSignal;
  now(): Date;
}

/** TXT writing: reads the name's TXT values first; touches only the one value it is given. */
export interface TxtSupport {
  /** false: the API keeps one TXT value per name (DuckDNS). */
  many: boolean;
  add(t: TxtTarget, ctx: ProviderContext): Promise<AddTxtOutcome>;
  remove(t: TxtTarget, ctx: ProviderContext): Promise<RemoveTxtOutcome>;
}

export interface DnsProviderImpl {
  name: DnsProviderKind;
  setAddress(target: RecordTarget, ctx: ProviderContext): Promise<SetOutcome>;
  /** Absent: the API cannot write TXT records. */
  txt?: TxtSupport;
}
