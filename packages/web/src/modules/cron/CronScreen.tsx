// The cron screen: the module switch, the item list with each item's switch, and the
// add / edit dialog. Server refusals land on their field in the user's language.
import {
  type CronItemInput,
  type CronItemResponse,
  type CronItemView,
  type CronListResponse,
  SECRET_MASK,
} from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Popconfirm, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { del, get, post, put } from '../../api/client';
import { useFormErrors } from '../../hooks/useFormErrors';

const BASE = 'api/cron';
const listKey = ['cron', 'items'] as const;

export default function CronScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) => get<CronListResponse>(`${BASE}/items`, { signal }),
  });
  const [editing, setEditing] = useState<CronItemView | 'new' | undefined>();
  const [form] = Form.useForm<CronItemInput>();
  const refresh = () => qc.invalidateQueries({ queryKey: ['cron'] });

  // The one form-error hook: a refusal beside its field in the user's language (cron.err_<code>),
  // anything else as a message; a success clears them.
  const errors = useFormErrors(form, { ns: 'cron' });

  const open = (item: CronItemView | 'new') => {
    setEditing(item);
    form.resetFields();
    if (item !== 'new') form.setFieldsValue(item);
  };
  const save = async () => {
    const values = await form.validateFields();
    try {
      if (editing === 'new') await post<CronItemResponse>(`${BASE}/items`, values, { silent: true });
      else if (editing)
        await put<CronItemResponse>(`${BASE}/items/${encodeURIComponent(editing.key)}`, values, { silent: true });
      errors.clear();
      setEditing(undefined);
      void message.success(t('cron.saved'));
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
      title={t('menu.cron')}
      data-testid="cron-screen"
      extra={
        <Space>
          <span>{t('cron.moduleSwitch')}</span>
          <Switch
            data-testid="cron-module-switch"
            checked={data?.enabled ?? false}
            loading={list.isLoading}
            onChange={(on) => act(() => put(`api/modules/cron/enabled`, { enabled: on }))}
          />
          <Button type="primary" data-testid="cron-add" onClick={() => open('new')}>
            {t('cron.add')}
          </Button>
        </Space>
      }
    >
      <Table<CronItemView>
        rowKey="key"
        size="small"
        loading={list.isLoading}
        dataSource={data?.list ?? []}
        locale={{ emptyText: t('cron.empty') }}
        columns={[
          { title: t('cron.name'), dataIndex: 'name' },
          {
            title: t('cron.host'),
            dataIndex: 'host',
            render: (h: string) => h || <Typography.Text type="secondary">—</Typography.Text>,
          },
          {
            title: t('cron.enabled'),
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
                  {t('cron.edit')}
                </Button>
                <Popconfirm
                  title={t('cron.deleteConfirm', { name: item.name })}
                  onConfirm={() => act(() => del(`${BASE}/items/${encodeURIComponent(item.key)}`))}
                >
                  <Button size="small" danger>
                    {t('cron.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== undefined}
        title={t(editing === 'new' ? 'cron.add' : 'cron.edit')}
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
            label={t('cron.name')}
            rules={[{ required: true, message: t('cron.err_nameRequired') }]}
          >
            <Input data-testid="cron-name" maxLength={64} />
          </Form.Item>
          <Form.Item name="host" label={t('cron.host')}>
            <Input data-testid="cron-host" />
          </Form.Item>
          <Form.Item name="secret" label={t('cron.secret')} extra={t('cron.secretHint', { mask: SECRET_MASK })}>
            <Input.Password data-testid="cron-secret" autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="enabled" label={t('cron.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
