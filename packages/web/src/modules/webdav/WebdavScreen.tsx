// The webdav screen: the module switch, the item list with each item's switch, and the
// add / edit dialog. Server refusals land on their field in the user's language.
import {
  SECRET_MASK,
  type WebdavItemInput,
  type WebdavItemResponse,
  type WebdavItemView,
  type WebdavListResponse,
} from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Popconfirm, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { del, get, post, put } from '../../api/client';
import { useFormErrors } from '../../hooks/useFormErrors';

const BASE = 'api/webdav';
const listKey = ['webdav', 'items'] as const;

export default function WebdavScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) => get<WebdavListResponse>(`${BASE}/items`, { signal }),
  });
  const [editing, setEditing] = useState<WebdavItemView | 'new' | undefined>();
  const [form] = Form.useForm<WebdavItemInput>();
  const refresh = () => qc.invalidateQueries({ queryKey: ['webdav'] });

  // The one form-error hook: a refusal beside its field in the user's language (webdav.err_<code>),
  // anything else as a message; a success clears them.
  const errors = useFormErrors(form, { ns: 'webdav' });

  const open = (item: WebdavItemView | 'new') => {
    setEditing(item);
    form.resetFields();
    if (item !== 'new') form.setFieldsValue(item);
  };
  const save = async () => {
    const values = await form.validateFields();
    try {
      if (editing === 'new') await post<WebdavItemResponse>(`${BASE}/items`, values, { silent: true });
      else if (editing)
        await put<WebdavItemResponse>(`${BASE}/items/${encodeURIComponent(editing.key)}`, values, { silent: true });
      errors.clear();
      setEditing(undefined);
      void message.success(t('webdav.saved'));
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
      title={t('menu.webdav')}
      data-testid="webdav-screen"
      extra={
        <Space>
          <span>{t('webdav.moduleSwitch')}</span>
          <Switch
            data-testid="webdav-module-switch"
            checked={data?.enabled ?? false}
            loading={list.isLoading}
            onChange={(on) => act(() => put(`api/modules/webdav/enabled`, { enabled: on }))}
          />
          <Button type="primary" data-testid="webdav-add" onClick={() => open('new')}>
            {t('webdav.add')}
          </Button>
        </Space>
      }
    >
      <Table<WebdavItemView>
        rowKey="key"
        size="small"
        loading={list.isLoading}
        dataSource={data?.list ?? []}
        locale={{ emptyText: t('webdav.empty') }}
        columns={[
          { title: t('webdav.name'), dataIndex: 'name' },
          {
            title: t('webdav.host'),
            dataIndex: 'host',
            render: (h: string) => h || <Typography.Text type="secondary">—</Typography.Text>,
          },
          {
            title: t('webdav.enabled'),
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
                  {t('webdav.edit')}
                </Button>
                <Popconfirm
                  title={t('webdav.deleteConfirm', { name: item.name })}
                  onConfirm={() => act(() => del(`${BASE}/items/${encodeURIComponent(item.key)}`))}
                >
                  <Button size="small" danger>
                    {t('webdav.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== undefined}
        title={t(editing === 'new' ? 'webdav.add' : 'webdav.edit')}
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
            label={t('webdav.name')}
            rules={[{ required: true, message: t('webdav.err_nameRequired') }]}
          >
            <Input data-testid="webdav-name" maxLength={64} />
          </Form.Item>
          <Form.Item name="host" label={t('webdav.host')}>
            <Input data-testid="webdav-host" />
          </Form.Item>
          <Form.Item name="secret" label={t('webdav.secret')} extra={t('webdav.secretHint', { mask: SECRET_MASK })}>
            <Input.Password data-testid="webdav-secret" autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="enabled" label={t('webdav.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
