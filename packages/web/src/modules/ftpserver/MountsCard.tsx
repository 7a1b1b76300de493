// The folders the server publishes at its root, each a storage of storage management: the
// storage's name and state (gone or switched off, read-only), who may use it, a switch, edit and
// delete.
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { FtpserverMountView, FtpserverUserView } from '@lucky/shared';
import { Button, Card, Empty, Popconfirm, Space, Switch, Table, Tag, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface MountsCardProps {
  mounts: FtpserverMountView[] | undefined;
  users: FtpserverUserView[];
  /** The server runs: only then does a mount's view know its storage's state. */
  running: boolean;
  /** Storage management's names by key, for while the server is off. */
  storageNames: ReadonlyMap<string, string>;
  loading: boolean;
  onAdd: () => void;
  onEdit: (m: FtpserverMountView) => void;
  onToggle: (m: FtpserverMountView, on: boolean) => Promise<unknown>;
  onDelete: (m: FtpserverMountView) => Promise<unknown>;
}

export function MountsCard({
  mounts,
  users,
  running,
  storageNames,
  loading,
  onAdd,
  onEdit,
  onToggle,
  onDelete,
}: MountsCardProps) {
  const { t } = useTranslation();
  const [switching, setSwitching] = useState<string | undefined>();
  const toggle = async (m: FtpserverMountView, on: boolean) => {
    setSwitching(m.key);
    try {
      await onToggle(m, on);
    } finally {
      setSwitching(undefined);
    }
  };
  return (
    <Card
      size="small"
      title={t('ftpserver.mounts')}
      className="ftp-card"
      data-testid="ftp-mounts"
      extra={
        <Button type="primary" size="small" icon={<PlusOutlined />} onClick={onAdd} data-testid="ftp-add-mount">
          {t('ftpserver.addMount')}
        </Button>
      }
    >
      <Table<FtpserverMountView>
        size="small"
        rowKey="key"
        loading={loading}
        dataSource={mounts ?? []}
        pagination={false}
        scroll={{ x: 640 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('ftpserver.noMounts')} /> }}
        onRow={(m) => ({ 'data-testid': `ftp-mount-${m.key}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('ftpserver.mountName'),
            key: 'name',
            render: (_, m) => (
              <span className="mono" data-testid={`ftp-mount-name-${m.key}`}>
                /{m.name}
              </span>
            ),
          },
          {
            title: t('ftpserver.storage'),
            key: 'storage',
            render: (_, m) => (
              <Space size={4} wrap>
                <span>{m.storageName || storageNames.get(m.storage) || <span className="mono">{m.storage}</span>}</span>
                {running && !m.available && (
                  <Tag color="error" data-testid={`ftp-mount-unavailable-${m.key}`}>
                    {t('ftpserver.storageUnavailable')}
                  </Tag>
                )}
                {m.storageReadOnly && <Tag>{t('ftpserver.storageReadOnly')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('ftpserver.mountUsers'),
            key: 'users',
            render: (_, m) => {
              const who = users.filter((u) => u.access[m.key]);
              if (who.length === 0) return <Typography.Text type="secondary">{t('ftpserver.nobody')}</Typography.Text>;
              return (
                <Space size={4} wrap>
                  {who.map((u) => (
                    <Tag key={u.key} color={u.access[m.key] === 'rw' ? 'blue' : undefined}>
                      {u.name} · {t(`ftpserver.access_${u.access[m.key]}`)}
                    </Tag>
                  ))}
                </Space>
              );
            },
          },
          {
            title: t('ftpserver.enabled'),
            key: 'enabled',
            width: 90,
            render: (_, m) => (
              <Switch
                size="small"
                checked={m.enabled}
                loading={switching === m.key}
                onChange={(on) => void toggle(m, on)}
                aria-label={t('ftpserver.mountEnabled')}
                data-testid={`ftp-mount-switch-${m.key}`}
              />
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 190,
            render: (_, m) => (
              <Space size={4}>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => onEdit(m)}
                  data-testid={`ftp-mount-edit-${m.key}`}
                >
                  {t('ftpserver.edit')}
                </Button>
                <Popconfirm
                  title={t('ftpserver.deleteMountConfirm', { name: m.name })}
                  description={t('ftpserver.deleteMountHelp')}
                  okText={t('common.confirm')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => onDelete(m)}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} data-testid={`ftp-mount-delete-${m.key}`}>
                    {t('ftpserver.delete')}
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
