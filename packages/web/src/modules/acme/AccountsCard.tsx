// The accounts: name, e-mail, CA (its directory under it), key type, registered or not, edit, delete.
import { PlusOutlined } from '@ant-design/icons';
import type { AcmeAccountView } from '@lucky/shared';
import { Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { directoryOf } from './accountForm';

export interface AccountsCardProps {
  accounts: AcmeAccountView[];
  loading: boolean;
  onAdd: () => void;
  onEdit: (a: AcmeAccountView) => void;
  onDelete: (key: string) => unknown;
}

export function AccountsCard({ accounts, loading, onAdd, onEdit, onDelete }: AccountsCardProps) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={t('acme.ui_accounts')}
      data-testid="acme-accounts"
      extra={
        <Button type="primary" size="small" icon={<PlusOutlined />} onClick={onAdd} data-testid="acme-add-account">
          {t('acme.account_add')}
        </Button>
      }
    >
      <Table<AcmeAccountView>
        rowKey="key"
        size="small"
        loading={loading}
        dataSource={accounts}
        pagination={false}
        scroll={{ x: 720 }}
        locale={{ emptyText: t('acme.account_none') }}
        columns={[
          {
            title: t('acme.account_name'),
            width: 200,
            render: (_v, a) => (
              <div>
                <div>{a.name}</div>
                {a.email && (
                  <Typography.Text type="secondary" className="acme-small">
                    {a.email}
                  </Typography.Text>
                )}
              </div>
            ),
          },
          {
            title: t('acme.account_ca'),
            width: 300,
            render: (_v, a) => (
              <div>
                <div>{t(`acme.account_ca_${a.ca}`)}</div>
                <Typography.Text type="secondary" className="mono acme-small acme-directory">
                  {directoryOf(a.ca, a.directoryUrl)}
                </Typography.Text>
              </div>
            ),
          },
          {
            title: t('acme.ui_keyType'),
            dataIndex: 'keyType',
            width: 110,
            render: (k: string) => t(`acme.ui_keyType_${k}`),
          },
          {
            title: t('acme.account_registered'),
            dataIndex: 'registered',
            width: 110,
            render: (r: boolean, a) => (
              <Tag color={r ? 'success' : 'default'} data-testid={`acme-account-registered-${a.key}`}>
                {t(r ? 'acme.account_registeredYes' : 'acme.account_registeredNo')}
              </Tag>
            ),
          },
          {
            title: t('common.actions'),
            width: 140,
            render: (_v, a) => (
              <Space size={4}>
                <Button size="small" onClick={() => onEdit(a)} data-testid={`acme-account-edit-${a.key}`}>
                  {t('acme.ui_edit')}
                </Button>
                <Popconfirm
                  title={t('acme.account_deleteConfirm', { name: a.name })}
                  okText={t('common.confirm')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => onDelete(a.key)}
                >
                  <Button size="small" danger type="text">
                    {t('acme.ui_delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
}
