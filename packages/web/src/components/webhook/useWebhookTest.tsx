// Runs a webhook test call and shows its answer (status, what it came to in the UI language, the
// first bytes of the body). A refused call (the form's webhook is not callable) is worded in the
// module's namespace `ns`, then the webhook's (i18n/coded.ts).
import type { WebhookTestResponse } from '@lucky/shared';
import { Modal, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureOf } from '../../api/callErrors';
import { ApiError } from '../../api/client';
import { failureText } from '../../hooks/useFormErrors';
import { codedTextWithCauses } from '../../i18n/coded';
import './webhook.css';

export function useWebhookTest(ns: string): {
  testing: boolean;
  run: (call: () => Promise<WebhookTestResponse>) => Promise<void>;
  resultModal: ReactNode;
} {
  const { t } = useTranslation();
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; status?: number; msg: string; response: string } | null>(null);

  const run = async (call: () => Promise<WebhookTestResponse>) => {
    setTesting(true);
    try {
      const r = await call();
      setResult({ ok: r.ok, status: r.status, msg: codedTextWithCauses(ns, 'reason', r.reason), response: r.response });
    } catch (err) {
      // The session ended or the call was cancelled: the request client has said so.
      if (err instanceof ApiError && (err.kind === 'session' || err.kind === 'aborted')) return;
      const failure = failureOf(err);
      const msg = failure ? failureText(t, ns, failure) : err instanceof Error ? err.message : String(err);
      setResult({ ok: false, msg, response: '' });
    } finally {
      setTesting(false);
    }
  };

  const resultModal = (
    <Modal
      open={result !== null}
      title={result?.ok ? t('webhook.testOk') : t('webhook.testFailed')}
      onCancel={() => setResult(null)}
      onOk={() => setResult(null)}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText={t('common.ok')}
      data-testid="webhook-result"
    >
      {result && (
        <div>
          {result.status !== undefined && (
            <div>
              <Typography.Text type="secondary">{t('webhook.httpStatus')}: </Typography.Text>
              <span className="mono">{result.status}</span>
            </div>
          )}
          <div>
            <Typography.Text type={result.ok ? 'success' : 'danger'}>{result.msg}</Typography.Text>
          </div>
          {result.response && <pre className="webhook-response mono">{result.response}</pre>}
        </div>
      )}
    </Modal>
  );
  return { testing, run, resultModal };
}
