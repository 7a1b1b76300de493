// API tokens for automation: the token text is shown once, right after creation. Making one needs
// the current password (a token outlives the session that makes it); each shows its last use.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Popconfirm, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { del, get, post } from '../../api/client';
import { CopyButton } from '../../components/CopyButton';
import { useFormErrors } from '../../hooks/useFormErrors';
import { formatTime } from './time';

interface ApiToken {
  id: string;
  name: string;
  createdAt: string | number;
  lastUsedAt?: string | number | null;
  /** Client address of the last use. */
  lastUsedIp?: string | null;
}

interface CreateFields {
  name: string;
  currentPassword: string;
}

const KEY = ['apitokens'];

export function ApiTokensTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CreateFields>();
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors(form, { ns: 'safe' });
  const tokens = useQuery({
    queryKey: KEY,
    queryFn: async ({ signal }) =>
      (await get<{ ret: number; list?: ApiToken[] }>('api/apitokens', { signal })).list ?? [],
  });

  const create = async ({ name, currentPassword }: CreateFields) => {
    setBusy(true);
    try {
      const r = await post<{ ret: number; id: string; token: string }>(
        'api/apitokens',
        { name: name.trim(), currentPassword },
        { silent: true },
      );
      errors.clear();
      setCreated({ name: name.trim(), token: r.token });
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey: KEY });
    } catch (err) {
      errors.show(err);
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (id: string) => {
    try {
      await del('api/apitokens', { query: { id } });
      message.success(t('safe.tokenRevoked'));
      await queryClient.invalidateQueries({ queryKey: KEY });
    } catch {
      // shown by the client
    }
  };

  return (
    <Card title={t('safe.tokensTitle')}>
      <Typography.Paragraph type="secondary">{t('safe.tokensHelp')}</Typography.Paragraph>
      {created && (
        <Alert
          type="success"
          showIcon
          closable={{ onClose: () => setCreated(null) }}
          style={{ marginBottom: 12 }}
          title={t('safe.tokenCreated', { name: created.name })}
          description={
            <Space orientation="vertical" style={{ width: '100%' }} data-testid="new-token">
              <Typography.Text type="warning">{t('safe.tokenShownOnce')}</Typography.Text>
              <Space.Compact style={{ width: '100%', maxWidth: 640 }}>
                <Input readOnly value={created.token} className="mono" />
                <CopyButton text={created.token} />
              </Space.Compact>
            </Space>
          }
        />
      )}
      <Form
        form={form}
        layout="inline"
        onFinish={create}
        onValuesChange={errors.onValuesChange}
        style={{ marginBottom: 12 }}
      >
        <Form.Item
          name="name"
          rules={[
            { required: true, whitespace: true, message: t('safe.tokenNameRequired') },
            { max: 64, message: t('safe.tokenNameTooLong', { max: 64 }) },
          ]}
        >
          <Input placeholder={t('safe.tokenName')} style={{ width: 240 }} />
        </Form.Item>
        <Form.Item name="currentPassword" rules={[{ required: true, message: t('safe.tokenPasswordRequired') }]}>
          <Input.Password
            placeholder={t('safe.tokenPassword')}
            autoComplete="current-password"
            style={{ width: 220 }}
            data-testid="token-password"
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={busy}>
            {t('safe.createToken')}
          </Button>
        </Form.Item>
      </Form>
      <Table<ApiToken>
        rowKey="id"
        loading={tokens.isPending}
        dataSource={tokens.data}
        pagination={false}
        scroll={{ x: 640 }}
        columns={[
          { title: t('safe.tokenName'), dataIndex: 'name' },
          { title: t('safe.createdAt'), dataIndex: 'createdAt', render: formatTime },
          {
            title: t('safe.lastUsedAt'),
            dataIndex: 'lastUsedAt',
            render: (v, tok) =>
              v ? (
                <span>
                  {formatTime(v)}
                  {tok.lastUsedIp && <Typography.Text type="secondary">{` · ${tok.lastUsedIp}`}</Typography.Text>}
                </span>
              ) : (
                t('safe.neverUsed')
              ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 120,
            render: (_, tok) => (
              <Popconfirm
                title={t('safe.revokeTokenConfirm')}
                okText={t('common.confirm')}
                cancelText={t('common.cancel')}
                onConfirm={() => revoke(tok.id)}
              >
                <Button danger size="small">
                  {t('safe.revoke')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
}
