// Wanji admin (/wanjiadmin): this console manages others. One table of every console with its
// live state (the server reads each remote and backs off from those that fail; the screen
// re-reads the list every few seconds), jump-in through a one-time login link, add / edit with
// the certificate check, re-pin after a certificate change, bulk actions with per-console
// results, settings and the log drawer.
import { FileTextOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import type { WanjiConsoleView } from '@lucky/shared';
import { App, Button, Card, Empty } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModuleAlerts } from '../../components/module/ModuleAlerts';
import { ModuleHeader } from '../../components/module/ModuleHeader';
import { useModuleSwitch } from '../../components/module/useModuleSwitch';
import { ServiceLogDrawer } from '../../components/ruleLog/ServiceLogDrawer';
import { fetchLogs, loginLink, wanjiKeys } from './api';
import { BulkBar } from './BulkBar';
import { type BulkOutcome, BulkResultsDialog } from './BulkResultsDialog';
import { ConsoleCards } from './ConsoleCards';
import { ConsoleDialog } from './ConsoleDialog';
import { ConsolesTable } from './ConsolesTable';
import type { ConsolesListProps } from './consoleParts';
import { errorText } from './errors';
import { jumpIn } from './jumpIn';
import { RepinDialog } from './RepinDialog';
import { SettingsDialog } from './SettingsDialog';
import { usePhone } from './usePhone';
import { useConsoles, useWanjiActions } from './useWanji';
import './wanji.css';

/** The list is re-read this often; the server does the polling of the remotes. */
const DEFAULT_INTERVAL_MS = 5000;

interface DialogState<T> {
  seq: number;
  open: boolean;
  item?: T;
}
const opened =
  <T,>(item?: T) =>
  (d: DialogState<T>) => ({ seq: d.seq + 1, open: true, item });
const closed = <T,>(d: DialogState<T>) => ({ ...d, open: false });
const shut = { seq: 0, open: false };

export default function WanjiAdminScreen() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [intervalMs, setIntervalMs] = useState(DEFAULT_INTERVAL_MS);
  const list = useConsoles(intervalMs);
  const actions = useWanjiActions();
  const [editing, setEditing] = useState<DialogState<WanjiConsoleView>>(shut);
  const [settingsDialog, setSettingsDialog] = useState<DialogState<never>>(shut);
  const [repin, setRepin] = useState<WanjiConsoleView | undefined>();
  const [outcome, setOutcome] = useState<BulkOutcome | undefined>();
  const [logsOpen, setLogsOpen] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const data = list.data;
  const moduleOn = data?.enabled ?? false;
  const consoles = data?.list ?? [];
  const picked = consoles.filter((c) => selected.includes(c.key));
  const phone = usePhone();

  const { busy: switching, toggle: toggleModule } = useModuleSwitch(actions.setModuleEnabled);

  // Must run inside the click itself: the tab is opened before the link is asked for (jumpIn.ts).
  const open = (c: WanjiConsoleView) => {
    void jumpIn(() => loginLink(c.key).then((r) => r.url)).then((r) => {
      if (r.ok) return;
      if ('blocked' in r) {
        modal.info({
          title: t('wanji_admin.ui_popupBlocked'),
          content: (
            <a href={r.url} target="_blank" rel="noreferrer" data-testid="wanji-open-link">
              {t('wanji_admin.ui_openLink', { name: c.name })}
            </a>
          ),
        });
        return;
      }
      const text = errorText(r.error, t);
      if (text)
        void message.error({ content: t('wanji_admin.ui_openFailed', { name: c.name, reason: text }), duration: 10 });
    });
  };

  const add = (testId: string) => (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      onClick={() => setEditing(opened<WanjiConsoleView>())}
      data-testid={testId}
    >
      {t('wanji_admin.ui_add')}
    </Button>
  );

  // The same list, selection and actions for the table and for the phone's cards.
  const listProps: ConsolesListProps = {
    consoles,
    loading: false,
    selected,
    onSelect: setSelected,
    onOpen: open,
    onRefresh: actions.refreshNow,
    onEdit: (c) => setEditing(opened(c)),
    onToggle: (c, on) => actions.setConsoleEnabled(c.key, on),
    onDelete: (c) => {
      setSelected((s) => s.filter((k) => k !== c.key));
      return actions.remove(c);
    },
    onRepin: setRepin,
    empty: <Empty description={t('wanji_admin.ui_noConsoles')}>{add('wanji-add-first')}</Empty>,
  };

  return (
    <div className="screen wanji-screen" data-testid="wanji_admin-screen">
      <ModuleHeader
        title={t('menu.wanji_admin')}
        prefix="wanji"
        className="wanji-toolbar"
        moduleSwitch={
          data && {
            checked: moduleOn,
            onChange: (on) => void toggleModule(on),
            busy: switching,
            label: t('wanji_admin.ui_moduleSwitch'),
            testId: 'wanji_admin-module-switch',
            words: { on: t('wanji_admin.ui_moduleOn'), off: t('wanji_admin.ui_moduleOff') },
          }
        }
        query={list}
        updatedAtKey="wanji_admin.ui_updatedAt"
        interval={{ value: intervalMs, onChange: setIntervalMs }}
        compactRefresh
      >
        <Button icon={<FileTextOutlined />} onClick={() => setLogsOpen(true)} data-testid="wanji-open-logs">
          {t('wanji_admin.ui_logs')}
        </Button>
        <Button
          icon={<SettingOutlined />}
          disabled={!data}
          onClick={() => setSettingsDialog(opened())}
          data-testid="wanji-open-settings"
        >
          {t('wanji_admin.ui_settings')}
        </Button>
        {add('wanji-add')}
      </ModuleHeader>

      <ModuleAlerts
        testId="wanji"
        loadError={
          list.isError && !data && { title: t('wanji_admin.ui_loadError'), description: errorText(list.error, t) }
        }
        off={
          data &&
          !moduleOn && {
            title: t('wanji_admin.ui_moduleDisabled'),
            help: t('wanji_admin.ui_moduleDisabledHelp'),
            enable: { text: t('wanji_admin.ui_enableModule'), onClick: () => void toggleModule(true) },
          }
        }
        loading={!data && list.isPending}
      />

      {picked.length > 0 && (
        <BulkBar
          keys={picked.map((c) => c.key)}
          names={picked.map((c) => c.name)}
          onDone={(o) => {
            setOutcome(o);
            void actions.refresh();
          }}
          onClear={() => setSelected([])}
        />
      )}

      {data &&
        (phone ? (
          <ConsoleCards {...listProps} />
        ) : (
          <Card size="small" className="wanji-card">
            <ConsolesTable {...listProps} />
          </Card>
        ))}

      <ConsoleDialog
        key={`console-${editing.seq}`}
        open={editing.open}
        console={editing.item}
        onClose={() => setEditing(closed)}
        onSaved={(c) => {
          actions.patch(c);
          void actions.refresh();
          setEditing(closed);
        }}
      />
      {data && (
        <SettingsDialog
          key={`settings-${settingsDialog.seq}`}
          open={settingsDialog.open}
          settings={data.settings}
          onClose={() => setSettingsDialog(closed)}
          onSaved={() => {
            void actions.refresh();
            setSettingsDialog(closed);
          }}
        />
      )}
      <RepinDialog
        console={repin}
        onClose={() => setRepin(undefined)}
        onSaved={(c) => {
          actions.patch(c);
          setRepin(undefined);
          void actions.refresh();
        }}
      />
      <BulkResultsDialog outcome={outcome} onClose={() => setOutcome(undefined)} />
      <ServiceLogDrawer
        open={logsOpen}
        intervalMs={intervalMs}
        onClose={() => setLogsOpen(false)}
        onClear={actions.clearLogs}
        ns="wanji_admin"
        wordsPrefix="ui_"
        queryKey={wanjiKeys.logs}
        fetchLogs={fetchLogs}
        testIdPrefix="wanji"
      />
    </div>
  );
}
