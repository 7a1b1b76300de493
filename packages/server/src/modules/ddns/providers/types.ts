import type { DdnsProvider, DdnsRecordType, DdnsTask } from '@lucky/shared';
import type { HttpRequest, HttpResponse } from '../http/client.js';

/** One record to bring in step. */
export interface RecordTarget {
  /** Full name, ASCII, no trailing dot; sub '' = the apex. */
  fqdn: string;
  sub: string;
  root: string;
  type: DdnsRecordType;
  value: string;
  /** The task's TTL, or the provider's default when the task says 0, raised to its minimum. */
  ttl: number;
  /** `?key=value` options of the domain line. */
  params: Record<string, string>;
}

export interface ProviderContext {
  dns: DdnsTask['dns'];
  /** HTTP through the task's proxy and API network, with the task's time limit. */
  http(req: Omit<HttpRequest, 'timeoutMs' | 'signal'> & { timeoutMs?: number }): Promise<HttpResponse>;
  /** The provider's API base; tests point it at a local stub (module option `endpoints`). */
  endpoint(base: string): string;
  timeoutMs: number;
  signal?: AbortSignal;
  now(): Date;
}

/** `same`: the record already held the value, nothing was written. */
export type SyncOutcome = 'created' | 'updated' | 'same';

export interface DnsProviderImpl {
  name: DdnsProvider;
  sync(target: RecordTarget, ctx: ProviderContext): Promise<SyncOutcome>;
}

/** A refusal or unexpected answer of the provider; `msg` is what the domain status shows. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
