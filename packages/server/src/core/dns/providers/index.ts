// The provider registry: one small module per provider API, each with its own request signing.
import type { DnsProviderKind } from '../types.js';
import { alidns } from './alidns.js';
import { baiducloud } from './baiducloud.js';
import { cloudflare } from './cloudflare.js';
import { desec } from './desec.js';
import { dnspod } from './dnspod.js';
import { duckdns } from './duckdns.js';
import { dynv6 } from './dynv6.js';
import { godaddy } from './godaddy.js';
import { huaweicloud } from './huaweicloud.js';
import { namecom } from './namecom.js';
import { namesilo } from './namesilo.js';
import { porkbun } from './porkbun.js';
import { powerdns } from './powerdns.js';
import { rfc2136 } from './rfc2136.js';
import type { DnsProviderImpl } from './types.js';
import { vercel } from './vercel.js';

export const PROVIDERS: Record<DnsProviderKind, DnsProviderImpl> = {
  alidns,
  dnspod,
  cloudflare,
  huaweicloud,
  baiducloud,
  godaddy,
  porkbun,
  dynv6,
  desec,
  duckdns,
  namecom,
  namesilo,
  vercel,
  powerdns,
  rfc2136,
};

export type { DnsProviderImpl, ProviderContext, RecordTarget, TxtTarget } from './types.js';
export { ProviderError } from './types.js';
