// Server state of the screen: the whole list (polled at the chosen interval, every second and a
// half while an order runs so its steps show) and the actions on it, each refreshing the list.
import type { AcmeCertificateView, AcmeListResponse, AcmeRevokeReason } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { makeAttempt } from '../../hooks/listActions';
import {
  acmeKeys,
  clearLogs,
  deleteAccount,
  deleteCertificate,
  enableCertificate,
  fetchAcme,
  issueCertificate,
  revokeCertificate,
  setModuleEnabled,
} from './api';
import { errorText } from './errors';
import { isRunning } from './format';

/** While an order runs. */
export const ORDER_POLL_MS = 1500;

/** How often the list is fetched: the chosen interval, or quicker while an order runs. */
export function pollInterval(data: AcmeListResponse | undefined, intervalMs: number): number {
  return data?.certificates.some((c) => isRunning(c.status.state)) ? Math.min(ORDER_POLL_MS, intervalMs) : intervalMs;
}

export function useAcmeList(intervalMs: number) {
  return useQuery({
    queryKey: acmeKeys.list,
    queryFn: ({ signal }) => fetchAcme(signal),
    refetchInterval: (q) => pollInterval(q.state.data, intervalMs),
    refetchIntervalInBackground: false,
  });
}

/** Puts a certificate the server just answered into the cached list, so a switch does not flicker back. */
function patchCert(list: AcmeListResponse | undefined, cert: AcmeCertificateView): AcmeListResponse | undefined {
  if (!list) return list;
  const found = list.certificates.some((c) => c.key === cert.key);
  return {
    ...list,
    certificates: found ? list.certificates.map((c) => (c.key === cert.key ? cert : c)) : [...list.certificates, cert],
  };
}

export function useAcmeActions() {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();

  return useMemo(() => {
    const refresh = () => qc.invalidateQueries({ queryKey: acmeKeys.list });
    const attempt = makeAttempt(message, (err) => errorText(err, t), refresh);
    // Tolerant of an answer without the certificate: the refresh after it brings the state anyway.
    const patch = (cert: AcmeCertificateView | undefined) => {
      if (cert) qc.setQueryData<AcmeListResponse>(acmeKeys.list, (old) => patchCert(old, cert));
    };
    return {
      refresh,
      patch,
      setServiceEnabled: (enabled: boolean) =>
        attempt(
          () => setModuleEnabled(enabled),
          () => void message.success(t(enabled ? 'acme.ui_switchedOn' : 'acme.ui_switchedOff')),
        ),
      setCertEnabled: (cert: AcmeCertificateView, enabled: boolean) =>
        attempt(
          () => enableCertificate(cert.key, enabled),
          (r) => patch(r.certificate),
        ),
      issueNow: (cert: AcmeCertificateView) =>
        attempt(
          () => issueCertificate(cert.key),
          (r) => {
            patch(r.certificate);
            void message.success(t('acme.cert_issueStarted', { name: cert.name }));
          },
        ),
      revoke: (cert: AcmeCertificateView, reason: AcmeRevokeReason) =>
        attempt(
          () => revokeCertificate(cert.key, reason),
          (r) => {
            patch(r.certificate);
            void message.success(t('acme.cert_revoked', { name: cert.name }));
          },
        ),
      removeCert: (key: string) =>
        attempt(
          () => deleteCertificate(key),
          () => void message.success(t('acme.cert_deleted')),
        ),
      removeAccount: (key: string) =>
        attempt(
          () => deleteAccount(key),
          () => void message.success(t('acme.account_deleted')),
        ),
      clearLogs: () =>
        attempt(
          () => clearLogs(),
          () => void message.success(t('acme.ui_logsCleared')),
        ),
    };
  }, [qc, message, t]);
}
