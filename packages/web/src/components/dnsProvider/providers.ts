// What a dialog asks of each DNS provider (a DDNS task's, an ACME certificate's DNS-01): the label
// of each credential field (the provider's own names for them, `ddns.cred_*`) and whether it may
// stay empty. Required fields follow the shared DDNS_PROVIDER_INFO, which the server checks too.
import { DDNS_PROVIDER_INFO, type DdnsCredentialField, type DdnsProvider } from '@lucky/shared';

/** Label keys (under `ddns.`) of the fields each provider shows, in form order. */
const LABELS: Record<DdnsProvider, Partial<Record<DdnsCredentialField, string>>> = {
  alidns: { id: 'cred_accessKeyId', secret: 'cred_accessKeySecret' },
  dnspod: { id: 'cred_secretId', secret: 'cred_secretKey' },
  cloudflare: { secret: 'cred_apiToken' },
  huaweicloud: { id: 'cred_accessKeyIdHuawei', secret: 'cred_secretAccessKey' },
  baiducloud: { id: 'cred_accessKeyId', secret: 'cred_secretAccessKey' },
  godaddy: { id: 'cred_key', secret: 'cred_secret' },
  porkbun: { id: 'cred_apiKey', secret: 'cred_secretApiKey' },
  dynv6: { secret: 'cred_token' },
  desec: { secret: 'cred_token' },
  duckdns: { secret: 'cred_token' },
  namecom: { id: 'cred_username', secret: 'cred_apiToken' },
  namesilo: { secret: 'cred_apiKey' },
  vercel: { id: 'cred_teamId', secret: 'cred_token' },
  powerdns: { server: 'cred_apiUrl', secret: 'cred_apiKey', id: 'cred_serverId', zone: 'cred_zone' },
  rfc2136: { server: 'cred_dnsServer', id: 'cred_tsigKeyName', secret: 'cred_tsigSecret', zone: 'cred_zone' },
  callback: { id: 'cred_varId', secret: 'cred_varSecret' },
};

/** Placeholders that show the expected form (not translated: addresses and names). */
export const PLACEHOLDERS: Partial<Record<DdnsProvider, Partial<Record<DdnsCredentialField, string>>>> = {
  powerdns: { server: 'http://127.0.0.1:8081', id: 'localhost', zone: 'example.com' },
  rfc2136: { server: '192.0.2.53:53', id: 'ddns-key', zone: 'example.com' },
};

export interface CredentialField {
  field: DdnsCredentialField;
  labelKey: string;
  required: boolean;
}

export function credentialFields(provider: DdnsProvider): CredentialField[] {
  const info = DDNS_PROVIDER_INFO[provider];
  return (Object.entries(LABELS[provider]) as [DdnsCredentialField, string][]).map(([field, labelKey]) => ({
    field,
    labelKey,
    required: info.required.includes(field),
  }));
}
