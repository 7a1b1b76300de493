// The accounts that may log in: name, switch, whether a password is set (never the password), and
// what each may do on which mount; edit and delete.
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { FtpserverMountView, FtpserverUserView } from '@lucky/shared';
import { Button, Card, Empty, Popconfirm, Space, Switch, Table, Tag, Typography } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasPassword } from './userForm';

export interface UsersCardProps {
  users: FtpserverUserView[] | undefined;
  mounts: FtpserverMountView[];
  loading: boolean;
  onAdd: () => void;
  onEdit: (u: FtpserverUserView) => void;
  onToggle: (u: FtpserverUserView, on: boolean) => Promise<unknown>;
  onDelete: (u: FtpserverUserView) => Promise<unknown>;
}

export function UsersCard({ users, mounts, loading, onAdd, onEdit, onToggle, onDelete }: UsersCardProps) {
  const { t } = useTranslation();
  const [switching, setSwitching] = useState<string | undefined>();
  const toggle = async (u: FtpserverUserView, on: boolean) => {
    setSwitching(u.key);
    try {
      await onToggle(u, on);
    } finally {
      setSwitching(undefined);
    }
  };
  return (
    <Card
      size="small"
      title={t('ftpserver.users')}
      className="ftp-card"
      data-testid="ftp-users"
      extra={
        <Button type="primary" size="small" icon={<PlusOutlined />} onClick={onAdd} data-testid="ftp-add-user">
          {t('ftpserver.addUser')}
        </Button>
      }
    >
      <Table<FtpserverUserView>
        size="small"
        rowKey="key"
        loading={loading}
        dataSource={users ?? []}
        pagination={(users?.length ?? 0) > 20 ? { pageSize: 20, size: 'small', showSizeChanger: false } : false}
        scroll={{ x: 640 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('ftpserver.noUsers')} /> }}
        onRow={(u) => ({ 'data-testid': `ftp-user-${u.key}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('ftpserver.userName'),
            key: 'name',
            render: (_, u) => (
              <span className="mono" data-testid={`ftp-user-name-${u.key}`}>
                {u.name}
              </span>
            ),
          },
          {
            title: t('ftpserver.password'),
            key: 'password',
            width: 110,
            render: (_, u) =>
              hasPassword(u) ? (
                <Tag color="success">{t('ftpserver.passwordSet')}</Tag>
              ) : (
                <Tag color="warning">{t('ftpserver.passwordNotSet')}</Tag>
              ),
          },
          {
            title: t('ftpserver.access'),
            key: 'access',
            render: (_, u) => {
              const seen = mounts.filter((m) => u.access[m.key]);
              if (seen.length === 0)
                return <Typography.Text type="secondary">{t('ftpserver.noAccess')}</Typography.Text>;
              return (
                <Space size={4} wrap data-testid={`ftp-user-access-${u.key}`}>
                  {seen.map((m) => (
                    <Tag key={m.key} color={u.access[m.key] === 'rw' ? 'blue' : undefined} className="ftp-access-tag">
                      /{m.name} · {t(`ftpserver.access_${u.access[m.key]}`)}
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
            render: (_, u) => (
              <Switch
                size="small"
                checked={u.enabled}
                loading={switching === u.key}
                onChange={(on) => void toggle(u, on)}
                aria-label={t('ftpserver.userEnabled')}
                data-testid={`ftp-user-switch-${u.key}`}
              />
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 190,
            render: (_, u) => (
              <Space size={4}>
                <Button
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => onEdit(u)}
                  data-testid={`ftp-user-edit-${u.key}`}
                >
                  {t('ftpserver.edit')}
                </Button>
                <Popconfirm
                  title={t('ftpserver.deleteUserConfirm', { name: u.name })}
                  okText={t('common.confirm')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => onDelete(u)}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} data-testid={`ftp-user-delete-${u.key}`}>
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
