// The storagemanagement screen: the module switch, the item list with each item's switch, and the
// add / edit dialog. Server refusals land on their field in the user's language.
import {
  SECRET_MASK,
  type StoragemanagementItemInput,
  type StoragemanagementItemResponse,
  type StoragemanagementItemView,
  type StoragemanagementListResponse,
} from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Popconfirm, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { del, get, post, put } from '../../api/client';
import { useFormErrors } from '../../hooks/useFormErrors';

const BASE = 'api/storagemanagement';
const listKey = ['storagemanagement', 'items'] as const;

export default function StoragemanagementScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) => get<StoragemanagementListResponse>(`${BASE}/items`, { signal }),
  });
  const [editing, setEditing] = useState<StoragemanagementItemView | 'new' | undefined>();
  const [form] = Form.useForm<StoragemanagementItemInput>();
  const refresh = () => qc.invalidateQueries({ queryKey: ['storagemanagement'] });

  // The one form-error hook: a refusal beside its field in the user's language (storagemanagement.err_<code>),
  // anything else as a message; a success clears them.
  const errors = useFormErrors(form, { ns: 'storagemanagement' });

  const open = (item: StoragemanagementItemView | 'new') => {
    setEditing(item);
    form.resetFields();
    if (item !== 'new') form.setFieldsValue(item);
  };
  const save = async () => {
    const values = await form.validateFields();
    try {
      if (editing === 'new') await post<StoragemanagementItemResponse>(`${BASE}/items`, values, { silent: true });
      else if (editing)
        await put<StoragemanagementItemResponse>(`${BASE}/items/${encodeURIComponent(editing.key)}`, values, {
          silent: true,
        });
      errors.clear();
      setEditing(undefined);
      void message.success(t('storagemanagement.saved'));
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
      title={t('menu.storagemanagement')}
      data-testid="storagemanagement-screen"
      extra={
        <Space>
          <span>{t('storagemanagement.moduleSwitch')}</span>
          <Switch
            data-testid="storagemanagement-module-switch"
            checked={data?.enabled ?? false}
            loading={list.isLoading}
            onChange={(on) => act(() => put(`api/modules/storagemanagement/enabled`, { enabled: on }))}
          />
          <Button type="primary" data-testid="storagemanagement-add" onClick={() => open('new')}>
            {t('storagemanagement.add')}
          </Button>
        </Space>
      }
    >
      <Table<StoragemanagementItemView>
        rowKey="key"
        size="small"
        loading={list.isLoading}
        dataSource={data?.list ?? []}
        locale={{ emptyText: t('storagemanagement.empty') }}
        columns={[
          { title: t('storagemanagement.name'), dataIndex: 'name' },
          {
            title: t('storagemanagement.host'),
            dataIndex: 'host',
            render: (h: string) => h || <Typography.Text type="secondary">—</Typography.Text>,
          },
          {
            title: t('storagemanagement.enabled'),
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
                  {t('storagemanagement.edit')}
                </Button>
                <Popconfirm
                  title={t('storagemanagement.deleteConfirm', { name: item.name })}
                  onConfirm={() => act(() => del(`${BASE}/items/${encodeURIComponent(item.key)}`))}
                >
                  <Button size="small" danger>
                    {t('storagemanagement.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== undefined}
        title={t(editing === 'new' ? 'storagemanagement.add' : 'storagemanagement.edit')}
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
            label={t('storagemanagement.name')}
            rules={[{ required: true, message: t('storagemanagement.err_nameRequired') }]}
          >
            <Input data-testid="storagemanagement-name" maxLength={64} />
          </Form.Item>
          <Form.Item name="host" label={t('storagemanagement.host')}>
            <Input data-testid="storagemanagement-host" />
          </Form.Item>
          <Form.Item
            name="secret"
            label={t('storagemanagement.secret')}
            extra={t('storagemanagement.secretHint', { mask: SECRET_MASK })}
          >
            <Input.Password data-testid="storagemanagement-secret" autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="enabled" label={t('storagemanagement.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
