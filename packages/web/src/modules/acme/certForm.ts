// The certificate dialog as data, free of React so it is unit-tested: the values a new
// certificate starts with, the conversions to and from the API shapes, and the check before
// sending — the shared schema plus the rules between fields the server applies too (names checked
// by `isAcmeName`, each once; a wildcard only by DNS-01, an IP address only by HTTP-01), answered
// with its codes on the fields they name.
import {
  ACME_LIMITS,
  type AcmeCertificateInput,
  type AcmeCertificateView,
  type AcmeChallengeType,
  type AcmeKeyType,
  acmeCertificateInputSchema,
  acmeIssues,
  isAcmeName,
  isIp,
  type TSIG_ALGORITHMS,
  type WebhookSettings,
} from '@lucky/shared';
import type { Failure } from '../../api/callErrors';
import {
  newWebhookValues,
  valuesToWebhook,
  type WebhookFormValues,
  webhookToValues,
} from '../../components/webhook/webhookForm';

const L = ACME_LIMITS;

export interface CertFormValues {
  name: string;
  enabled: boolean;
  account: string;
  names: string[];
  keyType: AcmeKeyType;
  challenge: AcmeChallengeType;
  dns: {
    provider: string;
    id: string;
    secret: string;
    server: string;
    zone: string;
    tsigAlgorithm: (typeof TSIG_ALGORITHMS)[number];
    ttl: number;
    delegateTo: string;
    propagationCheck: boolean;
    propagationTimeout: number;
    propagationInterval: number;
    nameservers: string[];
  };
  http: { port: number };
  renewDaysBefore: number;
  useAri: boolean;
  export: { enabled: boolean; dir: string; certMode: string; keyMode: string };
  command: string;
  commandTimeout: number;
  webhook: WebhookFormValues;
}

export function newCertValues(account = '', provider = 'cloudflare'): CertFormValues {
  return {
    name: '',
    enabled: true,
    account,
    names: [],
    keyType: 'ec256',
    challenge: 'http-01',
    dns: {
      provider,
      id: '',
      secret: '',
      server: '',
      zone: '',
      tsigAlgorithm: 'hmac-sha256',
      ttl: L.txtTtl.default,
      delegateTo: '',
      propagationCheck: true,
      propagationTimeout: L.propagationTimeout.default,
      propagationInterval: L.propagationInterval.default,
      nameservers: [],
    },
    http: { port: L.httpPort.default },
    renewDaysBefore: L.renewDaysBefore.default,
    useAri: true,
    export: { enabled: false, dir: '', certMode: '644', keyMode: '600' },
    command: '',
    commandTimeout: L.commandTimeout.default,
    webhook: newWebhookValues(),
  };
}

/** The form values of a listed certificate (its key and state left out; masked secrets stay masked). */
export function certToValues(c: AcmeCertificateView): CertFormValues {
  const base = newCertValues(c.account, c.dns.provider);
  return {
    ...base,
    name: c.name,
    enabled: c.enabled,
    names: [...c.names],
    keyType: c.keyType,
    challenge: c.challenge,
    dns: { ...base.dns, ...c.dns, nameservers: [...c.dns.nameservers] },
    http: { ...c.http },
    renewDaysBefore: c.renewDaysBefore,
    useAri: c.useAri,
    export: { ...c.export },
    command: c.command,
    commandTimeout: c.commandTimeout,
    webhook: webhookToValues(c.webhook, newWebhookValues()),
  };
}

/** What is sent: trimmed text, names lower-cased without blanks. */
export function valuesToCert(v: CertFormValues): AcmeCertificateInput {
  return {
    name: v.name.trim(),
    enabled: v.enabled,
    account: v.account,
    names: v.names.map((n) => n.trim().toLowerCase()).filter(Boolean),
    keyType: v.keyType,
    challenge: v.challenge,
    dns: {
      ...v.dns,
      id: v.dns.id.trim(),
      secret: v.dns.secret.trim(),
      server: v.dns.server.trim(),
      zone: v.dns.zone.trim(),
      delegateTo: v.dns.delegateTo.trim(),
      nameservers: v.dns.nameservers.map((s) => s.trim()).filter(Boolean),
    },
    http: { port: v.http.port },
    renewDaysBefore: v.renewDaysBefore,
    useAri: v.useAri,
    export: { ...v.export, dir: v.export.dir.trim() },
    command: v.command,
    commandTimeout: v.commandTimeout,
    webhook: valuesToWebhook<WebhookSettings>(v.webhook) as AcmeCertificateInput['webhook'],
  };
}

/** The rules between the names and the challenge (the server's `validate` applies them too). */
export function nameProblems(names: readonly string[], challenge: AcmeChallengeType): Failure[] {
  const out: Failure[] = [];
  if (names.length === 0) return [{ field: 'names', code: 'namesRequired', params: {} }];
  const seen = new Set<string>();
  names.forEach((name, i) => {
    if (!isAcmeName(name)) out.push({ field: `names.${i}`, code: 'domainInvalid', params: { name } });
    else if (seen.has(name)) out.push({ field: `names.${i}`, code: 'domainDuplicate', params: { name } });
    seen.add(name);
  });
  if (out.length > 0) return out;
  // On the name at fault, as the server answers (its box shows it; the dialog offers DNS-01).
  names.forEach((name, i) => {
    if (name.startsWith('*.') && challenge !== 'dns-01')
      out.push({ field: `names.${i}`, code: 'wildcardNeedsDns', params: { name } });
    if (isIp(name) && challenge !== 'http-01') out.push({ field: `names.${i}`, code: 'ipNeedsHttp', params: { name } });
  });
  return out;
}

/** Every problem the server would name, with the same fields and codes; none = sendable. */
export function checkCert(input: AcmeCertificateInput): Failure[] {
  const out: Failure[] = [];
  const r = acmeCertificateInputSchema.safeParse(input);
  if (!r.success)
    for (const i of r.error.issues) {
      const { field, code, params } = acmeIssues.fromZod(i, acmeCertificateInputSchema);
      out.push({ field, code, params });
    }
  const names = (input.names ?? []).map((n) => n.trim().toLowerCase());
  for (const p of nameProblems(names, input.challenge ?? 'http-01'))
    if (!out.some((o) => o.field === p.field && o.code === p.code)) out.push(p);
  if (input.export?.enabled && !(input.export.dir ?? '').startsWith('/'))
    out.push({ field: 'export.dir', code: 'exportDirInvalid', params: {} });
  return out;
}

/** The form item of an API field: a list entry (`names.2`) belongs to its list's box. */
export function formFieldOf(field: string): (string | number)[] {
  if (field === '') return [];
  const out: string[] = [];
  for (const part of field.split('.')) {
    if (/^\d+$/.test(part)) break;
    out.push(part);
  }
  return out;
}
