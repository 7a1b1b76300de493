// The mounts: each a storage of storage management shown to clients as a top folder; switch,
// edit, delete (the users lose their access to it).
import { PlusOutlined } from '@ant-design/icons';
import type { WebdavMount } from '@lucky/shared';
import { Button, Card, Popconfirm, Space, Switch, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { StorageChoice } from './useWebdav';

export interface MountsCardProps {
  mounts: WebdavMount[];
  storages: StorageChoice[];
  loading: boolean;
  onAdd: () => void;
  onEdit: (m: WebdavMount) => void;
  onToggle: (key: string, on: boolean) => unknown;
  onDelete: (key: string) => unknown;
}

export function MountsCard({ mounts, storages, loading, onAdd, onEdit, onToggle, onDelete }: MountsCardProps) {
  const { t } = useTranslation();
  const storageName = (key: string) => storages.find((s) => s.key === key)?.name;
  return (
    <Card
      size="small"
      title={t('webdav.mounts')}
      data-testid="webdav-mounts"
      extra={
        <Button type="primary" size="small" icon={<PlusOutlined />} onClick={onAdd} data-testid="webdav-add-mount">
          {t('webdav.addMount')}
        </Button>
      }
    >
      <Table<WebdavMount>
        rowKey="key"
        size="small"
        loading={loading}
        dataSource={mounts}
        pagination={false}
        scroll={{ x: 480 }}
        locale={{ emptyText: t('webdav.noMounts') }}
        columns={[
          {
            title: t('webdav.mountName'),
            dataIndex: 'name',
            render: (n: string) => <span className="mono">/{n}</span>,
          },
          {
            title: t('webdav.storage'),
            dataIndex: 'storage',
            render: (key: string) =>
              storageName(key) ?? <Tag color="warning">{t('webdav.storageMissing', { key })}</Tag>,
          },
          {
            title: t('webdav.public'),
            dataIndex: 'public',
            render: (on: boolean) => (on ? <Tag color="blue">{t('webdav.publicTag')}</Tag> : null),
          },
          {
            title: t('webdav.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean, m) => (
              <Switch size="small" checked={on} onChange={(v) => void onToggle(m.key, v)} aria-label={m.name} />
            ),
          },
          {
            title: t('common.actions'),
            render: (_v, m) => (
              <Space>
                <Button size="small" onClick={() => onEdit(m)}>
                  {t('webdav.edit')}
                </Button>
                <Popconfirm
                  title={t('webdav.deleteMountConfirm', { name: m.name })}
                  okText={t('common.confirm')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => onDelete(m.key)}
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
    </Card>
  );
}
