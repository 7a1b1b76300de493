// The scheduled-task screen: the module switch, import / export, and the task list — schedule in
// words and raw, next run (display zone), last result, the task's switch, run now, history, edit,
// delete. The dialog and the history drawer are their own files.
import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { CRON_LIMITS, type CronSchedule, type CronTaskView } from '@lucky/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, InputNumber, Popconfirm, Space, Switch, Table, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureOf } from '../../api/callErrors';
import { saveBlob } from '../../api/client';
import { formatTime, useDisplayTimeZone } from '../../components/time';
import { failureText } from '../../hooks/useFormErrors';
import { useWindowSize } from '../../hooks/useWindowSize';
import { htmlLang, isLanguage } from '../../i18n';
import {
  cronKeys,
  deleteTask,
  exportTasks,
  fetchTasks,
  importTasks,
  runTask,
  saveSettings,
  switchModule,
  switchTask,
} from './api';
import { parseSchedule } from './cronFields';
import { describeSchedule } from './describe';
import { formatDuration, RESULT_COLORS } from './format';
import { HistoryDrawer } from './HistoryDrawer';
import { TaskDialog } from './TaskDialog';
import { tasksOfExport } from './taskForm';
import './cron.css';

export default function CronScreen() {
  const { t, i18n } = useTranslation();
  useDisplayTimeZone();
  const lang = htmlLang(isLanguage(i18n.language) ? i18n.language : 'zh_CN');
  const { message } = App.useApp();
  // Phone width: one card per task (a seven-column table would hide its buttons off-screen).
  const narrow = useWindowSize().width <= 640;
  const qc = useQueryClient();
  // Faster while a task runs, so its end (result, next run) shows soon after it comes.
  const list = useQuery({
    queryKey: cronKeys.list,
    queryFn: ({ signal }) => fetchTasks(signal),
    refetchInterval: (q) => (q.state.data?.list.some((x) => x.status.running > 0 || x.status.queued) ? 1000 : 5000),
  });
  const [editing, setEditing] = useState<CronTaskView | 'new' | undefined>();
  const [history, setHistory] = useState<{ key: string; name: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: cronKeys.all });

  /** A call whose failure the request client has already shown in the user's language. */
  const act = async (fn: () => Promise<unknown>, done?: string) => {
    try {
      await fn();
      if (done) void message.success(done);
    } catch {
      // shown by the client
    }
    await refresh();
  };

  const doExport = () =>
    act(async () => {
      const data = await exportTasks();
      saveBlob(
        new Blob([JSON.stringify({ tasks: data.tasks }, null, 2)], { type: 'application/json' }),
        'lucky-cron-tasks.json',
      );
    });
  const doImport = async (file: File) => {
    const tasks = tasksOfExport(await file.text());
    if (!tasks) {
      void message.error(t('cron.ui_importNotExport'));
      return;
    }
    try {
      const r = await importTasks(tasks, 'add');
      void message.success(t('cron.ui_imported', { count: r.added }));
    } catch (err) {
      const f = failureOf(err);
      // Nothing is added when one task is refused: say which, in the user's words.
      void message.error(
        f ? t('cron.ui_importRefused', { text: failureText(t, 'cron', f) }) : t('cron.ui_importFailed'),
      );
    }
    await refresh();
  };

  const scheduleWords = (s: CronSchedule) => {
    if (s.kind === 'interval') return t('cron.ui_everyInterval', { every: s.every, unit: t(`cron.ui_unit_${s.unit}`) });
    const parsed = parseSchedule(s.expression);
    return parsed ? describeSchedule(t, lang, parsed) : '';
  };

  const buttons = (task: CronTaskView) => (
    <Space size={4} wrap>
      <Button
        size="small"
        data-testid="cron-run"
        onClick={() =>
          act(async () => {
            const r = await runTask(task.key);
            void message.info(t(`cron.ui_runOutcome_${r.outcome}`));
          })
        }
      >
        {t('cron.ui_runNow')}
      </Button>
      <Button
        size="small"
        data-testid="cron-history-open"
        onClick={() => setHistory({ key: task.key, name: task.name })}
      >
        {t('cron.ui_history')}
      </Button>
      <Button size="small" data-testid="cron-edit" onClick={() => setEditing(task)}>
        {t('cron.ui_edit')}
      </Button>
      <Popconfirm
        title={t('cron.ui_deleteConfirm', { name: task.name })}
        onConfirm={() => act(() => deleteTask(task.key))}
      >
        <Button size="small" danger data-testid="cron-delete">
          {t('cron.ui_delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
  const enabledSwitch = (task: CronTaskView) => (
    <Switch
      size="small"
      checked={task.enabled}
      data-testid={`cron-task-switch-${task.key}`}
      onChange={(v) => act(() => switchTask(task.key, v))}
    />
  );
  const scheduleCell = (s: CronSchedule) => (
    <div className="cron-schedule-cell">
      <div>{scheduleWords(s)}</div>
      {s.kind === 'cron' && <code className="cron-mono">{s.expression}</code>}
    </div>
  );
  const nextRun = (task: CronTaskView) =>
    task.status.nextRun ? (
      <span data-testid="cron-next-run">{formatTime(task.status.nextRun)}</span>
    ) : (
      <Typography.Text type="secondary">—</Typography.Text>
    );

  const data = list.data;
  const tasks = data?.list ?? [];
  return (
    <Card
      title={t('menu.cron')}
      data-testid="cron-screen"
      className="cron-screen"
      extra={
        <Space wrap>
          <span>{t('cron.ui_moduleSwitch')}</span>
          <Switch
            data-testid="cron-module-switch"
            checked={data?.enabled ?? false}
            loading={list.isLoading}
            onChange={(on) => act(() => switchModule(on))}
          />
        </Space>
      }
    >
      <Space wrap className="cron-toolbar">
        <Button type="primary" icon={<PlusOutlined />} data-testid="cron-add" onClick={() => setEditing('new')}>
          {t('cron.ui_add')}
        </Button>
        <Button icon={<UploadOutlined />} data-testid="cron-import" onClick={() => fileInput.current?.click()}>
          {t('cron.ui_import')}
        </Button>
        <Button icon={<DownloadOutlined />} data-testid="cron-export" disabled={tasks.length === 0} onClick={doExport}>
          {t('cron.ui_export')}
        </Button>
        {data && (
          <Space size={4}>
            <Typography.Text type="secondary">{t('cron.ui_historySize')}</Typography.Text>
            <InputNumber
              size="small"
              // No min / max: a value out of range is refused by the server with its range, never clamped.
              precision={0}
              // Keyed by the stored value: a refused or other change shows what is stored.
              key={data.historySize}
              defaultValue={data.historySize}
              data-testid="cron-history-size"
              className="cron-history-size"
              onBlur={(e) => {
                const n = Number(e.target.value);
                if (Number.isInteger(n) && n >= 1 && n <= CRON_LIMITS.historyMax && n !== data.historySize)
                  void act(() => saveSettings(n), t('cron.ui_saved'));
              }}
            />
          </Space>
        )}
        {data?.timeZone && (
          <Typography.Text type="secondary" data-testid="cron-zone">
            {t('cron.ui_zone', { zone: data.timeZone })}
          </Typography.Text>
        )}
        <input
          ref={fileInput}
          type="file"
          accept="application/json,.json"
          hidden
          data-testid="cron-import-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void doImport(file);
          }}
        />
      </Space>
      {narrow ? (
        <div className="cron-cards">
          {tasks.length === 0 && !list.isLoading && <Empty description={t('cron.ui_empty')} />}
          {tasks.map((task) => (
            <Card key={task.key} size="small" title={task.name} extra={enabledSwitch(task)} className="cron-card">
              {scheduleCell(task.schedule)}
              <div className="cron-card-line">
                <Typography.Text type="secondary">{t('cron.col_nextRun')}</Typography.Text> {nextRun(task)}
              </div>
              <div className="cron-card-line">
                <Typography.Text type="secondary">{t('cron.col_lastRun')}</Typography.Text> <LastRun task={task} />
              </div>
              {buttons(task)}
            </Card>
          ))}
        </div>
      ) : (
        <Table<CronTaskView>
          rowKey="key"
          size="small"
          loading={list.isLoading}
          dataSource={tasks}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('cron.ui_empty') }}
          columns={[
            { title: t('cron.col_name'), dataIndex: 'name', render: (v: string) => <strong>{v}</strong> },
            {
              title: t('cron.col_schedule'),
              dataIndex: 'schedule',
              render: (s: CronSchedule) => scheduleCell(s),
            },
            {
              title: t('cron.col_nextRun'),
              render: (_v, task) => nextRun(task),
            },
            {
              title: t('cron.col_lastRun'),
              render: (_v, task) => <LastRun task={task} />,
            },
            {
              title: t('cron.col_enabled'),
              dataIndex: 'enabled',
              render: (_on: boolean, task) => enabledSwitch(task),
            },
            {
              title: t('common.actions'),
              render: (_v, task) => buttons(task),
            },
          ]}
        />
      )}
      <TaskDialog
        task={editing}
        otherNames={tasks.filter((x) => editing === 'new' || x.key !== editing?.key).map((x) => x.name)}
        onClose={() => setEditing(undefined)}
        onSaved={() => {
          setEditing(undefined);
          void refresh();
        }}
      />
      <HistoryDrawer task={history} onClose={() => setHistory(null)} />
    </Card>
  );
}

function LastRun({ task }: { task: CronTaskView }) {
  const { t } = useTranslation();
  const { lastRun, running, queued } = task.status;
  return (
    <Space size={4} wrap data-testid="cron-last-run">
      {running > 0 && <Tag color="processing">{t('cron.ui_running')}</Tag>}
      {queued && <Tag>{t('cron.ui_queued')}</Tag>}
      {lastRun ? (
        <>
          <Tag color={RESULT_COLORS[lastRun.result]}>{t(`cron.ui_result_${lastRun.result}`)}</Tag>
          <Typography.Text type="secondary">
            {formatTime(lastRun.start)} · {formatDuration(lastRun.durationMs)}
          </Typography.Text>
        </>
      ) : (
        running === 0 && <Typography.Text type="secondary">{t('cron.ui_neverRun')}</Typography.Text>
      )}
    </Space>
  );
}
