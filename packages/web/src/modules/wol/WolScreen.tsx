// The wol screen: the module switch, the item list with each item's switch, and the
// add / edit dialog. Server refusals land on their field in the user's language.
import {
  SECRET_MASK,
  type WolDeviceInput,
  type WolDeviceResponse,
  type WolDeviceView,
  type WolListResponse,
} from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Modal, Popconfirm, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { del, get, post, put } from '../../api/client';
import { useFormErrors } from '../../hooks/useFormErrors';

const BASE = 'api/wol';
const listKey = ['wol', 'devices'] as const;

export default function WolScreen() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) => get<WolListResponse>(`${BASE}/devices`, { signal }),
  });
  const [editing, setEditing] = useState<WolDeviceView | 'new' | undefined>();
  const [form] = Form.useForm<WolDeviceInput>();
  const refresh = () => qc.invalidateQueries({ queryKey: ['wol'] });

  // The one form-error hook: a refusal beside its field in the user's language (wol.err_<code>),
  // anything else as a message; a success clears them.
  const errors = useFormErrors(form, { ns: 'wol' });

  const open = (item: WolDeviceView | 'new') => {
    setEditing(item);
    form.resetFields();
    if (item !== 'new') form.setFieldsValue(item);
  };
  const save = async () => {
    const values = await form.validateFields();
    try {
      if (editing === 'new') await post<WolDeviceResponse>(`${BASE}/devices`, values, { silent: true });
      else if (editing)
        await put<WolDeviceResponse>(`${BASE}/devices/${encodeURIComponent(editing.key)}`, values, { silent: true });
      errors.clear();
      setEditing(undefined);
      void message.success(t('wol.saved'));
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
      title={t('menu.wol')}
      data-testid="wol-screen"
      extra={
        <Space>
          <span>{t('wol.moduleSwitch')}</span>
          <Switch
            data-testid="wol-module-switch"
            checked={data?.enabled ?? false}
            loading={list.isLoading}
            onChange={(on) => act(() => put(`api/modules/wol/enabled`, { enabled: on }))}
          />
          <Button type="primary" data-testid="wol-add" onClick={() => open('new')}>
            {t('wol.add')}
          </Button>
        </Space>
      }
    >
      <Table<WolDeviceView>
        rowKey="key"
        size="small"
        loading={list.isLoading}
        dataSource={data?.devices ?? []}
        locale={{ emptyText: t('wol.empty') }}
        columns={[
          { title: t('wol.name'), dataIndex: 'name' },
          {
            title: t('wol.host'),
            dataIndex: ['check', 'host'],
            render: (h: string) => h || <Typography.Text type="secondary">—</Typography.Text>,
          },
          {
            title: t('wol.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean, item) => (
              <Switch
                size="small"
                checked={on}
                onChange={(v) =>
                  act(() => put(`${BASE}/devices/${encodeURIComponent(item.key)}/enable`, { enabled: v }))
                }
              />
            ),
          },
          {
            title: t('common.actions'),
            render: (_v, item) => (
              <Space>
                <Button size="small" onClick={() => open(item)}>
                  {t('wol.edit')}
                </Button>
                <Popconfirm
                  title={t('wol.deleteConfirm', { name: item.name })}
                  onConfirm={() => act(() => del(`${BASE}/devices/${encodeURIComponent(item.key)}`))}
                >
                  <Button size="small" danger>
                    {t('wol.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== undefined}
        title={t(editing === 'new' ? 'wol.add' : 'wol.edit')}
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
          initialValues={{ name: '', check: { host: '' }, secureOn: '', enabled: true }}
        >
          <Form.Item name="name" label={t('wol.name')} rules={[{ required: true, message: t('wol.err_nameRequired') }]}>
            <Input data-testid="wol-name" maxLength={64} />
          </Form.Item>
          <Form.Item name={['check', 'host']} label={t('wol.host')}>
            <Input data-testid="wol-host" />
          </Form.Item>
          <Form.Item name="secureOn" label={t('wol.secret')} extra={t('wol.secretHint', { mask: SECRET_MASK })}>
            <Input.Password data-testid="wol-secret" autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="enabled" label={t('wol.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
