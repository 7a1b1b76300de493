// Two-factor login (TOTP): set-up with a QR code, confirmation with a code,
// recovery codes shown once; turning it off needs the password. A refused code
// or password is shown beside its field, and goes when the next try succeeds.
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, QRCode, Space, Steps, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { get, post } from '../../api/client';
import { queryKeys, useModules } from '../../app/queries';
import { CopyButton } from '../../components/CopyButton';
import { useFormErrors } from '../../hooks/useFormErrors';

type Flow = { step: 'idle' } | { step: 'scan'; secret: string; uri: string } | { step: 'codes'; codes: string[] };

export function TwoFATab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const modules = useModules(true);
  const enabled = modules.data?.user?.twoFAEnable === true;
  const [flow, setFlow] = useState<Flow>({ step: 'idle' });
  const [busy, setBusy] = useState(false);
  const [enableForm] = Form.useForm<{ code: string }>();
  const [disableForm] = Form.useForm<{ password: string }>();
  const enableErrors = useFormErrors(enableForm, { ns: 'safe' });
  const disableErrors = useFormErrors(disableForm, { ns: 'safe' });

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.modules });

  const start = async () => {
    setBusy(true);
    try {
      const r = await get<{ ret: number; secret: string; uri: string }>('api/twofapassword');
      setFlow({ step: 'scan', secret: r.secret, uri: r.uri });
    } catch {
      // shown by the client
    } finally {
      setBusy(false);
    }
  };

  const confirm = async ({ code }: { code: string }) => {
    setBusy(true);
    try {
      const r = await post<{ ret: number; recoveryCodes?: string[] }>(
        'api/twofa/enable',
        { code: code.trim() },
        { silent: true },
      );
      enableErrors.clear();
      message.success(t('safe.twoFAEnabled'));
      setFlow({ step: 'codes', codes: r.recoveryCodes ?? [] });
      await refresh();
    } catch (err) {
      enableErrors.show(err);
    } finally {
      setBusy(false);
    }
  };

  const disable = async ({ password }: { password: string }) => {
    setBusy(true);
    try {
      await post('api/twofa/disable', { password }, { silent: true });
      disableErrors.clear();
      disableForm.resetFields();
      message.success(t('safe.twoFADisabled'));
      setFlow({ step: 'idle' });
      await refresh();
    } catch (err) {
      disableErrors.show(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      title={
        <Space>
          {t('safe.twoFATitle')}
          <Tag color={enabled ? 'green' : 'default'}>{enabled ? t('common.enabled') : t('common.disabled')}</Tag>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('safe.twoFAHelp')}</Typography.Paragraph>

      {flow.step === 'codes' && (
        <Alert
          type="warning"
          showIcon
          title={t('safe.recoveryCodesTitle')}
          description={
            <div data-testid="recovery-codes">
              <Typography.Paragraph>{t('safe.recoveryCodesHelp')}</Typography.Paragraph>
              <pre className="mono safe-codes">{flow.codes.join('\n')}</pre>
              <Space>
                <CopyButton text={flow.codes.join('\n')} label={t('safe.copyCodes')} />
                <Button onClick={() => setFlow({ step: 'idle' })}>{t('safe.codesSaved')}</Button>
              </Space>
            </div>
          }
        />
      )}

      {!enabled && flow.step === 'idle' && (
        <Button type="primary" onClick={start} loading={busy} data-testid="twofa-start">
          {t('safe.enableTwoFA')}
        </Button>
      )}

      {flow.step === 'scan' && (
        <div className="safe-2fa-setup">
          <Steps
            orientation="vertical"
            size="small"
            current={1}
            items={[
              { title: t('safe.stepScan'), content: t('safe.stepScanHelp') },
              { title: t('safe.stepCode'), content: t('safe.stepCodeHelp') },
            ]}
          />
          <Space align="start" wrap size="large">
            {/* Dark modules on white in both themes: not every authenticator app reads an inverted code. */}
            <QRCode value={flow.uri} size={180} bordered color="#000000" bgColor="#ffffff" data-testid="twofa-qr" />
            <div>
              <Typography.Text type="secondary">{t('safe.secretText')}</Typography.Text>
              <Typography.Paragraph copyable={{ text: flow.secret }} className="mono" strong data-testid="twofa-secret">
                {flow.secret}
              </Typography.Paragraph>
              <Form
                form={enableForm}
                layout="inline"
                onFinish={confirm}
                onValuesChange={enableErrors.onValuesChange}
                data-testid="twofa-enable"
              >
                <Form.Item
                  name="code"
                  rules={[{ required: true, pattern: /^\s*\d{6}\s*$/, message: t('login.twoFACodeInvalid') }]}
                >
                  <Input
                    placeholder="000000"
                    inputMode="numeric"
                    maxLength={6}
                    autoComplete="one-time-code"
                    style={{ width: 120 }}
                    data-testid="twofa-enable-code"
                  />
                </Form.Item>
                <Form.Item>
                  <Space>
                    <Button type="primary" htmlType="submit" loading={busy} data-testid="twofa-enable-submit">
                      {t('safe.confirmEnable')}
                    </Button>
                    <Button
                      onClick={() => {
                        enableErrors.clear();
                        setFlow({ step: 'idle' });
                      }}
                    >
                      {t('common.cancel')}
                    </Button>
                  </Space>
                </Form.Item>
              </Form>
            </div>
          </Space>
        </div>
      )}

      {enabled && flow.step !== 'codes' && (
        <Form
          form={disableForm}
          layout="inline"
          onFinish={disable}
          onValuesChange={disableErrors.onValuesChange}
          data-testid="twofa-disable"
        >
          <Form.Item name="password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
            <Input.Password
              placeholder={t('safe.passwordToDisable')}
              autoComplete="current-password"
              style={{ width: 220 }}
            />
          </Form.Item>
          <Form.Item>
            <Button danger htmlType="submit" loading={busy}>
              {t('safe.disableTwoFA')}
            </Button>
          </Form.Item>
        </Form>
      )}
    </Card>
  );
}
