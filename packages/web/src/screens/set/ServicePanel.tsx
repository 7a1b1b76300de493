// System service (systemd unit `lucky.service`): status and the install /
// start / stop actions. Where systemd is not running the status says so quietly (a grey note, the
// actions disabled); a refused action shows its reason inline.
import { Alert, App, Button, Space, Tag, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, put } from '../../api/client';

export type ServiceOption = 'status' | 'install' | 'uninstall' | 'start' | 'stop' | 'restart';

const ACTIONS: ServiceOption[] = ['install', 'uninstall', 'start', 'stop', 'restart'];
/** Actions that stop or replace the running program: ask first. */
const CONFIRM: ServiceOption[] = ['uninstall', 'stop', 'restart'];

export function ServicePanel({ onRestarting }: { onRestarting: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The status asked on every visit: its failure is a note, not an error.
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState<ServiceOption | null>(null);
  // Read through a ref so a new callback from the parent does not re-run the status query.
  const restarting = useRef(onRestarting);
  restarting.current = onRestarting;

  const run = useCallback(
    async (option: ServiceOption) => {
      setBusy(option);
      setError(null);
      setNote(null);
      try {
        // Silent: the reason (e.g. no systemd, not root) is shown in the panel instead of a toast.
        const r = await put<{ ret: number; status?: unknown }>('api/lucky/service', undefined, {
          query: { option },
          silent: true,
        });
        if (r.status !== undefined && r.status !== null) setStatus(String(r.status));
        if (option !== 'status') message.success(t('set.serviceDone'));
        if (option === 'restart') restarting.current();
      } catch (err) {
        const text = err instanceof ApiError ? err.message : String(err);
        if (option === 'status') setNote(text);
        else setError(text);
      } finally {
        setBusy(null);
      }
    },
    [message, t],
  );

  useEffect(() => {
    void run('status');
  }, [run]);

  const ask = (option: ServiceOption) => {
    if (!CONFIRM.includes(option)) {
      void run(option);
      return;
    }
    modal.confirm({
      title: t(`set.service_${option}`),
      content: t(`set.serviceConfirm_${option}`),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onOk: () => run(option),
    });
  };

  const unsupported = status === 'unsupported';
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="service-panel">
      <Space wrap>
        <Typography.Text>{t('set.serviceStatus')}</Typography.Text>
        <Tag color={status === 'active' || status === 'running' ? 'green' : 'default'} data-testid="service-state">
          {status === null ? '-' : t(`set.serviceState_${status}`, { defaultValue: status })}
        </Tag>
        <Button onClick={() => void run('status')} loading={busy === 'status'}>
          {t('common.refresh')}
        </Button>
      </Space>
      <Space wrap>
        {ACTIONS.map((o) => (
          <Button
            key={o}
            onClick={() => ask(o)}
            loading={busy === o}
            disabled={unsupported}
            danger={o === 'uninstall' || o === 'stop'}
          >
            {t(`set.service_${o}`)}
          </Button>
        ))}
      </Space>
      {unsupported && (
        <Typography.Text type="secondary" data-testid="service-unsupported">
          {t('set.serviceUnsupported')}
        </Typography.Text>
      )}
      {note && (
        <Typography.Text type="secondary" data-testid="service-note">
          {note}
        </Typography.Text>
      )}
      {error && <Alert type="error" showIcon title={error} data-testid="service-error" />}
    </Space>
  );
}
