// Who is connected now: the user (or not logged in yet), the client's address, since when, TLS on
// the control and data connections, the folder they are in, what is moving now with its rate, and
// the session's traffic; a session can be closed.
import { DisconnectOutlined, LockOutlined } from '@ant-design/icons';
import type { FtpserverSessionView } from '@lucky/shared';
import { Button, Card, Empty, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/time';
import { elapsed, rate, size } from './format';
import { isUpload } from './transfers';

export interface SessionsCardProps {
  sessions: FtpserverSessionView[];
  /** ms: when the list was read (ages are counted to it). */
  now: number;
  onKick: (s: FtpserverSessionView) => Promise<unknown>;
}

export function SessionsCard({ sessions, now, onKick }: SessionsCardProps) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      title={t('ftpserver.sessionsTitle', { count: sessions.length })}
      className="ftp-card"
      data-testid="ftp-sessions"
    >
      <Table<FtpserverSessionView>
        size="small"
        rowKey="id"
        dataSource={sessions}
        pagination={sessions.length > 20 ? { pageSize: 20, size: 'small', showSizeChanger: false } : false}
        scroll={{ x: 860 }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('ftpserver.noSessions')} /> }}
        onRow={(s) => ({ 'data-testid': `ftp-session-${s.id}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          {
            title: t('ftpserver.sessionUser'),
            key: 'user',
            render: (_, s) =>
              s.user ? (
                <span className="mono" data-testid={`ftp-session-user-${s.id}`}>
                  {s.user}
                </span>
              ) : (
                <Tag>{t('ftpserver.notLoggedIn')}</Tag>
              ),
          },
          {
            title: t('ftpserver.sessionAddress'),
            key: 'address',
            render: (_, s) => <span className="mono">{s.address}</span>,
          },
          {
            title: t('ftpserver.sessionSince'),
            key: 'since',
            width: 150,
            render: (_, s) => (
              <Tooltip title={formatTime(s.since)}>
                <span className="ftp-num">{elapsed(s.since, now)}</span>
              </Tooltip>
            ),
          },
          {
            title: t('ftpserver.tls'),
            key: 'tls',
            width: 120,
            render: (_, s) =>
              s.tls ? (
                <Space size={2}>
                  <Tag color="success" icon={<LockOutlined />}>
                    TLS
                  </Tag>
                  {s.protectedData && <Tag color="success">PROT P</Tag>}
                </Space>
              ) : (
                <Tag>{t('ftpserver.plain')}</Tag>
              ),
          },
          {
            title: t('ftpserver.sessionCwd'),
            key: 'cwd',
            render: (_, s) => (
              <Typography.Text className="mono" ellipsis={{ tooltip: s.cwd }} style={{ maxWidth: 180 }}>
                {s.cwd}
              </Typography.Text>
            ),
          },
          {
            title: t('ftpserver.sessionTransfer'),
            key: 'transfer',
            render: (_, s) => {
              const x = s.transfer;
              if (!x) return <Typography.Text type="secondary">—</Typography.Text>;
              return (
                <span className="ftp-transfer" data-testid={`ftp-session-transfer-${s.id}`}>
                  <Tag color={isUpload(x.verb) ? 'purple' : 'geekblue'}>
                    {t(isUpload(x.verb) ? 'ftpserver.uploading' : 'ftpserver.downloading')} {x.verb}
                  </Tag>
                  <Typography.Text className="mono" ellipsis={{ tooltip: x.path }} style={{ maxWidth: 200 }}>
                    {x.path}
                  </Typography.Text>
                  <span className="ftp-num">
                    {size(x.bytes)} <Typography.Text type="secondary">{rate(x.rate)}</Typography.Text>
                  </span>
                </span>
              );
            },
          },
          {
            title: t('ftpserver.sessionTraffic'),
            key: 'traffic',
            width: 150,
            align: 'right',
            render: (_, s) => (
              <span className="ftp-num ftp-traffic">
                <span title={t('ftpserver.bytesIn')}>↑ {size(s.bytesIn)}</span>
                <span title={t('ftpserver.bytesOut')}>↓ {size(s.bytesOut)}</span>
              </span>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 100,
            render: (_, s) => (
              <Popconfirm
                title={t('ftpserver.kickConfirm', { address: s.address })}
                okText={t('common.confirm')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => onKick(s)}
              >
                <Button size="small" danger icon={<DisconnectOutlined />} data-testid={`ftp-session-kick-${s.id}`}>
                  {t('ftpserver.kick')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
}
