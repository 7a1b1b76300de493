// The WebDAV server (/webdav): status and module switch, the settings, the mounts and users, how to
// connect from each client, and the log. A banner warns while users sign in over plain HTTP.
import { FileTextOutlined } from '@ant-design/icons';
import type { WebdavMount, WebdavUserView } from '@lucky/shared';
import { Alert, Button, Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModuleAlerts } from '../../components/module/ModuleAlerts';
import { ModuleHeader } from '../../components/module/ModuleHeader';
import { ServiceLogDrawer } from '../../components/ruleLog/ServiceLogDrawer';
import { fetchLogs, webdavKeys } from './api';
import { ConnectHelp } from './ConnectHelp';
import { type ConnectTarget, connectLines } from './connectHelp';
import { errorText } from './errors';
import { MountDialog } from './MountDialog';
import { MountsCard } from './MountsCard';
import { SettingsCard } from './SettingsCard';
import { StatusCard } from './StatusCard';
import { UserDialog } from './UserDialog';
import { UsersCard } from './UsersCard';
import {
  STATUS_INTERVAL_MS,
  useCertNames,
  useMounts,
  useSettings,
  useStatus,
  useStorages,
  useUsers,
  useWebdavActions,
} from './useWebdav';
import './webdav.css';

/** A dialog's state: `seq` keys it, so each opening starts from a fresh form. */
interface DialogState<T> {
  seq: number;
  open: boolean;
  of?: T;
}
const opened =
  <T,>(of?: T) =>
  (d: DialogState<T>) => ({ seq: d.seq + 1, open: true, of });
const closed = <T,>(d: DialogState<T>) => ({ ...d, open: false });
const shut = { seq: 0, open: false };

export default function WebdavScreen() {
  const { t } = useTranslation();
  const status = useStatus();
  const settings = useSettings();
  const mounts = useMounts();
  const users = useUsers();
  const storages = useStorages();
  const certs = useCertNames();
  const actions = useWebdavActions();
  const [mountDialog, setMountDialog] = useState<DialogState<WebdavMount>>(shut);
  const [userDialog, setUserDialog] = useState<DialogState<WebdavUserView>>(shut);
  const [logsOpen, setLogsOpen] = useState(false);

  const s = settings.data?.settings;
  const st = status.data;
  const mountList = mounts.data?.list ?? [];
  const userList = users.data?.list ?? [];
  const target: ConnectTarget | undefined = s && {
    host: hostFor(s.tls.enabled, s.tls.certificate, s.address),
    port: s.port,
    https: s.tls.enabled,
    prefix: s.pathPrefix,
    user: userList.find((u) => u.enabled)?.name ?? '',
  };
  const plainPasswords = st?.status.warnings.some((w) => w.code === 'plainHttpPasswords');
  const failed = status.isError && !st ? status.error : settings.isError && !s ? settings.error : undefined;

  return (
    <div className="screen webdav-screen" data-testid="webdav-screen">
      <ModuleHeader
        title={t('webdav.title')}
        prefix="webdav"
        className="webdav-toolbar"
        query={status}
        onRefresh={actions.refresh}
      >
        <Button icon={<FileTextOutlined />} onClick={() => setLogsOpen(true)} data-testid="webdav-open-logs">
          {t('webdav.logs')}
        </Button>
      </ModuleHeader>

      <ModuleAlerts
        testId="webdav"
        loadError={failed !== undefined && { title: t('webdav.loadError'), description: errorText(failed, t) }}
        off={
          st && !st.enabled && { title: t('webdav.moduleDisabled'), help: t('webdav.moduleDisabledHelp'), type: 'info' }
        }
      />
      {plainPasswords && (
        <Alert
          type="warning"
          showIcon
          title={t('webdav.reason_plainHttpPasswords')}
          description={t('webdav.plainHttpHelp')}
          data-testid="webdav-plain-http"
        />
      )}

      {st && target && (
        <StatusCard
          enabled={st.enabled}
          status={st.status}
          url={connectLines(target).url}
          onToggle={actions.setModuleEnabled}
        />
      )}
      {!st && status.isPending && <Card loading />}

      <MountsCard
        mounts={mountList}
        storages={storages.data ?? []}
        loading={mounts.isPending}
        onAdd={() => setMountDialog(opened())}
        onEdit={(m) => setMountDialog(opened(m))}
        onToggle={actions.setMountEnabled}
        onDelete={actions.removeMount}
      />
      <UsersCard
        users={userList}
        mounts={mountList}
        loading={users.isPending}
        onAdd={() => setUserDialog(opened())}
        onEdit={(u) => setUserDialog(opened(u))}
        onToggle={actions.setUserEnabled}
        onDelete={actions.removeUser}
      />
      {target && <ConnectHelp target={target} />}
      {s && <SettingsCard key={settings.dataUpdatedAt} settings={s} certNames={certs.data ?? []} />}

      <MountDialog
        key={`mount-${mountDialog.seq}`}
        open={mountDialog.open}
        mount={mountDialog.of}
        storages={storages.data ?? []}
        anonymous={s?.anonymousReadOnly ?? false}
        onClose={() => setMountDialog(closed)}
        onSaved={() => {
          setMountDialog(closed);
          void actions.refresh();
        }}
      />
      <UserDialog
        key={`user-${userDialog.seq}`}
        open={userDialog.open}
        user={userDialog.of}
        mounts={mountList}
        onClose={() => setUserDialog(closed)}
        onSaved={() => {
          setUserDialog(closed);
          void actions.refresh();
        }}
      />
      <ServiceLogDrawer
        open={logsOpen}
        intervalMs={STATUS_INTERVAL_MS}
        onClose={() => setLogsOpen(false)}
        onClear={actions.clearLogs}
        ns="webdav"
        queryKey={webdavKeys.logs}
        fetchLogs={fetchLogs}
        testIdPrefix="webdav"
      />
    </div>
  );
}

/**
 * The host clients type: over HTTPS the certificate's name (clients check it; a wildcard's
 * stays the browser's host), a listening address when one is set, else the host this console
 * was reached by.
 */
function hostFor(https: boolean, certificate: string, address: string): string {
  if (https && certificate && !certificate.startsWith('*.')) return certificate;
  const bare = address.replace(/^\[|\]$/g, '');
  if (bare && bare !== '0.0.0.0' && bare !== '::') return bare;
  return window.location.hostname.replace(/^\[|\]$/g, '') || 'localhost';
}
