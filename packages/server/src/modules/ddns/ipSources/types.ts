import { type CodedText, type DdnsReasonCode, ddnsReason } from '@lucky/shared';
import type { NetInterfaces } from '../../../core/net/interfaces.js';
import type { HttpClients } from '../../../core/outbound/client.js';

/**
 * An address, or why there is none: one of the spec's IP topics (`allUrlsFailed`,
 * `commandFailed`, …) with the step that failed as its `cause`.
 */
export type IpResult = { ok: true; ip: string; from: string } | { ok: false; reason: CodedText };

/** What an IP source may use; the test hooks replace the machine's interfaces and clock. */
export interface IpSourceEnv {
  http: HttpClients;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Shared by the tasks of one check round: a URL answers once per round and family. */
  cache?: Map<string, Promise<IpResult>>;
  /** Test hook: the interface table instead of the machine's. */
  interfaces?: NetInterfaces;
  now?: () => number;
}

export const fail = (code: DdnsReasonCode, params: Record<string, unknown> = {}): IpResult => ({
  ok: false,
  reason: ddnsReason(code, params),
});
