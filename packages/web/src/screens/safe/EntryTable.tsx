// One of the two lists (allow or block) as a table: value, comment, expiry, source (added by hand
// or by the knock URL) and when it was added, times in the display zone; a filter box, add / edit
// through EntryDialog, delete. Removing an entry can shut the admin out too (an allow entry under
// "everyone"): that refusal comes back to the tab as a lock-out.
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { SafeEntry, SafeList } from '@lucky/shared';
import { Button, Card, Empty, Input, Popconfirm, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { type HTMLAttributes, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureOf } from '../../api/callErrors';
import { useDisplayTimeZone } from '../../components/time';
import { failureText } from '../../hooks/useFormErrors';
import { EntryDialog } from './EntryDialog';
import { entryMatches } from './entryForm';
import type { LockOut } from './LockOutAlert';
import { deleteEntry, lockOutOf } from './safeApi';
import { formatTime } from './time';

export interface EntryTableProps {
  list: SafeList;
  entries: SafeEntry[];
  loading: boolean;
  /** After any change: the tab reloads the lists. */
  onChanged: () => void;
  onLockOut: (l: LockOut) => void;
  onError: (text: string) => void;
}

export function EntryTable({ list, entries, loading, onChanged, onLockOut, onError }: EntryTableProps) {
  const { t } = useTranslation();
  useDisplayTimeZone();
  const [filter, setFilter] = useState('');
  /** The dialog: a new entry (null), this entry, or closed (undefined). */
  const [editing, setEditing] = useState<SafeEntry | null>();
  const [busy, setBusy] = useState<string>();
  const shown = useMemo(() => entries.filter((e) => entryMatches(e, filter)), [entries, filter]);

  const remove = async (e: SafeEntry) => {
    setBusy(e.key);
    try {
      await deleteEntry(list, e.key);
    } catch (err) {
      const locked = lockOutOf(err);
      if (locked) onLockOut(locked);
      else {
        const f = failureOf(err);
        if (f) onError(failureText(t, 'safe', f));
      }
    } finally {
      setBusy(undefined);
      onChanged();
    }
  };

  const columns: TableColumnsType<SafeEntry> = [
    {
      title: t('safe.lists_value'),
      dataIndex: 'value',
      render: (v: string) => <span className="mono">{v}</span>,
    },
    {
      title: t('safe.lists_comment'),
      dataIndex: 'comment',
      render: (v: string) => (v ? v : <Typography.Text type="secondary">-</Typography.Text>),
    },
    {
      title: t('safe.lists_expiry'),
      dataIndex: 'expiresAt',
      width: 170,
      render: (v: string | null) =>
        v ? (
          <span className="safe-time">{formatTime(v)}</span>
        ) : (
          <Typography.Text type="secondary">{t('safe.lists_never')}</Typography.Text>
        ),
    },
    {
      title: t('safe.lists_source'),
      dataIndex: 'source',
      width: 110,
      render: (v: SafeEntry['source']) => (
        <Tag color={v === 'knock' ? 'processing' : undefined}>{t(`safe.lists_source_${v}`)}</Tag>
      ),
    },
    {
      title: t('safe.lists_addedAt'),
      dataIndex: 'addedAt',
      width: 170,
      render: (v: string) => <span className="safe-time">{formatTime(v)}</span>,
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 100,
      render: (_, e) => (
        <Space size={4}>
          <Button
            size="small"
            type="text"
            icon={<EditOutlined />}
            title={t('safe.lists_edit')}
            aria-label={t('safe.lists_edit')}
            onClick={() => setEditing(e)}
            data-testid={`safe-${list}-edit-${e.value}`}
          />
          <Popconfirm
            title={t('safe.lists_deleteConfirm', { value: e.value })}
            okText={t('common.confirm')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => remove(e)}
          >
            <Button
              size="small"
              type="text"
              danger
              icon={<DeleteOutlined />}
              loading={busy === e.key}
              title={t('safe.lists_delete')}
              aria-label={t('safe.lists_delete')}
              data-testid={`safe-${list}-delete-${e.value}`}
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title={
        <span>
          {t(`safe.lists_${list}`)}{' '}
          <Typography.Text type="secondary" data-testid={`safe-${list}-count`}>
            ({entries.length})
          </Typography.Text>
        </span>
      }
      extra={
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing(null)}
          data-testid={`safe-${list}-add`}
        >
          {t('safe.lists_add')}
        </Button>
      }
      data-testid={`safe-${list}-card`}
    >
      <Typography.Paragraph type="secondary">{t(`safe.lists_${list}Help`)}</Typography.Paragraph>
      <Input.Search
        allowClear
        placeholder={t('safe.lists_filter')}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        style={{ maxWidth: 320, marginBottom: 12 }}
        data-testid={`safe-${list}-filter`}
      />
      <Table<SafeEntry>
        rowKey="key"
        size="small"
        loading={loading}
        dataSource={shown}
        columns={columns}
        scroll={{ x: 800 }}
        pagination={shown.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
        onRow={(e) => ({ 'data-testid': `safe-${list}-row-${e.value}` }) as HTMLAttributes<HTMLElement>}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={filter ? t('safe.lists_noMatch') : t(`safe.lists_${list}Empty`)}
            />
          ),
        }}
      />
      <EntryDialog
        list={list}
        entry={editing}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          onChanged();
        }}
      />
    </Card>
  );
}
