// The server's whole log, newest first, a page at a time (sign-ins, refusals, changes); page 1
// follows new lines while open; the log can be cleared.
import { ClearOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Drawer, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LogTable } from '../../components/ruleLog/LogTable';
import { useWindowSize } from '../../hooks/useWindowSize';
import { fetchLogs, webdavKeys } from './api';
import { STATUS_INTERVAL_MS } from './useWebdav';

export interface LogDrawerProps {
  open: boolean;
  onClose: () => void;
  onClear: () => Promise<boolean>;
}

export function LogDrawer({ open, onClose, onClear }: LogDrawerProps) {
  const { t } = useTranslation();
  const { width } = useWindowSize();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={width <= 768 ? '100%' : Math.min(860, width - 48)}
      destroyOnHidden
      title={t('webdav.logsTitle')}
      data-testid="webdav-log-drawer"
    >
      {open && <LogPages onClear={onClear} />}
    </Drawer>
  );
}

function LogPages({ onClear }: { onClear: () => Promise<boolean> }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const query = useQuery({
    queryKey: [...webdavKeys.logs, page, pageSize],
    queryFn: ({ signal }) => fetchLogs({ page, pageSize }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: page === 1 ? STATUS_INTERVAL_MS : false,
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
      <Space className="webdav-log-toolbar" wrap>
        <Button icon={<ReloadOutlined />} loading={query.isFetching} onClick={() => void query.refetch()}>
          {t('common.refresh')}
        </Button>
        <Popconfirm
          title={t('webdav.clearLogsConfirm')}
          okText={t('common.confirm')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          onConfirm={() => clear()}
        >
          <Button danger icon={<ClearOutlined />} disabled={!data?.total} data-testid="webdav-logs-clear">
            {t('webdav.clearLogs')}
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
        testId="webdav-log-table"
        ns="webdav"
      />
    </div>
  );
}
