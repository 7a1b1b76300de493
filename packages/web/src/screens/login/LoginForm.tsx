// Account + password (+ 2FA code when enabled). Enter submits; a full 6-digit
// code submits on its own.
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { BACKEND_ERROR_DISPLAY_MS } from '@lucky/shared';
import { App, Button, Checkbox, Form, Input, type InputRef } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getItem, removeItem, setItems } from '../../api/storage';
import { ForgotPassword } from './ForgotPassword';
import { fetchTwoFAStatus, login } from './loginApi';

interface LoginFields {
  account: string;
  password: string;
  code?: string;
  remember: boolean;
}

export interface LoginFormProps {
  onSuccess: (token: string) => void;
}

const CODE_PATTERN = /^\d{6}$/;

export function LoginForm({ onSuccess }: LoginFormProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<LoginFields>();
  const [needCode, setNeedCode] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const codeRef = useRef<InputRef>(null);
  const remembered = getItem('rememberAccount') === true;

  useEffect(() => {
    let alive = true;
    void fetchTwoFAStatus().then((on) => {
      if (alive && on) setNeedCode(true);
    });
    return () => {
      alive = false;
    };
  }, []);

  const submit = async (values: LoginFields) => {
    if (submitting) return;
    setSubmitting(true);
    try {
      const code = values.code?.trim();
      const outcome = await login({
        Account: values.account.trim(),
        Password: values.password,
        ...(needCode && code ? { TwoFACode: code } : {}),
      });
      if (outcome.ok) {
        if (values.remember) setItems({ rememberAccount: true, loginAccount: values.account.trim() });
        else {
          removeItem('rememberAccount');
          removeItem('loginAccount');
        }
        // Errors left from the failed attempts or the expired session no longer apply.
        message.destroy();
        message.success(t('login.success'));
        onSuccess(outcome.token);
        return;
      }
      if (outcome.needCode) {
        setNeedCode(true);
        form.setFieldValue('code', '');
        setTimeout(() => codeRef.current?.focus(), 0);
      }
      const text = outcome.msg || t('login.failed');
      const suffix = outcome.retryAfter ? ` ${t('login.retryAfter', { seconds: outcome.retryAfter })}` : '';
      // Server messages stay for two minutes, like every backend error (spec §8).
      message.error({ content: `${text}${suffix}`, key: 'login-error', duration: BACKEND_ERROR_DISPLAY_MS / 1000 });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form<LoginFields>
      form={form}
      layout="vertical"
      size="middle"
      onFinish={submit}
      requiredMark={false}
      initialValues={{ account: remembered ? (getItem('loginAccount') ?? '') : '', password: '', remember: remembered }}
      data-testid="login-form"
    >
      <Form.Item
        name="account"
        label={t('login.account')}
        rules={[{ required: true, whitespace: true, message: t('login.accountRequired') }]}
      >
        <Input
          prefix={<UserOutlined />}
          autoComplete="username"
          autoFocus
          placeholder={t('login.accountPlaceholder')}
        />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('login.password')}
        rules={[{ required: true, message: t('login.passwordRequired') }]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          autoComplete="current-password"
          placeholder={t('login.passwordPlaceholder')}
        />
      </Form.Item>
      {needCode && (
        <Form.Item
          name="code"
          label={t('login.twoFACode')}
          rules={[
            { required: true, message: t('login.twoFACodeRequired') },
            { pattern: /^\d{6}$|^[A-Za-z0-9-]{8,}$/, message: t('login.twoFACodeInvalid') },
          ]}
          extra={t('login.twoFACodeHelp')}
        >
          <Input
            ref={codeRef}
            prefix={<SafetyOutlined />}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={32}
            placeholder="000000"
            data-testid="twofa-code"
            onChange={(e) => {
              // A full authenticator code submits by itself (recovery codes are longer and need Enter).
              if (CODE_PATTERN.test(e.target.value.trim())) setTimeout(() => form.submit(), 0);
            }}
          />
        </Form.Item>
      )}
      <div className="login-options">
        <Form.Item name="remember" valuePropName="checked" noStyle>
          <Checkbox>{t('login.rememberAccount')}</Checkbox>
        </Form.Item>
        <ForgotPassword />
      </div>
      <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
        {t('login.submit')}
      </Button>
    </Form>
  );
}
