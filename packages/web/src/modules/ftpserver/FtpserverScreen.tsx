// The FTP server (/ftpserver): its state at a glance (module switch, where it listens, TLS,
// sessions, traffic), what to type into each client, the published folders (mounts of storage
// management's storages), the users with their access per mount, the live sessions, the settings
// dialog and the log.
import { FileTextOutlined, SettingOutlined } from '@ant-design/icons';
import type { FtpserverMountView, FtpserverUserView } from '@lucky/shared';
import { Button, Card } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModuleAlerts } from '../../components/module/ModuleAlerts';
import { ModuleHeader } from '../../components/module/ModuleHeader';
import { ServiceLogDrawer } from '../../components/ruleLog/ServiceLogDrawer';
import { fetchLogs, ftpKeys } from './api';
import { ConnectionHelp } from './ConnectionHelp';
import { closed, type DialogState, opened, shut } from './dialogState';
import { errorText } from './errors';
import { MountDialog } from './MountDialog';
import { MountsCard } from './MountsCard';
import { useStorages } from './pickers';
import { SessionsCard } from './SessionsCard';
import { SettingsDialog } from './SettingsDialog';
import { StatusBar } from './StatusBar';
import { UserDialog } from './UserDialog';
import { UsersCard } from './UsersCard';
import { useFtpActions, useFtpData } from './useFtpserver';
import './ftpserver.css';

const DEFAULT_INTERVAL_MS = 5000;

export default function FtpserverScreen() {
  const { t } = useTranslation();
  const [intervalMs, setIntervalMs] = useState(DEFAULT_INTERVAL_MS);
  const { status, settings, mounts, users } = useFtpData(intervalMs);
  const actions = useFtpActions();
  const [settingsOpen, setSettingsOpen] = useState<DialogState<never>>(shut);
  const [mountEdit, setMountEdit] = useState<DialogState<FtpserverMountView>>(shut);
  const [userEdit, setUserEdit] = useState<DialogState<FtpserverUserView>>(shut);
  const [logsOpen, setLogsOpen] = useState(false);

  const st = status.data?.status;
  const conf = settings.data?.settings;
  const mountList = mounts.data?.list ?? [];
  const userList = users.data?.list ?? [];
  const loadError = [status, settings, mounts, users].find((q) => q.isError && !q.data)?.error;
  const sampleUser = userList.find((u) => u.enabled)?.name;
  const storages = useStorages(true);
  const storageNames = useMemo(() => new Map(storages.list.map((s) => [s.key, s.name])), [storages.list]);

  return (
    <div className="screen ftp-screen" data-testid="ftpserver-screen">
      <ModuleHeader
        title={t('ftpserver.title')}
        prefix="ftp"
        className="ftp-toolbar"
        query={status}
        updatedAtKey="ftpserver.updatedAt"
        interval={{ value: intervalMs, onChange: setIntervalMs }}
        onRefresh={actions.refresh}
      >
        <Button icon={<FileTextOutlined />} onClick={() => setLogsOpen(true)} data-testid="ftp-open-logs">
          {t('ftpserver.logs')}
        </Button>
        <Button
          type="primary"
          icon={<SettingOutlined />}
          onClick={() => setSettingsOpen(opened())}
          data-testid="ftp-open-settings"
        >
          {t('ftpserver.settings')}
        </Button>
      </ModuleHeader>

      <ModuleAlerts
        testId="ftp"
        loadError={loadError !== undefined && { title: t('ftpserver.loadError'), description: errorText(loadError, t) }}
        off={
          st &&
          !st.enabled && {
            title: t('ftpserver.moduleDisabled'),
            help: t('ftpserver.moduleDisabledHelp'),
            enable: { text: t('ftpserver.enableModule'), onClick: () => void actions.setModuleEnabled(true) },
          }
        }
      />

      {st ? (
        <StatusBar status={st} settings={conf} storageNames={storageNames} onToggleModule={actions.setModuleEnabled} />
      ) : (
        <Card loading />
      )}

      {conf && <ConnectionHelp address={conf.address} port={conf.port} mode={conf.tls.mode} user={sampleUser} />}

      <MountsCard
        mounts={mounts.data?.list}
        users={userList}
        running={st?.enabled ?? false}
        storageNames={storageNames}
        loading={mounts.isPending}
        onAdd={() => setMountEdit(opened())}
        onEdit={(m) => setMountEdit(opened(m))}
        onToggle={actions.setMountEnabled}
        onDelete={actions.removeMount}
      />

      <UsersCard
        users={users.data?.list}
        mounts={mountList}
        loading={users.isPending}
        onAdd={() => setUserEdit(opened())}
        onEdit={(u) => setUserEdit(opened(u))}
        onToggle={actions.setUserEnabled}
        onDelete={actions.removeUser}
      />

      {st?.enabled && (
        <SessionsCard sessions={st.sessions} now={status.dataUpdatedAt} onKick={(s) => actions.kick(s.id)} />
      )}

      <SettingsDialog
        key={`settings-${settingsOpen.seq}`}
        open={settingsOpen.open}
        mounts={mountList}
        users={userList}
        onClose={() => setSettingsOpen(closed)}
      />
      <MountDialog
        key={`mount-${mountEdit.seq}`}
        open={mountEdit.open}
        mount={mountEdit.of}
        otherNames={mountList.filter((m) => m.key !== mountEdit.of?.key).map((m) => m.name)}
        onClose={() => setMountEdit(closed)}
        onSaved={() => {
          setMountEdit(closed);
          void actions.refresh();
        }}
      />
      <UserDialog
        key={`user-${userEdit.seq}`}
        open={userEdit.open}
        user={userEdit.of}
        mounts={mountList}
        otherNames={userList.filter((u) => u.key !== userEdit.of?.key).map((u) => u.name)}
        onClose={() => setUserEdit(closed)}
        onSaved={() => {
          setUserEdit(closed);
          void actions.refresh();
        }}
      />
      <ServiceLogDrawer
        open={logsOpen}
        intervalMs={intervalMs}
        onClose={() => setLogsOpen(false)}
        onClear={actions.clearLogs}
        ns="ftpserver"
        queryKey={ftpKeys.logs}
        fetchLogs={fetchLogs}
        testIdPrefix="ftp"
      />
    </div>
  );
}
