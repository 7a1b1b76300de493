// Every share link: what it shares, its state, downloads against the limit, expiry; copy the link,
// switch it on or off, change it, or revoke it (after a confirmation).
import { DeleteOutlined, EditOutlined, FileOutlined, FolderOutlined } from '@ant-design/icons';
import type { FilebrowserShareState, FilebrowserShareView } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Popconfirm, Space, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { deleteShare, fetchShares, filebrowserKeys, shareLink, updateShare } from './api';
import { errorText } from './errors';
import { ShareEditDialog } from './ShareEditDialog';

const STATE_COLOURS: Record<FilebrowserShareState, string> = {
  active: 'green',
  expired: 'orange',
  exhausted: 'gold',
  disabled: 'default',
  missing: 'red',
};

/** How often the open panel asks again. */
const REFRESH_MS = 10_000;

export function SharesPanel() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  // Downloads and states change while the panel is open (someone uses a link): follow them.
  const query = useQuery({
    queryKey: filebrowserKeys.shares,
    queryFn: ({ signal }) => fetchShares(signal),
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  const [editing, setEditing] = useState<FilebrowserShareView | undefined>(undefined);
  const [busy, setBusy] = useState<string | undefined>(undefined);

  const run = async (key: string, call: () => Promise<unknown>, done: string) => {
    setBusy(key);
    try {
      await call();
      void message.success(done);
    } catch (err) {
      const text = errorText(err, t);
      if (text) void message.error(text);
    } finally {
      setBusy(undefined);
      await qc.invalidateQueries({ queryKey: filebrowserKeys.shares });
    }
  };

  const columns: ColumnsType<FilebrowserShareView> = [
    {
      title: t('filebrowser.share_target'),
      key: 'target',
      render: (_, s) => (
        <Space orientation="vertical" size={0}>
          <span className="fb-preview-title">
            {s.kind === 'dir' ? <FolderOutlined /> : <FileOutlined />} {s.storageName}: {s.path}
          </span>
          {s.note && <Typography.Text type="secondary">{s.note}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('filebrowser.share_state'),
      key: 'state',
      render: (_, s) => (
        <Tag color={STATE_COLOURS[s.state]} data-testid={`fb-share-state-${s.key}`}>
          {t(`filebrowser.share_state_${s.state}`)}
        </Tag>
      ),
    },
    {
      title: t('filebrowser.share_downloads'),
      key: 'downloads',
      render: (_, s) => (s.maxDownloads > 0 ? `${s.downloads} / ${s.maxDownloads}` : `${s.downloads} / ∞`),
    },
    {
      title: t('filebrowser.share_expiresAt'),
      key: 'expiresAt',
      render: (_, s) =>
        s.expiresAt > 0 ? dayjs(s.expiresAt).format('YYYY-MM-DD HH:mm') : t('filebrowser.share_expiry_never'),
    },
    {
      title: t('common.enabled'),
      key: 'enabled',
      render: (_, s) => (
        <Switch
          checked={s.enabled}
          loading={busy === s.key}
          aria-label={t('common.enabled')}
          onChange={(enabled) =>
            void run(
              s.key,
              () => updateShare(s.key, { enabled }),
              t(enabled ? 'filebrowser.share_enabled' : 'filebrowser.share_disabled'),
            )
          }
          data-testid={`fb-share-switch-${s.key}`}
        />
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      render: (_, s) => (
        <Space size={0}>
          <CopyButton
            text={shareLink(s.url)}
            iconOnly
            label={t('filebrowser.share_copyLink')}
            data-testid={`fb-share-copy-${s.key}`}
          />
          <Button
            type="text"
            icon={<EditOutlined />}
            title={t('filebrowser.share_edit')}
            aria-label={t('filebrowser.share_edit')}
            onClick={() => setEditing(s)}
            data-testid={`fb-share-edit-${s.key}`}
          />
          <Popconfirm
            title={t('filebrowser.share_revokeConfirm')}
            okText={t('filebrowser.share_revoke')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => run(s.key, () => deleteShare(s.key), t('filebrowser.share_revoked'))}
          >
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              title={t('filebrowser.share_revoke')}
              aria-label={t('filebrowser.share_revoke')}
              data-testid={`fb-share-revoke-${s.key}`}
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card size="small" title={t('filebrowser.share_listTitle')} data-testid="fb-shares">
      <Table<FilebrowserShareView>
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={query.data?.list ?? []}
        loading={query.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('filebrowser.share_none') }}
      />
      {editing && <ShareEditDialog share={editing} onClose={() => setEditing(undefined)} />}
    </Card>
  );
}
