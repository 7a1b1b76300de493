// The DNS provider layer (see types.ts): DDNS sets A / AAAA records through it, ACME DNS-01
// adds and removes TXT records. Modules get the service as `ctx.dns`.
export { createDnsService, providerTtl } from './service.js';
export type {
  AddTxtOutcome,
  DnsAccount,
  DnsCapabilities,
  DnsClientOptions,
  DnsName,
  DnsProvider,
  DnsProviderKind,
  DnsService,
  RemoveTxtOutcome,
  SetOutcome,
} from './types.js';
export { ProviderError } from './types.js';
