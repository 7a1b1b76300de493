// The server's log, newest first, a page at a time: connections, logins, transfers, refusals,
// each coded line in the UI language; level as a coloured tag; the log can be cleared. Page 1
// follows new lines at the screen's interval.
import { ClearOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Drawer, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LogTable } from '../../components/ruleLog/LogTable';
import { useWindowSize } from '../../hooks/useWindowSize';
import { fetchLogs, ftpKeys } from './api';

export interface LogDrawerProps {
  open: boolean;
  intervalMs: number;
  onClose: () => void;
  onClear: () => Promise<boolean>;
}

export function LogDrawer({ open, intervalMs, onClose, onClear }: LogDrawerProps) {
  const { t } = useTranslation();
  const { width } = useWindowSize();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={width <= 768 ? '100%' : Math.min(960, width - 48)}
      destroyOnHidden
      title={t('ftpserver.logsTitle')}
      data-testid="ftp-log-drawer"
    >
      {open && <LogPages intervalMs={intervalMs} onClear={onClear} />}
    </Drawer>
  );
}

function LogPages({ intervalMs, onClear }: { intervalMs: number; onClear: LogDrawerProps['onClear'] }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const query = useQuery({
    queryKey: [...ftpKeys.logs, page, pageSize],
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
      <Space className="ftp-log-toolbar" wrap>
        <Button icon={<ReloadOutlined />} loading={query.isFetching} onClick={() => void query.refetch()}>
          {t('common.refresh')}
        </Button>
        <Popconfirm
          title={t('ftpserver.clearLogsConfirm')}
          okText={t('common.confirm')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => clear()}
        >
          <Button danger icon={<ClearOutlined />} disabled={!data?.total} data-testid="ftp-logs-clear">
            {t('ftpserver.clearLogs')}
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
        testId="ftp-log-table"
        ns="ftpserver"
      />
    </div>
  );
}
