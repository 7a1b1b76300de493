// A rule's access log, one site at a time (the default rule or a sub rule),
// newest first, a page at a time, level as a coloured tag. Page 1 follows new
// lines at the list's refresh interval.
import { ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Drawer, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LogTable } from '../../components/ruleLog/LogTable';
import { useWindowSize } from '../../hooks/useWindowSize';
import { fetchLogs, rpKeys } from './api';
import type { Site } from './RecentLogs';

export interface LogTarget {
  key: string;
  name: string;
  sites: Site[];
  /** The site shown first. */
  site: string;
}

export interface LogDrawerProps {
  /** The rule whose log is open; null = closed. */
  target: LogTarget | null;
  intervalMs: number;
  onClose: () => void;
}

export function LogDrawer({ target, intervalMs, onClose }: LogDrawerProps) {
  const { t } = useTranslation();
  const { width } = useWindowSize();
  return (
    <Drawer
      open={target !== null}
      onClose={onClose}
      size={width <= 768 ? '100%' : Math.min(900, width - 48)}
      destroyOnHidden
      title={t('reverseproxy.logsTitle', { name: target?.name || t('reverseproxy.unnamed') })}
      data-testid="rp-log-drawer"
    >
      {target && <LogPages key={`${target.key}-${target.site}`} target={target} intervalMs={intervalMs} />}
    </Drawer>
  );
}

function LogPages({ target, intervalMs }: { target: LogTarget; intervalMs: number }) {
  const { t } = useTranslation();
  const [site, setSite] = useState(target.site);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const query = useQuery({
    queryKey: [...rpKeys.logs(target.key, site), page, pageSize],
    queryFn: ({ signal }) => fetchLogs(target.key, { site, page, pageSize }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: page === 1 ? intervalMs : false,
    refetchIntervalInBackground: false,
  });
  const data = query.data;

  return (
    <div className="rp-log-pages">
      <Space className="rp-log-toolbar" wrap>
        <Typography.Text>{t('reverseproxy.logSite')}</Typography.Text>
        <Select<string>
          value={site}
          onChange={(s) => {
            setSite(s);
            setPage(1);
          }}
          options={target.sites.map((s) => ({ value: s.key, label: s.label }))}
          popupMatchSelectWidth={false}
          style={{ minWidth: 200, maxWidth: 360 }}
          data-testid="rp-log-site"
        />
        <Button
          icon={<ReloadOutlined />}
          loading={query.isFetching}
          onClick={() => void query.refetch()}
          data-testid="rp-log-refresh"
        >
          {t('common.refresh')}
        </Button>
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
        testId="rp-log-table"
        ns="reverseproxy"
      />
    </div>
  );
}
