import type { DdnsRuntimeCode } from '@lucky/shared';
import type { NetInterfaces } from '../../../core/net/interfaces.js';
import type { HttpClients } from '../../../core/outbound/client.js';

export type IpResult = { ok: true; ip: string; from: string } | { ok: false; code: DdnsRuntimeCode; msg: string };

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

export const fail = (code: DdnsRuntimeCode, msg: string): IpResult => ({ ok: false, code, msg });
