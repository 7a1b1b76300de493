// Calls of the ACME module (docs/API.md, "ACME"), answered with the views of the shared module.
// Calls that change something are `silent`: their failures carry a field and a code that the
// screen translates itself (errors.ts) and puts on the right form item.
import type {
  AcmeAccountInput,
  AcmeAccountResponse,
  AcmeCertificateInput,
  AcmeCertificateResponse,
  AcmeListResponse,
  AcmeLogsResponse,
  AcmeRevokeReason,
  AcmeSettings,
  WebhookSettings,
  WebhookTestResponse,
} from '@lucky/shared';
import { del, get, post, put } from '../../api/client';

const BASE = 'api/acme';
const at = (list: 'accounts' | 'certificates', key: string) => `${BASE}/${list}/${encodeURIComponent(key)}`;

export const acmeKeys = {
  all: ['acme'] as const,
  list: ['acme', 'list'] as const,
  logs: ['acme', 'logs'] as const,
};

/** The whole screen: switch, settings, accounts, certificates with their state, DNS providers. */
export const fetchAcme = (signal?: AbortSignal) => get<AcmeListResponse>(BASE, { signal });

/** The module switch (the core's call for every module): off, nothing is ordered or renewed. */
export const setModuleEnabled = (enabled: boolean) =>
  put<{ ret: 0 }>('api/modules/acme/enabled', { enabled }, { silent: true });

export const saveSettings = (patch: Partial<AcmeSettings>) =>
  put<{ ret: 0 }>(`${BASE}/settings`, patch, { silent: true });

export const addAccount = (a: AcmeAccountInput) => post<AcmeAccountResponse>(`${BASE}/accounts`, a, { silent: true });
export const updateAccount = (key: string, a: AcmeAccountInput) =>
  put<AcmeAccountResponse>(at('accounts', key), a, { silent: true });
export const deleteAccount = (key: string) => del(at('accounts', key), { silent: true });

export const addCertificate = (c: AcmeCertificateInput) =>
  post<AcmeCertificateResponse>(`${BASE}/certificates`, c, { silent: true });
export const updateCertificate = (key: string, c: AcmeCertificateInput) =>
  put<AcmeCertificateResponse>(at('certificates', key), c, { silent: true });
export const enableCertificate = (key: string, enabled: boolean) =>
  put<AcmeCertificateResponse>(`${at('certificates', key)}/enable`, { enabled }, { silent: true });
export const deleteCertificate = (key: string) => del(at('certificates', key), { silent: true });

/** Issue now (or renew now): answers at once; the certificate's state shows the order's progress. */
export const issueCertificate = (key: string) =>
  post<AcmeCertificateResponse>(`${at('certificates', key)}/issue`, { force: true }, { silent: true });
export const revokeCertificate = (key: string, reason: AcmeRevokeReason) =>
  post<AcmeCertificateResponse>(`${at('certificates', key)}/revoke`, { reason }, { silent: true });

/** One webhook call with demo data; waits up to the webhook's own time-out, so the client waits longer. */
export const testWebhook = (webhook: WebhookSettings, key = '') =>
  post<WebhookTestResponse>(
    `${BASE}/webhook/test`,
    { webhook, key },
    { silent: true, timeoutMs: ((webhook.timeout || 20) + 10) * 1000 },
  );

export const fetchLogs = (q: { page: number; pageSize: number }, signal?: AbortSignal) =>
  get<AcmeLogsResponse>(`${BASE}/logs`, { query: { ...q, order: 'newest' }, signal });
export const clearLogs = () => del(`${BASE}/logs`, { silent: true });
