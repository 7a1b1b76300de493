// Account name and password. Changing either needs the current password; while
// the first-start password is in use a new one is required (product brief).
import { KeyOutlined } from '@ant-design/icons';
import type { BaseConfigurePut, BaseConfigureView } from '@lucky/shared';
import { Alert, App, Button, Card, Form, Input } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { setItem } from '../../api/storage';
import { useFormErrors } from '../../hooks/useFormErrors';
import { useSaveBaseConfigure } from './useBaseConfigure';
import { newPasswordRule, settingRule } from './validators';

interface AccountFields {
  adminAccount: string;
  currentPassword?: string;
  newPassword?: string;
  repeatPassword?: string;
}

export function AccountCard({ config }: { config: BaseConfigureView }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<AccountFields>();
  const save = useSaveBaseConfigure();
  const [saving, setSaving] = useState(false);
  const errors = useFormErrors(form, { ns: 'set' });
  const mustChange = config.passwordIsDefault;

  useEffect(() => {
    form.setFieldsValue({ adminAccount: config.adminAccount });
  }, [config.adminAccount, form]);

  const onFinish = async (v: AccountFields) => {
    const body: BaseConfigurePut = { currentPassword: v.currentPassword };
    const account = v.adminAccount.trim();
    if (account !== config.adminAccount) body.adminAccount = account;
    if (v.newPassword) body.newPassword = v.newPassword;
    if (body.adminAccount === undefined && body.newPassword === undefined) {
      message.info(t('set.noChanges'));
      return;
    }
    setSaving(true);
    try {
      const reply = await save(body, { silent: true });
      errors.clear();
      // Should the server rotate this session's token, keep the new one.
      if (typeof reply.token === 'string' && reply.token) setItem('token', reply.token);
      message.success(body.newPassword ? t('set.passwordChanged') : t('set.saved'));
      form.resetFields(['currentPassword', 'newPassword', 'repeatPassword']);
    } catch (err) {
      errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      title={t('set.accountTitle')}
      data-testid="account-settings"
      className={mustChange ? 'set-account-required' : undefined}
    >
      {mustChange && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('set.defaultPasswordTitle')}
          description={t('set.defaultPasswordPrompt')}
          data-testid="default-password-prompt"
        />
      )}
      <Form<AccountFields>
        form={form}
        layout="horizontal"
        labelCol={{ flex: '220px' }}
        labelWrap
        colon={false}
        onFinish={onFinish}
        onValuesChange={errors.onValuesChange}
        autoComplete="off"
      >
        <Form.Item
          name="adminAccount"
          label={t('set.adminAccount')}
          rules={[
            { required: true, whitespace: true, message: t('login.accountRequired') },
            settingRule('adminAccount', t('set.accountInvalid')),
          ]}
        >
          <Input autoComplete="username" style={{ maxWidth: 320 }} />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label={t('set.newPassword')}
          extra={t('set.newPasswordHelp')}
          rules={[
            { required: mustChange, message: t('set.newPasswordRequired') },
            newPasswordRule(t('set.passwordTooShort', { min: 6 })),
          ]}
        >
          <Input.Password autoComplete="new-password" style={{ maxWidth: 320 }} />
        </Form.Item>
        <Form.Item
          name="repeatPassword"
          label={t('set.repeatPassword')}
          dependencies={['newPassword']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_, v) =>
                (v ?? '') === (getFieldValue('newPassword') ?? '')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('set.passwordMismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" style={{ maxWidth: 320 }} />
        </Form.Item>
        <Form.Item
          name="currentPassword"
          label={t('set.currentPassword')}
          extra={t('set.currentPasswordHelp')}
          dependencies={['newPassword', 'adminAccount']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_, v) => {
                const changing =
                  Boolean(getFieldValue('newPassword')) ||
                  (getFieldValue('adminAccount') ?? '').trim() !== config.adminAccount;
                return changing && !v ? Promise.reject(new Error(t('set.currentPasswordRequired'))) : Promise.resolve();
              },
            }),
          ]}
        >
          <Input.Password autoComplete="current-password" style={{ maxWidth: 320 }} />
        </Form.Item>
        <Form.Item label=" ">
          <Button type="primary" htmlType="submit" icon={<KeyOutlined />} loading={saving} data-testid="account-save">
            {t('set.changeAccount')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
