import {
  type AcmeAccount,
  type AcmeAccountResponse,
  type AcmeAccountsResponse,
  type AcmeAccountView,
  type AcmeCertificate,
  type AcmeCertificateResponse,
  type AcmeCertificatesResponse,
  type AcmeCertificateView,
  type AcmeConfig,
  type AcmeIssueCode,
  type AcmeListResponse,
  acmeAccountInputSchema,
  acmeCertificateInputSchema,
  acmeIssueBodySchema,
  acmeIssues,
  acmeRevokeBodySchema,
  acmeSettingsPatchSchema,
  acmeWebhook,
  maskSecrets,
  type WebhookTestResponse,
} from '@lucky/shared';
import type { z } from 'zod';
import { createDnsService } from '../../core/dns/index.js';
import type { Routes } from '../../core/http/registry.js';
import { ApiFailure, fieldFailure } from '../../core/http/reply.js';
import { addServiceLogRoutes } from '../../core/logs/logRoutes.js';
import { newKey, serialQueue } from '../../core/modules/keyed.js';
import { addKeyedListRoutes } from '../../core/modules/keyedListRoutes.js';
import type { ModuleApi } from '../../core/modules/types.js';
import { testWebhook } from '../../core/webhook/call.js';
import { maskTemplate, restoreTemplate, restoreWebhook } from '../../core/webhook/secrets.js';
import type { CaKit } from './ca.js';
import { checkAccount, checkCertificate } from './checks.js';
import { acmeWebhookVars } from './deliver.js';
import { AcmeRuntime } from './runtime.js';
import { type CertState, readStates, statusFields } from './state.js';

const STATUS: Partial<Record<AcmeIssueCode, number>> = {
  itemNotFound: 404,
  certificateNotFound: 404,
  busy: 409,
  moduleDisabled: 409,
  accountInUse: 409,
  notIssued: 409,
  revokeFailed: 502,
};

function refuse(field: string | undefined, code: AcmeIssueCode, params: Record<string, unknown> = {}): ApiFailure {
  const msg = acmeIssues.describe(code, params);
  if (field === undefined) return new ApiFailure(STATUS[code] ?? 400, 1, msg, undefined, { code, params });
  return fieldFailure({ field, code, params, msg }, STATUS[code] ?? 400);
}

/** A certificate's body as parsed. */
type CertificateBody = z.infer<typeof acmeCertificateInputSchema>;

const DNS_TXT_PROVIDERS = createDnsService()
  .kinds()
  .filter((k) => k.capabilities.txt)
  .map((k) => k.kind);

/**
 * REST calls of the ACME module (docs/API.md, "ACME"): the full view, accounts and certificates
 * (keyed lists, one change at a time), issue / renew now, revoke, settings, webhook test, log.
 * The account key is made here on the first save and never read back.
 */
export function registerAcmeRoutes(r: Routes, api: ModuleApi<AcmeConfig>, kit: CaKit): void {
  const serial = serialQueue();
  const live = () => {
    const rt = api.runtime();
    return rt instanceof AcmeRuntime ? rt : undefined;
  };
  const findAccount = (c: AcmeConfig, key: string) => {
    const a = c.accounts.find((x) => x.key === key);
    if (!a) throw refuse('key', 'itemNotFound');
    return a;
  };
  const findCert = (c: AcmeConfig, key: string) => {
    const x = c.certificates.find((y) => y.key === key);
    if (!x) throw refuse('key', 'certificateNotFound');
    return x;
  };
  const accountView = (a: AcmeAccount): AcmeAccountView => {
    const { accountKeyPem: _key, ...rest } = maskSecrets(a, ['eab.hmacKey']);
    return { ...rest, registered: a.accountUrl !== '' };
  };
  const certView = (c: AcmeCertificate, states?: Record<string, CertState>): AcmeCertificateView => {
    const m = maskSecrets(c, ['dns.secret', 'webhook.proxy.password']);
    const rt = live();
    // Off: what the state file last said, under the state `disabled` (nothing is renewed).
    const offline = (): AcmeCertificateView['status'] => {
      const { nextRenewalAt: _none, ...last } = statusFields(
        (states ?? readStates(api.configDir))[c.key] ?? { failures: 0 },
      );
      return { ...last, state: 'disabled' };
    };
    return { ...m, webhook: maskTemplate(m.webhook), status: rt ? rt.view(c) : offline() };
  };
  const certViews = (list: AcmeCertificate[]) => {
    const states = live() ? undefined : readStates(api.configDir);
    return list.map((c) => certView(c, states));
  };
  const check = (p: ReturnType<typeof checkAccount>) => {
    if (p) throw fieldFailure(p);
  };

  r.add({
    method: 'GET',
    path: '/api/acme',
    access: 'token',
    summary: 'ACME: the module switch, settings, accounts and certificates with their state (secrets masked)',
    handler: (): AcmeListResponse => {
      const config = api.config();
      return {
        ret: 0,
        enabled: config.enabled,
        settings: { expiryWarnDays: config.expiryWarnDays, httpTimeout: config.httpTimeout },
        accounts: config.accounts.map(accountView),
        certificates: certViews(config.certificates),
        dnsProviders: DNS_TXT_PROVIDERS,
      };
    },
  });

  // ---- accounts ----

  r.add({
    method: 'GET',
    path: '/api/acme/accounts',
    access: 'token',
    summary: 'ACME: the accounts (HMAC keys masked, account keys never)',
    handler: (): AcmeAccountsResponse => ({ ret: 0, list: api.config().accounts.map(accountView) }),
  });

  r.add({
    method: 'POST',
    path: '/api/acme/accounts',
    access: 'token',
    summary: 'ACME: add an account (its key pair is made now; it registers at the CA with its first order)',
    body: acmeAccountInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<AcmeAccountResponse> => {
        const prev = api.config();
        check(checkAccount(input.body, prev));
        const account: AcmeAccount = {
          ...input.body,
          key: newKey(prev.accounts),
          accountKeyPem: await kit.generateKey(input.body.keyType),
          accountUrl: '',
        };
        await api.saveConfig({ ...prev, accounts: [...prev.accounts, account] });
        return { ret: 0, account: accountView(findAccount(api.config(), account.key)) };
      }),
  });

  r.add({
    method: 'PUT',
    path: '/api/acme/accounts/:key',
    access: 'token',
    summary: 'ACME: change an account (another CA, directory or key type makes a new registration)',
    body: acmeAccountInputSchema,
    handler: (_req, _reply, input) =>
      serial(async (): Promise<AcmeAccountResponse> => {
        const prev = api.config();
        const old = findAccount(prev, input.params.key);
        check(checkAccount({ ...input.body, key: old.key }, prev));
        const b = input.body;
        const newKeyType = b.keyType !== old.keyType;
        const elsewhere = newKeyType || b.ca !== old.ca || (b.ca === 'custom' && b.directoryUrl !== old.directoryUrl);
        const account: AcmeAccount = {
          ...b,
          key: old.key,
          accountKeyPem: newKeyType ? await kit.generateKey(b.keyType) : old.accountKeyPem,
          accountUrl: elsewhere ? '' : old.accountUrl,
        };
        await api.saveConfig({ ...prev, accounts: prev.accounts.map((a) => (a.key === old.key ? account : a)) });
        return { ret: 0, account: accountView(findAccount(api.config(), old.key)) };
      }),
  });

  r.add({
    method: 'DELETE',
    path: '/api/acme/accounts/:key',
    access: 'token',
    summary: 'ACME: delete an account (refused while a certificate uses it)',
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const old = findAccount(prev, input.params.key);
        const users = prev.certificates.filter((c) => c.account === old.key).map((c) => c.name);
        if (users.length) throw refuse('key', 'accountInUse', { names: users.join(', ') });
        await api.saveConfig({ ...prev, accounts: prev.accounts.filter((a) => a.key !== old.key) });
        return { ret: 0 };
      }),
  });

  // ---- certificates ----

  r.add({
    method: 'GET',
    path: '/api/acme/certificates',
    access: 'token',
    summary: 'ACME: the certificates with their state (secrets masked)',
    handler: (): AcmeCertificatesResponse => ({ ret: 0, list: certViews(api.config().certificates) }),
  });

  /** A certificate as sent: on an edit, the webhook's masked free text takes its stored parts again. */
  const restored = (body: CertificateBody, old: AcmeCertificate | undefined) =>
    old ? { ...body, webhook: restoreTemplate(body.webhook, old.webhook, 'webhook.') } : body;
  addKeyedListRoutes(r, api, {
    path: '/api/acme/certificates',
    field: 'certificates',
    body: acmeCertificateInputSchema,
    serial,
    notFound: () => refuse('key', 'certificateNotFound'),
    check: (prev, body, old) => check(checkCertificate(old ? { ...restored(body, old), key: old.key } : body, prev)),
    make: (body, key, old): AcmeCertificate => ({ ...restored(body, old), key }),
    view: (c) => certView(c),
    answer: 'certificate',
    summaries: {
      one: 'ACME: one certificate with its state (polled while its order runs)',
      add: 'ACME: add a certificate (ordered at once while the module runs)',
      edit: 'ACME: change a certificate (other names order again)',
      enable: 'ACME: switch a certificate on or off (off: not renewed; its store entry stays)',
      delete: 'ACME: delete a certificate (its running order stops; its store entry goes while the module runs)',
    },
  });

  r.add({
    method: 'POST',
    path: '/api/acme/certificates/:key/issue',
    access: 'token',
    summary: 'ACME: issue or renew now (answers at once; the state shows the order running)',
    body: acmeIssueBodySchema,
    handler: (_req, _reply, input): AcmeCertificateResponse => {
      const cert = findCert(api.config(), input.params.key);
      const rt = live();
      if (!rt) throw refuse(undefined, 'moduleDisabled');
      if (rt.issueNow(cert.key) === 'busy') throw refuse(undefined, 'busy');
      return { ret: 0, certificate: certView(cert) };
    },
  });

  r.add({
    method: 'POST',
    path: '/api/acme/certificates/:key/revoke',
    access: 'token',
    summary: 'ACME: revoke the issued certificate at the CA (state revoked, its store entry removed)',
    body: acmeRevokeBodySchema,
    handler: async (_req, _reply, input): Promise<AcmeCertificateResponse> => {
      const cert = findCert(api.config(), input.params.key);
      const rt = live();
      if (!rt) throw refuse(undefined, 'moduleDisabled');
      if (rt.view(cert).storeKey === undefined) throw refuse(undefined, 'notIssued');
      const failed = await rt.revoke(cert.key, input.body.reason);
      if (failed) throw refuse(undefined, 'revokeFailed', { detail: failed.params?.detail ?? failed.text });
      return { ret: 0, certificate: certView(findCert(api.config(), cert.key)) };
    },
  });

  // ---- settings, webhook test, log ----

  r.add({
    method: 'PUT',
    path: '/api/acme/settings',
    access: 'token',
    summary: 'ACME: change settings (expiry warning days, CA call timeout)',
    body: acmeSettingsPatchSchema,
    handler: (_req, _reply, input) =>
      serial(async () => {
        const prev = api.config();
        const patch = Object.fromEntries(Object.entries(input.body).filter(([, v]) => v !== undefined));
        await api.saveConfig({ ...prev, ...patch });
        const c = api.config();
        return { ret: 0, settings: { expiryWarnDays: c.expiryWarnDays, httpTimeout: c.httpTimeout } };
      }),
  });

  r.add({
    method: 'POST',
    path: '/api/acme/webhook/test',
    access: 'token',
    summary: 'ACME: call a webhook once with demo data and report the answer (works while the module is off)',
    body: acmeWebhook.testBodySchema,
    handler: async (_req, _reply, input): Promise<WebhookTestResponse> => {
      const config = api.config();
      const cert = input.body.key ? findCert(config, input.body.key) : undefined;
      const w = restoreWebhook(input.body.webhook, cert?.webhook);
      const demo = { name: cert?.name ?? 'demo', names: cert?.names ?? ['home.example.com'] };
      return testWebhook(
        w,
        acmeWebhookVars(demo, 'success', new Date(Date.now() + 90 * 86_400_000).toISOString(), ''),
        {},
        cert?.dns.secret ? [cert.dns.secret] : [],
      );
    },
  });

  addServiceLogRoutes(r, {
    path: '/api/acme/logs',
    service: 'ACME',
    holds: 'orders, validations, issues, renewals, failures with their reasons',
    log: () => live()?.log,
  });
}
