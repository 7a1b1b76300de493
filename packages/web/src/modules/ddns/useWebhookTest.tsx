// Runs a webhook test call and shows its answer (status, message, the first bytes of the body).
import type { DdnsWebhookTestResponse } from '@lucky/shared';
import { Modal, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from './errors';
import { ddnsReasonText } from './reasons';

export function useWebhookTest(): {
  testing: boolean;
  run: (call: () => Promise<DdnsWebhookTestResponse>) => Promise<void>;
  resultModal: ReactNode;
} {
  const { t } = useTranslation();
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; status?: number; msg: string; response: string } | null>(null);

  const run = async (call: () => Promise<DdnsWebhookTestResponse>) => {
    setTesting(true);
    try {
      const r = await call();
      setResult({ ok: r.ok, status: r.status, msg: ddnsReasonText(r.reason), response: r.response });
    } catch (err) {
      const text = errorText(err, t);
      if (text) setResult({ ok: false, msg: text, response: '' });
    } finally {
      setTesting(false);
    }
  };

  const resultModal = (
    <Modal
      open={result !== null}
      title={result?.ok ? t('ddns.webhookTestOk') : t('ddns.webhookTestFailed')}
      onCancel={() => setResult(null)}
      onOk={() => setResult(null)}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText={t('common.ok')}
      data-testid="ddns-webhook-result"
    >
      {result && (
        <div className="ddns-webhook-result">
          {result.status !== undefined && (
            <div>
              <Typography.Text type="secondary">{t('ddns.httpStatus')}: </Typography.Text>
              <span className="mono">{result.status}</span>
            </div>
          )}
          <div>
            <Typography.Text type={result.ok ? 'success' : 'danger'}>{result.msg}</Typography.Text>
          </div>
          {result.response && <pre className="ddns-webhook-response mono">{result.response}</pre>}
        </div>
      )}
    </Modal>
  );
  return { testing, run, resultModal };
}
