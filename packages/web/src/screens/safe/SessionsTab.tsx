import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Popconfirm, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { del, get } from '../../api/client';
import { removeItem } from '../../api/storage';
import { formatTime } from './time';

interface Session {
  id: string;
  createdAt: string | number;
  expiresAt: string | number;
  clientIp: string;
  current: boolean;
}

const KEY = ['sessions'];

export function SessionsTab() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: KEY,
    queryFn: async ({ signal }) =>
      (await get<{ ret: number; list?: Session[] }>('api/sessions', { signal })).list ?? [],
  });

  const revoke = async (s: Session) => {
    try {
      await del('api/sessions', { query: { id: s.id } });
      message.success(t('safe.sessionRevoked'));
      if (s.current) {
        // Revoking this browser's own session is a logout.
        removeItem('token');
        queryClient.clear();
        navigate('/login');
        return;
      }
      await queryClient.invalidateQueries({ queryKey: KEY });
    } catch {
      // shown by the client
    }
  };

  return (
    <Card
      title={t('safe.sessionsTitle')}
      extra={<Button onClick={() => void sessions.refetch()}>{t('common.refresh')}</Button>}
    >
      <Table<Session>
        rowKey="id"
        loading={sessions.isPending}
        dataSource={sessions.data}
        pagination={false}
        scroll={{ x: 640 }}
        columns={[
          {
            title: t('safe.clientIp'),
            dataIndex: 'clientIp',
            render: (ip: string, s) => (
              <>
                <span className="mono">{ip || '-'}</span>{' '}
                {s.current && <Tag color="green">{t('safe.thisSession')}</Tag>}
              </>
            ),
          },
          { title: t('safe.signedInAt'), dataIndex: 'createdAt', render: formatTime },
          { title: t('safe.expiresAt'), dataIndex: 'expiresAt', render: formatTime },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 120,
            render: (_, s) => (
              <Popconfirm
                title={s.current ? t('safe.revokeOwnConfirm') : t('safe.revokeConfirm')}
                okText={t('common.confirm')}
                cancelText={t('common.cancel')}
                onConfirm={() => revoke(s)}
              >
                <Button danger size="small">
                  {t('safe.revoke')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
}
