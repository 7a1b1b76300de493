// The wanji_admin screen: the module switch, the item list with each item's switch, and the
// add / edit dialog. Server refusals land on their field in the user's language.
import {
  SECRET_MASK,
  type WanjiAdminItemInput,
  type WanjiAdminItemResponse,
  type WanjiAdminItemView,
  type WanjiAdminListResponse,
} from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Popconfirm, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { del, get, post, put } from '../../api/client';
import { useFormErrors } from '../../hooks/useFormErrors';

const BASE = 'api/wanji_admin';
const listKey = ['wanji_admin', 'items'] as const;

export default function WanjiAdminScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) => get<WanjiAdminListResponse>(`${BASE}/items`, { signal }),
  });
  const [editing, setEditing] = useState<WanjiAdminItemView | 'new' | undefined>();
  const [form] = Form.useForm<WanjiAdminItemInput>();
  const refresh = () => qc.invalidateQueries({ queryKey: ['wanji_admin'] });

  // The one form-error hook: a refusal beside its field in the user's language (wanji_admin.err_<code>),
  // anything else as a message; a success clears them.
  const errors = useFormErrors(form, { ns: 'wanji_admin' });

  const open = (item: WanjiAdminItemView | 'new') => {
    setEditing(item);
    form.resetFields();
    if (item !== 'new') form.setFieldsValue(item);
  };
  const save = async () => {
    const values = await form.validateFields();
    try {
      if (editing === 'new') await post<WanjiAdminItemResponse>(`${BASE}/items`, values, { silent: true });
      else if (editing)
        await put<WanjiAdminItemResponse>(`${BASE}/items/${encodeURIComponent(editing.key)}`, values, { silent: true });
      errors.clear();
      setEditing(undefined);
      void message.success(t('wanji_admin.saved'));
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
      title={t('menu.wanji_admin')}
      data-testid="wanji_admin-screen"
      extra={
        <Space>
          <span>{t('wanji_admin.moduleSwitch')}</span>
          <Switch
            data-testid="wanji_admin-module-switch"
            checked={data?.enabled ?? false}
            loading={list.isLoading}
            onChange={(on) => act(() => put(`api/modules/wanji_admin/enabled`, { enabled: on }))}
          />
          <Button type="primary" data-testid="wanji_admin-add" onClick={() => open('new')}>
            {t('wanji_admin.add')}
          </Button>
        </Space>
      }
    >
      <Table<WanjiAdminItemView>
        rowKey="key"
        size="small"
        loading={list.isLoading}
        dataSource={data?.list ?? []}
        locale={{ emptyText: t('wanji_admin.empty') }}
        columns={[
          { title: t('wanji_admin.name'), dataIndex: 'name' },
          {
            title: t('wanji_admin.host'),
            dataIndex: 'host',
            render: (h: string) => h || <Typography.Text type="secondary">—</Typography.Text>,
          },
          {
            title: t('wanji_admin.enabled'),
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
                  {t('wanji_admin.edit')}
                </Button>
                <Popconfirm
                  title={t('wanji_admin.deleteConfirm', { name: item.name })}
                  onConfirm={() => act(() => del(`${BASE}/items/${encodeURIComponent(item.key)}`))}
                >
                  <Button size="small" danger>
                    {t('wanji_admin.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== undefined}
        title={t(editing === 'new' ? 'wanji_admin.add' : 'wanji_admin.edit')}
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
            label={t('wanji_admin.name')}
            rules={[{ required: true, message: t('wanji_admin.err_nameRequired') }]}
          >
            <Input data-testid="wanji_admin-name" maxLength={64} />
          </Form.Item>
          <Form.Item name="host" label={t('wanji_admin.host')}>
            <Input data-testid="wanji_admin-host" />
          </Form.Item>
          <Form.Item
            name="secret"
            label={t('wanji_admin.secret')}
            extra={t('wanji_admin.secretHint', { mask: SECRET_MASK })}
          >
            <Input.Password data-testid="wanji_admin-secret" autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="enabled" label={t('wanji_admin.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
