// Network wake-up (/wol): the devices as cards (online badge refreshed live, a big Wake button
// with "wake and wait" progress, shutdown, the phone shortcut), the module switch, add / edit
// dialog, LAN scan, settings (check interval, agent mode, webhook) and the log drawer.
import { FileTextOutlined, PlusOutlined, RadarChartOutlined, SettingOutlined } from '@ant-design/icons';
import type { WolDeviceView } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModuleAlerts } from '../../components/module/ModuleAlerts';
import { ModuleHeader } from '../../components/module/ModuleHeader';
import { useModuleSwitch } from '../../components/module/useModuleSwitch';
import { ServiceLogDrawer } from '../../components/ruleLog/ServiceLogDrawer';
import { fetchInterfaces, fetchLogs, wolKeys } from './api';
import { DeviceCard } from './DeviceCard';
import { DeviceDialog } from './DeviceDialog';
import type { DeviceFormValues } from './deviceForm';
import { errorText } from './errors';
import { ScanDialog } from './ScanDialog';
import { SettingsDialog } from './SettingsDialog';
import { ShortcutDialog } from './ShortcutDialog';
import { useDevices, useWolActions } from './useWol';
import './wol.css';

const DEFAULT_INTERVAL_MS = 5000;

/** A dialog's state; `seq` keys the dialog so each opening starts from a fresh form. */
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

type Editing = { device?: WolDeviceView; prefill?: Partial<DeviceFormValues> };

export default function WolScreen() {
  const { t } = useTranslation();
  const [intervalMs, setIntervalMs] = useState(DEFAULT_INTERVAL_MS);
  const list = useDevices(intervalMs);
  const actions = useWolActions();
  const [editing, setEditing] = useState<DialogState<Editing>>(shut);
  const [settingsDialog, setSettingsDialog] = useState<DialogState<never>>(shut);
  const [scanOpen, setScanOpen] = useState(false);
  const [shortcut, setShortcut] = useState<WolDeviceView | null>(null);
  const [logsOpen, setLogsOpen] = useState(false);
  const data = list.data;
  const moduleOn = data?.enabled ?? false;
  const devices = data?.devices ?? [];
  const interfaces = useQuery({
    queryKey: wolKeys.interfaces,
    queryFn: ({ signal }) => fetchInterfaces(signal),
    enabled: editing.open,
  });
  const otherNames = devices.filter((d) => d.key !== editing.item?.device?.key).map((d) => d.name);

  const { busy: switching, toggle: toggleModule } = useModuleSwitch(actions.setModuleEnabled);

  const add = (testId: string) => (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(opened<Editing>({}))} data-testid={testId}>
      {t('wol.ui_addDevice')}
    </Button>
  );

  return (
    <div className="screen wol-screen" data-testid="wol-screen">
      <ModuleHeader
        title={t('menu.wol')}
        prefix="wol"
        className="wol-toolbar"
        moduleSwitch={
          data && {
            checked: moduleOn,
            onChange: (on) => void toggleModule(on),
            busy: switching,
            label: t('wol.ui_moduleSwitch'),
            testId: 'wol-module-switch',
            words: { on: t('wol.ui_moduleOn'), off: t('wol.ui_moduleOff') },
          }
        }
        query={list}
        updatedAtKey="wol.ui_updatedAt"
        wideOnlyUpdatedAt
        interval={{ value: intervalMs, onChange: setIntervalMs }}
        compactRefresh
      >
        <Button icon={<FileTextOutlined />} onClick={() => setLogsOpen(true)} data-testid="wol-open-logs">
          {t('wol.ui_logs')}
        </Button>
        <Button
          icon={<SettingOutlined />}
          disabled={!data}
          onClick={() => setSettingsDialog(opened())}
          data-testid="wol-open-settings"
        >
          {t('wol.ui_settings')}
        </Button>
        <Button icon={<RadarChartOutlined />} onClick={() => setScanOpen(true)} data-testid="wol-open-scan">
          {t('wol.ui_scan')}
        </Button>
        {add('wol-add')}
      </ModuleHeader>

      <ModuleAlerts
        testId="wol"
        loadError={list.isError && !data && { title: t('wol.ui_loadError'), description: errorText(list.error, t) }}
        off={
          data &&
          !moduleOn && {
            title: t('wol.ui_moduleDisabled'),
            help: t('wol.ui_moduleDisabledHelp'),
            enable: { text: t('wol.ui_enableModule'), onClick: () => void toggleModule(true) },
          }
        }
        loading={!data && list.isPending}
      />

      {data && devices.length === 0 && (
        <Card>
          <Empty description={t('wol.ui_noDevices')}>{add('wol-add-first')}</Empty>
        </Card>
      )}

      {devices.length > 0 && (
        <div className="wol-devices" data-testid="wol-devices">
          {devices.map((d) => (
            <DeviceCard
              key={d.key}
              device={d}
              moduleOn={moduleOn}
              onWake={() => actions.wake(d)}
              onShutdown={() => actions.shutdown(d)}
              onToggle={(on) => actions.setDeviceEnabled(d.key, on)}
              onEdit={() => setEditing(opened<Editing>({ device: d }))}
              onShortcut={() => setShortcut(d)}
              onDelete={() => actions.remove(d)}
            />
          ))}
        </div>
      )}

      <DeviceDialog
        key={`device-${editing.seq}`}
        open={editing.open}
        device={editing.item?.device}
        prefill={editing.item?.prefill}
        otherNames={otherNames}
        interfaces={interfaces.data?.list ?? []}
        sshAvailable={data?.sshAvailable ?? true}
        pingAvailable={data?.pingAvailable ?? true}
        onClose={() => setEditing(closed)}
        onSaved={(d) => {
          actions.patch(d);
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
      <ScanDialog
        open={scanOpen}
        onClose={() => setScanOpen(false)}
        onAdd={(c, iface) => {
          setScanOpen(false);
          setEditing(
            opened<Editing>({
              prefill: {
                name: c.hostname || c.ip,
                macs: [c.mac],
                interface: iface?.name ?? '',
                check: { host: c.ip, tcpPort: c.openPorts[0] ?? null, ping: true },
              },
            }),
          );
        }}
      />
      <ShortcutDialog device={shortcut} onClose={() => setShortcut(null)} />
      <ServiceLogDrawer
        open={logsOpen}
        intervalMs={intervalMs}
        onClose={() => setLogsOpen(false)}
        onClear={actions.clearLogs}
        ns="wol"
        wordsPrefix="ui_"
        queryKey={wolKeys.logs}
        fetchLogs={fetchLogs}
        testIdPrefix="wol"
      />
    </div>
  );
}
