// A module's whole log in a drawer, called by the screen with its namespace, query and test ids:
// newest first, a page at a time, each coded line in the UI language through the module's
// namespace; page 1 follows new lines at the screen's interval while open; the log can be cleared.
import { ClearOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Drawer, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindowSize } from '../../hooks/useWindowSize';
import { LogTable, type LogTableProps } from './LogTable';

export interface ServiceLogDrawerProps {
  open: boolean;
  onClose: () => void;
  /** Clears the log on the server; true when it did. */
  onClear: () => Promise<boolean>;
  /** The module's locale namespace: `<ns>.logsTitle`, `<ns>.clearLogs`, `<ns>.clearLogsConfirm` and its coded lines. */
  ns: string;
  /** Before those three keys, for a module whose own words carry a prefix (`ui_` → `<ns>.ui_logsTitle`). */
  wordsPrefix?: string;
  /** The module's query key of its logs (page and size are appended). */
  queryKey: readonly unknown[];
  fetchLogs: (q: { page: number; pageSize: number }, signal?: AbortSignal) => Promise<LogTableProps['data']>;
  intervalMs: number;
  /** Prefix of the test ids: `<p>-log-drawer`, `<p>-logs-clear`, `<p>-log-table`. */
  testIdPrefix: string;
}

export function ServiceLogDrawer(props: ServiceLogDrawerProps) {
  const { t } = useTranslation();
  const { width } = useWindowSize();
  return (
    <Drawer
      open={props.open}
      onClose={props.onClose}
      size={width <= 768 ? '100%' : Math.min(960, width - 48)}
      destroyOnHidden
      title={t(`${props.ns}.${props.wordsPrefix ?? ''}logsTitle`)}
      data-testid={`${props.testIdPrefix}-log-drawer`}
    >
      {props.open && <LogPages {...props} />}
    </Drawer>
  );
}

function LogPages({
  onClear,
  ns,
  wordsPrefix = '',
  queryKey,
  fetchLogs,
  intervalMs,
  testIdPrefix,
}: ServiceLogDrawerProps) {
  const { t } = useTranslation();
  const words = `${ns}.${wordsPrefix}`;
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const query = useQuery({
    queryKey: [...queryKey, page, pageSize],
    queryFn: ({ signal }) => fetchLogs({ page, pageSize }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: page === 1 ? intervalMs : false,
    refetchIntervalInBackground: false,
  });
  const data = query.data;

  const clear = async () => {
    if (await onClear()) {
      setPage(1);
      await query.refetch();
    }
  };

  return (
    <div>
      <Space style={{ marginBottom: 12 }} wrap>
        <Button icon={<ReloadOutlined />} loading={query.isFetching} onClick={() => void query.refetch()}>
          {t('common.refresh')}
        </Button>
        <Popconfirm
          title={t(`${words}clearLogsConfirm`)}
          okText={t('common.confirm')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => clear()}
        >
          <Button danger icon={<ClearOutlined />} disabled={!data?.total} data-testid={`${testIdPrefix}-logs-clear`}>
            {t(`${words}clearLogs`)}
          </Button>
        </Popconfirm>
      </Space>
      <LogTable
        data={data}
        loading={query.isPending}
        page={page}
        pageSize={pageSize}
        onPage={(p, size) => {
          setPage(p);
          setPageSize(size);
        }}
        testId={`${testIdPrefix}-log-table`}
        ns={ns}
      />
    </div>
  );
}
