// Network wake-up (/wol): the devices as cards (online badge refreshed live, a big Wake button
// with "wake and wait" progress, shutdown, the phone shortcut), the module switch, add / edit
// dialog, LAN scan, settings (check interval, agent mode, webhook) and the log drawer.
import { FileTextOutlined, PlusOutlined, RadarChartOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import type { WolDeviceView } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModuleAlerts } from '../../components/module/ModuleAlerts';
import { RefreshControl } from '../../components/RefreshControl';
import { formatTime } from '../../components/time';
import { fetchInterfaces, wolKeys } from './api';
import { DeviceCard } from './DeviceCard';
import { DeviceDialog } from './DeviceDialog';
import type { DeviceFormValues } from './deviceForm';
import { errorText } from './errors';
import { LogDrawer } from './LogDrawer';
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
  const [switching, setSwitching] = useState(false);
  const data = list.data;
  const moduleOn = data?.enabled ?? false;
  const devices = data?.devices ?? [];
  const interfaces = useQuery({
    queryKey: wolKeys.interfaces,
    queryFn: ({ signal }) => fetchInterfaces(signal),
    enabled: editing.open,
  });
  const otherNames = devices.filter((d) => d.key !== editing.item?.device?.key).map((d) => d.name);

  const toggleModule = async (on: boolean) => {
    setSwitching(true);
    try {
      await actions.setModuleEnabled(on);
    } finally {
      setSwitching(false);
    }
  };

  const add = (testId: string) => (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(opened<Editing>({}))} data-testid={testId}>
      {t('wol.ui_addDevice')}
    </Button>
  );

  return (
    <div className="screen wol-screen" data-testid="wol-screen">
      <div className="wol-toolbar">
        <Space wrap align="center">
          <Typography.Title level={4} className="screen-title">
            {t('menu.wol')}
          </Typography.Title>
          {data && (
            <Space size={6}>
              <Switch
                checked={moduleOn}
                loading={switching}
                onChange={(on) => void toggleModule(on)}
                aria-label={t('wol.ui_moduleSwitch')}
                data-testid="wol-module-switch"
              />
              <Typography.Text type={moduleOn ? 'success' : 'secondary'}>
                {t(moduleOn ? 'wol.ui_moduleOn' : 'wol.ui_moduleOff')}
              </Typography.Text>
            </Space>
          )}
        </Space>
        <Space wrap>
          {list.dataUpdatedAt > 0 && (
            <Typography.Text type="secondary" className="wol-updated">
              {t('wol.ui_updatedAt', { time: formatTime(list.dataUpdatedAt, 'HH:mm:ss') })}
            </Typography.Text>
          )}
          <RefreshControl value={intervalMs} onChange={setIntervalMs} />
          <Button
            icon={<ReloadOutlined />}
            loading={list.isFetching}
            onClick={() => void list.refetch()}
            aria-label={t('common.refresh')}
          />
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
        </Space>
      </div>

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
      <LogDrawer
        open={logsOpen}
        intervalMs={intervalMs}
        onClose={() => setLogsOpen(false)}
        onClear={actions.clearLogs}
      />
    </div>
  );
}
