// One page of a rule's log (port forwarding rule, web service site): time, level, text, with
// the pager. The drawers around it differ (clear button, site selector); the table does not.
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { codedText } from '../../i18n/coded';
import { LevelTag } from './LevelTag';
import { logTime } from './levels';

export interface RuleLogLine {
  seq: number;
  time: string;
  level: number;
  text: string;
  /** Coded lines are shown in the UI language (`<ns>.log.<code>`). */
  code?: string;
  params?: Record<string, unknown>;
}

export const LOG_PAGE_SIZES = [20, 50, 100, 200];

export interface LogTableProps {
  data: { total: number; logs: RuleLogLine[] } | undefined;
  loading: boolean;
  page: number;
  pageSize: number;
  onPage(page: number, pageSize: number): void;
  testId: string;
  /** The module whose `log.<code>` translations name its coded lines. */
  ns?: string;
}

export function LogTable({ data, loading, page, pageSize, onPage, testId, ns = 'common' }: LogTableProps) {
  const { t } = useTranslation();
  return (
    <Table<RuleLogLine>
      size="small"
      rowKey="seq"
      loading={loading}
      dataSource={data?.logs ?? []}
      locale={{ emptyText: t('common.noLogs') }}
      scroll={{ x: 560 }}
      data-testid={testId}
      pagination={{
        current: page,
        pageSize,
        total: data?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: LOG_PAGE_SIZES,
        showTotal: (total) => t('common.logsTotal', { total }),
        // A new page size starts again at page 1.
        onChange: (p, size) => onPage(size !== pageSize ? 1 : p, size),
      }}
      columns={[
        {
          title: t('common.logTime'),
          dataIndex: 'time',
          width: 170,
          render: (v: string) => <span className="mono rule-log-nowrap">{logTime(v, true)}</span>,
        },
        {
          title: t('common.logLevelShort'),
          dataIndex: 'level',
          width: 84,
          render: (v: number) => <LevelTag level={v} />,
        },
        {
          title: t('common.logText'),
          dataIndex: 'text',
          render: (_v: string, line: RuleLogLine) => (
            <span className="mono rule-log-text">{codedText(ns, 'log', line)}</span>
          ),
        },
      ]}
    />
  );
}
