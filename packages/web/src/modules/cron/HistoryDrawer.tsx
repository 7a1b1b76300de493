// A task's runs, newest first: start, what started it, duration, result; a run opens to each
// action's result and output (monospace, scrolled inside a bounded box; the server keeps at most
// CRON_LIMITS.outputBytes of it). Refreshed while open, so a run started here shows up.
import type { CronActionRun, CronRun } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { Drawer, Empty, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/time';
import { useWindowSize } from '../../hooks/useWindowSize';
import { codedText } from '../../i18n/coded';
import { cronKeys, fetchHistory } from './api';
import { formatDuration, RESULT_COLORS } from './format';

export interface HistoryDrawerProps {
  task: { key: string; name: string } | null;
  onClose: () => void;
}

export function HistoryDrawer({ task, onClose }: HistoryDrawerProps) {
  const { t } = useTranslation();
  const { width } = useWindowSize();
  return (
    <Drawer
      open={task !== null}
      onClose={onClose}
      size={width <= 768 ? '100%' : Math.min(860, width - 48)}
      destroyOnHidden
      title={t('cron.ui_historyTitle', { name: task?.name ?? '' })}
      data-testid="cron-history"
    >
      {task && <Runs taskKey={task.key} />}
    </Drawer>
  );
}

function Runs({ taskKey }: { taskKey: string }) {
  const { t } = useTranslation();
  const query = useQuery({
    queryKey: cronKeys.history(taskKey),
    queryFn: ({ signal }) => fetchHistory(taskKey, signal),
    refetchInterval: 2000,
    refetchIntervalInBackground: false,
  });
  const runs = query.data?.list ?? [];
  return (
    <Table<CronRun>
      rowKey="id"
      size="small"
      loading={query.isLoading}
      dataSource={runs}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty description={t('cron.ui_noRuns')} /> }}
      expandable={{
        expandedRowRender: (run) => <RunDetail run={run} />,
        rowExpandable: (run) => run.actions.length > 0,
      }}
      columns={[
        { title: t('cron.col_start'), dataIndex: 'start', render: (v: string) => formatTime(v) },
        { title: t('cron.col_trigger'), dataIndex: 'trigger', render: (v: string) => t(`cron.ui_trigger_${v}`) },
        { title: t('cron.col_duration'), dataIndex: 'durationMs', render: (v: number) => formatDuration(v) },
        {
          title: t('cron.col_result'),
          dataIndex: 'result',
          render: (v: CronRun['result'], run) => (
            <span data-testid="cron-run-result">
              <Tag color={RESULT_COLORS[v]}>{t(`cron.ui_result_${v}`)}</Tag>
              {run.reason && (
                <Typography.Text type="secondary">{codedText('cron', 'reason', run.reason)}</Typography.Text>
              )}
            </span>
          ),
        },
      ]}
    />
  );
}

function RunDetail({ run }: { run: CronRun }) {
  const { t } = useTranslation();
  return (
    <div className="cron-run-detail" data-testid="cron-run-detail">
      {run.actions.map((a: CronActionRun, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a run's actions are fixed, in order
        <div key={i} className="cron-run-action">
          <div>
            <strong>
              {i + 1}. {t(`cron.ui_type_${a.type}`)}
            </strong>{' '}
            <Tag color={RESULT_COLORS[a.result]}>{t(`cron.ui_result_${a.result}`)}</Tag>
            <Typography.Text type="secondary">
              {formatDuration(a.durationMs)}
              {a.exitCode !== undefined && ` · ${t('cron.ui_exitCode', { code: a.exitCode })}`}
              {a.status !== undefined && ` · HTTP ${a.status}`}
            </Typography.Text>
          </div>
          {a.reason && <Typography.Text type="danger">{codedText('cron', 'reason', a.reason)}</Typography.Text>}
          {a.output !== '' && (
            <pre className="cron-output" data-testid="cron-run-output">
              {a.output}
              {a.truncated && `\n${t('cron.ui_truncated')}`}
            </pre>
          )}
        </div>
      ))}
    </div>
  );
}
