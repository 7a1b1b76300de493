// The ftpserver screen: the module switch, the item list with each item's switch, and the
// add / edit dialog. Server refusals land on their field in the user's language.
import {
  type FtpserverItemInput,
  type FtpserverItemResponse,
  type FtpserverItemView,
  type FtpserverListResponse,
  SECRET_MASK,
} from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Popconfirm, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { del, get, post, put } from '../../api/client';
import { useFormErrors } from '../../hooks/useFormErrors';

const BASE = 'api/ftpserver';
const listKey = ['ftpserver', 'items'] as const;

export default function FtpserverScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) => get<FtpserverListResponse>(`${BASE}/items`, { signal }),
  });
  const [editing, setEditing] = useState<FtpserverItemView | 'new' | undefined>();
  const [form] = Form.useForm<FtpserverItemInput>();
  const refresh = () => qc.invalidateQueries({ queryKey: ['ftpserver'] });

  // The one form-error hook: a refusal beside its field in the user's language (ftpserver.err_<code>),
  // anything else as a message; a success clears them.
  const errors = useFormErrors(form, { ns: 'ftpserver' });

  const open = (item: FtpserverItemView | 'new') => {
    setEditing(item);
    form.resetFields();
    if (item !== 'new') form.setFieldsValue(item);
  };
  const save = async () => {
    const values = await form.validateFields();
    try {
      if (editing === 'new') await post<FtpserverItemResponse>(`${BASE}/items`, values, { silent: true });
      else if (editing)
        await put<FtpserverItemResponse>(`${BASE}/items/${encodeURIComponent(editing.key)}`, values, { silent: true });
      errors.clear();
      setEditing(undefined);
      void message.success(t('ftpserver.saved'));
      await refresh();
    } catch (err) {
      errors.show(err);
    }
  };
  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      await refresh();
    } catch {
      // Not silent: the request client has shown the failure in the user's language.
      await refresh();
    }
  };

  const data = list.data;
  return (
    <Card
      title={t('menu.ftpserver')}
      data-testid="ftpserver-screen"
      extra={
        <Space>
          <span>{t('ftpserver.moduleSwitch')}</span>
          <Switch
            data-testid="ftpserver-module-switch"
            checked={data?.enabled ?? false}
            loading={list.isLoading}
            onChange={(on) => act(() => put(`api/modules/ftpserver/enabled`, { enabled: on }))}
          />
          <Button type="primary" data-testid="ftpserver-add" onClick={() => open('new')}>
            {t('ftpserver.add')}
          </Button>
        </Space>
      }
    >
      <Table<FtpserverItemView>
        rowKey="key"
        size="small"
        loading={list.isLoading}
        dataSource={data?.list ?? []}
        locale={{ emptyText: t('ftpserver.empty') }}
        columns={[
          { title: t('ftpserver.name'), dataIndex: 'name' },
          {
            title: t('ftpserver.host'),
            dataIndex: 'host',
            render: (h: string) => h || <Typography.Text type="secondary">—</Typography.Text>,
          },
          {
            title: t('ftpserver.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean, item) => (
              <Switch
                size="small"
                checked={on}
                onChange={(v) => act(() => put(`${BASE}/items/${encodeURIComponent(item.key)}/enable`, { enabled: v }))}
              />
            ),
          },
          {
            title: t('common.actions'),
            render: (_v, item) => (
              <Space>
                <Button size="small" onClick={() => open(item)}>
                  {t('ftpserver.edit')}
                </Button>
                <Popconfirm
                  title={t('ftpserver.deleteConfirm', { name: item.name })}
                  onConfirm={() => act(() => del(`${BASE}/items/${encodeURIComponent(item.key)}`))}
                >
                  <Button size="small" danger>
                    {t('ftpserver.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== undefined}
        title={t(editing === 'new' ? 'ftpserver.add' : 'ftpserver.edit')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        onOk={save}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
      >
        <Form
          form={form}
          layout="vertical"
          onValuesChange={errors.onValuesChange}
          initialValues={{ name: '', host: '', secret: '', enabled: true }}
        >
          <Form.Item
            name="name"
            label={t('ftpserver.name')}
            rules={[{ required: true, message: t('ftpserver.err_nameRequired') }]}
          >
            <Input data-testid="ftpserver-name" maxLength={64} />
          </Form.Item>
          <Form.Item name="host" label={t('ftpserver.host')}>
            <Input data-testid="ftpserver-host" />
          </Form.Item>
          <Form.Item
            name="secret"
            label={t('ftpserver.secret')}
            extra={t('ftpserver.secretHint', { mask: SECRET_MASK })}
          >
            <Input.Password data-testid="ftpserver-secret" autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="enabled" label={t('ftpserver.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
