// The users: name, their access per mount at a glance, switch, edit, delete.
import { PlusOutlined } from '@ant-design/icons';
import type { WebdavMount, WebdavUserView } from '@lucky/shared';
import { Button, Card, Popconfirm, Space, Switch, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';

export interface UsersCardProps {
  users: WebdavUserView[];
  mounts: WebdavMount[];
  loading: boolean;
  onAdd: () => void;
  onEdit: (u: WebdavUserView) => void;
  onToggle: (key: string, on: boolean) => unknown;
  onDelete: (key: string) => unknown;
}

export function UsersCard({ users, mounts, loading, onAdd, onEdit, onToggle, onDelete }: UsersCardProps) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={t('webdav.users')}
      data-testid="webdav-users"
      extra={
        <Button type="primary" size="small" icon={<PlusOutlined />} onClick={onAdd} data-testid="webdav-add-user">
          {t('webdav.addUser')}
        </Button>
      }
    >
      <Table<WebdavUserView>
        rowKey="key"
        size="small"
        loading={loading}
        dataSource={users}
        pagination={false}
        scroll={{ x: 480 }}
        locale={{ emptyText: t('webdav.noUsers') }}
        columns={[
          { title: t('webdav.userName'), dataIndex: 'name' },
          {
            title: t('webdav.access'),
            render: (_v, u) => {
              const given = mounts.filter((m) => u.access[m.key]);
              if (given.length === 0) return <Tag>{t('webdav.accessNothing')}</Tag>;
              return (
                <Space size={[4, 4]} wrap>
                  {given.map((m) => (
                    <Tag key={m.key} color={u.access[m.key] === 'rw' ? 'green' : 'default'} className="mono">
                      /{m.name} {t(`webdav.accessShort_${u.access[m.key]}`)}
                    </Tag>
                  ))}
                </Space>
              );
            },
          },
          {
            title: t('webdav.enabled'),
            dataIndex: 'enabled',
            render: (on: boolean, u) => (
              <Switch size="small" checked={on} onChange={(v) => void onToggle(u.key, v)} aria-label={u.name} />
            ),
          },
          {
            title: t('common.actions'),
            render: (_v, u) => (
              <Space>
                <Button size="small" onClick={() => onEdit(u)}>
                  {t('webdav.edit')}
                </Button>
                <Popconfirm
                  title={t('webdav.deleteUserConfirm', { name: u.name })}
                  okText={t('common.confirm')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => onDelete(u.key)}
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
