// Access from outside the LAN and the proxies whose client-address headers are believed.
import type { BaseConfigureView } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Skeleton, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { get, put } from '../../api/client';
import { TrustedProxiesInput, trustedProxiesRule } from '../../components/TrustedProxiesInput';
import { useFormErrors } from '../../hooks/useFormErrors';

interface AccessFields {
  allowInternetAccess: boolean;
  trustedProxies: string[];
}

// Same cache entry as the settings screen, so both show the same values.
const KEY = ['baseconfigure'];

export function AccessTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AccessFields>();
  const [saving, setSaving] = useState(false);
  const errors = useFormErrors(form, { ns: 'safe' });
  const config = useQuery({
    queryKey: KEY,
    queryFn: async ({ signal }) =>
      (await get<{ ret: number; baseconfigure: BaseConfigureView }>('api/baseconfigure', { signal })).baseconfigure,
  });
  const allow = Form.useWatch('allowInternetAccess', form);

  useEffect(() => {
    if (config.data) {
      form.setFieldsValue({
        allowInternetAccess: config.data.allowInternetAccess,
        trustedProxies: config.data.trustedProxies,
      });
    }
  }, [config.data, form]);

  const save = async (v: AccessFields) => {
    setSaving(true);
    try {
      await put(
        'api/baseconfigure',
        { allowInternetAccess: v.allowInternetAccess, trustedProxies: v.trustedProxies },
        { silent: true },
      );
      errors.clear();
      message.success(t('set.saved'));
      await queryClient.invalidateQueries({ queryKey: KEY });
    } catch (err) {
      errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  if (config.isPending) return <Skeleton active />;
  return (
    <Card title={t('safe.accessTitle')}>
      <Form<AccessFields>
        form={form}
        layout="vertical"
        onFinish={save}
        onValuesChange={errors.onValuesChange}
        style={{ maxWidth: 640 }}
      >
        <Form.Item
          name="allowInternetAccess"
          label={t('set.allowInternetAccess')}
          extra={t('set.allowInternetAccessHelp')}
          valuePropName="checked"
        >
          <Switch data-testid="internet-access-switch" />
        </Form.Item>
        {allow && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('safe.internetWarning')} />}
        <Form.Item
          name="trustedProxies"
          label={t('set.trustedProxies')}
          extra={t('set.trustedProxiesHelp')}
          rules={[trustedProxiesRule(t)]}
        >
          <TrustedProxiesInput />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('common.save')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
