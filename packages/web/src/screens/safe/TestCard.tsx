// "Would this address get in?": an address and a scope go to the server's own decision
// (POST /api/safe/test), and the answer is put in words: allowed or refused, by which rule, and
// the list entry or ban that decided.
import { isIp, SAFE_SCOPES, type SafeScope, type SafeTestResponse } from '@lucky/shared';
import { Alert, Button, Card, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDisplayTimeZone } from '../../components/time';
import { useFormErrors } from '../../hooks/useFormErrors';
import { scopeName } from './AllowModeCard';
import { testAddress } from './safeApi';
import { formatTime } from './time';

interface TestValues {
  ip: string;
  scope: SafeScope;
}

type T = (key: string, vars?: Record<string, unknown>) => string;

/** Why the decision fell as it did, in a sentence (the entry or ban that decided, when there is one). */
export function testReason(t: T, r: SafeTestResponse, scope: SafeScope): string {
  const vars: Record<string, unknown> = { scope: scopeName(t, scope) };
  if (r.entry) {
    vars.value = r.entry.value;
    vars.comment = r.entry.comment;
  }
  if (r.ban) {
    vars.until = formatTime(r.ban.until);
    vars.failures = r.ban.failures;
  }
  const why = t(`safe.test_why_${r.rule}`, vars);
  return r.entry?.comment ? `${why} ${t('safe.test_entryComment', { comment: r.entry.comment })}` : why;
}

export function TestCard({ you }: { you: string }) {
  const { t } = useTranslation();
  useDisplayTimeZone();
  const [form] = Form.useForm<TestValues>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ r: SafeTestResponse; ip: string; scope: SafeScope }>();
  const errors = useFormErrors(form, { ns: 'safe' });

  const run = async (v: TestValues) => {
    setBusy(true);
    setResult(undefined);
    try {
      const ip = v.ip.trim();
      const r = await testAddress(ip, v.scope);
      errors.clear();
      setResult({ r, ip, scope: v.scope });
    } catch (err) {
      errors.show(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('safe.test_title')} data-testid="safe-test-card">
      <Form<TestValues>
        form={form}
        layout="inline"
        className="safe-test-form"
        initialValues={{ ip: you, scope: 'admin' }}
        onFinish={run}
        onValuesChange={(c) => {
          errors.onValuesChange(c);
          setResult(undefined);
        }}
      >
        <Form.Item
          name="ip"
          label={t('safe.test_ip')}
          rules={[
            {
              validator: (_, v: string | undefined) =>
                isIp((v ?? '').trim()) ? Promise.resolve() : Promise.reject(new Error(t('safe.err_ipInvalid'))),
            },
          ]}
        >
          <Input className="mono" placeholder="203.0.113.7" style={{ width: 220 }} data-testid="safe-test-ip" />
        </Form.Item>
        <Form.Item name="scope" label={t('safe.test_scope')}>
          <Select
            style={{ width: 200 }}
            options={SAFE_SCOPES.map((s) => ({ value: s, label: scopeName(t, s) }))}
            data-testid="safe-test-scope"
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="safe-test-run">
            {t('safe.test_run')}
          </Button>
        </Form.Item>
      </Form>
      {result && (
        <Alert
          style={{ marginTop: 16 }}
          type={result.r.allowed ? 'success' : 'error'}
          showIcon
          title={t(result.r.allowed ? 'safe.test_allowed' : 'safe.test_refused', {
            ip: result.ip,
            scope: scopeName(t, result.scope),
            rule: t(`safe.test_rule_${result.r.rule}`),
          })}
          description={testReason(t, result.r, result.scope)}
          data-testid="safe-test-result"
        />
      )}
    </Card>
  );
}
