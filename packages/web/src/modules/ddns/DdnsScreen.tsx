// Dynamic DNS (/ddns): the task list with each domain's sync status, refreshed by itself at
// the chosen interval; add/edit dialog, global settings, history and log drawer.
import { PlusOutlined, SettingOutlined } from '@ant-design/icons';
import type { DdnsTaskView } from '@lucky/shared';
import { Button, Card, Empty } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModuleAlerts } from '../../components/module/ModuleAlerts';
import { ModuleHeader } from '../../components/module/ModuleHeader';
import { useModuleSwitch } from '../../components/module/useModuleSwitch';
import { useWebhookTest } from '../../components/webhook/useWebhookTest';
import { testWebhook } from './api';
import { errorText } from './errors';
import { SettingsDialog } from './SettingsDialog';
import { TaskCard } from './TaskCard';
import { TaskDialog } from './TaskDialog';
import { type DrawerTab, TaskDrawer } from './TaskDrawer';
import { useDdnsActions, useTasks } from './useDdns';
import './ddns.css';

const DEFAULT_INTERVAL_MS = 5000;

/** A dialog's state; `seq` keys the dialog so each opening starts from a fresh form. */
interface DialogState {
  seq: number;
  open: boolean;
  task?: DdnsTaskView;
}
const opened = (task?: DdnsTaskView) => (d: DialogState) => ({ seq: d.seq + 1, open: true, task });
const closed = (d: DialogState) => ({ ...d, open: false });

export default function DdnsScreen() {
  const { t } = useTranslation();
  const [intervalMs, setIntervalMs] = useState(DEFAULT_INTERVAL_MS);
  const tasks = useTasks(intervalMs);
  const actions = useDdnsActions();
  const [editing, setEditing] = useState<DialogState>({ seq: 0, open: false });
  const [settings, setSettings] = useState<DialogState>({ seq: 0, open: false });
  const [drawer, setDrawer] = useState<{ key: string; tab: DrawerTab } | null>(null);
  const webhookTest = useWebhookTest('ddns');
  const data = tasks.data;
  const serviceOn = data?.enabled ?? false;
  const drawerTask = drawer ? (data?.list.find((x) => x.key === drawer.key) ?? null) : null;

  const { busy: switching, toggle: toggleService } = useModuleSwitch(actions.setServiceEnabled);

  return (
    <div className="screen ddns-screen" data-testid="ddns-screen">
      <ModuleHeader
        title={t('ddns.title')}
        prefix="ddns"
        className="ddns-toolbar"
        moduleSwitch={
          data && {
            checked: serviceOn,
            onChange: (on) => void toggleService(on),
            busy: switching,
            label: t('ddns.serviceSwitch'),
            testId: 'ddns-service-switch',
            words: { on: t('ddns.serviceOn'), off: t('ddns.serviceOff') },
          }
        }
        query={tasks}
        updatedAtKey="ddns.updatedAt"
        interval={{ value: intervalMs, onChange: setIntervalMs }}
      >
        <Button icon={<SettingOutlined />} onClick={() => setSettings(opened())} data-testid="ddns-open-settings">
          {t('ddns.settings')}
        </Button>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(opened())} data-testid="ddns-add-task">
          {t('ddns.addTask')}
        </Button>
      </ModuleHeader>

      <ModuleAlerts
        testId="ddns"
        ids={{ off: 'ddns-service-disabled', enable: 'ddns-service-enable' }}
        loadError={tasks.isError && !data && { title: t('ddns.loadError'), description: errorText(tasks.error, t) }}
        off={
          data &&
          !serviceOn && {
            title: t('ddns.serviceDisabled'),
            help: t('ddns.serviceDisabledHelp'),
            enable: { text: t('ddns.enableService'), onClick: () => void toggleService(true) },
          }
        }
        loading={!data && tasks.isPending}
      />

      {data && data.list.length === 0 && (
        <Card>
          <Empty description={t('ddns.noTasks')}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(opened())}>
              {t('ddns.addTask')}
            </Button>
          </Empty>
        </Card>
      )}

      {data?.list.map((task) => (
        <TaskCard
          key={task.key}
          task={task}
          serviceOn={serviceOn}
          onToggle={(on) => actions.setTaskEnabled(task.key, on)}
          onSync={() => actions.syncNow(task.key)}
          onEdit={() => setEditing(opened(task))}
          onDelete={() => actions.removeTask(task.key)}
          onTestWebhook={() => webhookTest.run(() => testWebhook(task.webhook, task.key))}
          onHistory={() => setDrawer({ key: task.key, tab: 'ip' })}
          onLogs={() => setDrawer({ key: task.key, tab: 'log' })}
        />
      ))}

      <TaskDialog
        key={`task-${editing.seq}`}
        open={editing.open}
        task={editing.task}
        onClose={() => setEditing(closed)}
        onSaved={(task) => {
          actions.taskSaved(task);
          setEditing(closed);
        }}
      />
      <SettingsDialog key={`settings-${settings.seq}`} open={settings.open} onClose={() => setSettings(closed)} />
      <TaskDrawer
        task={drawerTask}
        tab={drawer?.tab ?? 'log'}
        onTab={(tab) => setDrawer((d) => (d ? { ...d, tab } : d))}
        intervalMs={intervalMs}
        onClose={() => setDrawer(null)}
      />
      {webhookTest.resultModal}
    </div>
  );
}
