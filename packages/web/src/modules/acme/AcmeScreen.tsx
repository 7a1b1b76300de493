// The ACME screen (/acme): the module switch, the certificates with their state (refreshed quickly
// while an order runs), the accounts, the settings dialog and the log drawer.
import { FileTextOutlined, SettingOutlined } from '@ant-design/icons';
import type { AcmeAccountView, AcmeCertificateView } from '@lucky/shared';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModuleAlerts } from '../../components/module/ModuleAlerts';
import { ModuleHeader } from '../../components/module/ModuleHeader';
import { useModuleSwitch } from '../../components/module/useModuleSwitch';
import { ServiceLogDrawer } from '../../components/ruleLog/ServiceLogDrawer';
import { AccountDialog } from './AccountDialog';
import { AccountsCard } from './AccountsCard';
import { acmeKeys, fetchLogs } from './api';
import { CertificateDialog } from './CertificateDialog';
import { CertificatesCard } from './CertificatesCard';
import { errorText } from './errors';
import { RevokeDialog } from './RevokeDialog';
import { SettingsDialog } from './SettingsDialog';
import { useAcmeActions, useAcmeList } from './useAcme';
import './acme.css';

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

export default function AcmeScreen() {
  const { t } = useTranslation();
  const [intervalMs, setIntervalMs] = useState(DEFAULT_INTERVAL_MS);
  const list = useAcmeList(intervalMs);
  const actions = useAcmeActions();
  const [certDialog, setCertDialog] = useState<DialogState<AcmeCertificateView>>({ seq: 0, open: false });
  const [accountDialog, setAccountDialog] = useState<DialogState<AcmeAccountView>>({ seq: 0, open: false });
  const [settingsDialog, setSettingsDialog] = useState<DialogState<never>>({ seq: 0, open: false });
  const [revoking, setRevoking] = useState<AcmeCertificateView | null>(null);
  const [logsOpen, setLogsOpen] = useState(false);
  const data = list.data;
  const serviceOn = data?.enabled ?? false;

  const { busy: switching, toggle: toggleService } = useModuleSwitch(actions.setServiceEnabled);

  return (
    <div className="screen acme-screen" data-testid="acme-screen">
      <ModuleHeader
        title={t('menu.acme')}
        prefix="acme"
        className="acme-toolbar"
        moduleSwitch={
          data && {
            checked: serviceOn,
            onChange: (on) => void toggleService(on),
            busy: switching,
            label: t('acme.ui_serviceSwitch'),
            testId: 'acme-service-switch',
            words: { on: t('acme.ui_serviceOn'), off: t('acme.ui_serviceOff') },
          }
        }
        query={list}
        updatedAtKey="acme.ui_updatedAt"
        interval={{ value: intervalMs, onChange: setIntervalMs }}
      >
        <Button icon={<FileTextOutlined />} onClick={() => setLogsOpen(true)} data-testid="acme-open-logs">
          {t('acme.ui_logs')}
        </Button>
        <Button
          icon={<SettingOutlined />}
          disabled={!data}
          onClick={() => setSettingsDialog(opened())}
          data-testid="acme-open-settings"
        >
          {t('acme.ui_settings')}
        </Button>
      </ModuleHeader>

      <ModuleAlerts
        testId="acme"
        ids={{ off: 'acme-service-disabled', enable: 'acme-service-enable' }}
        loadError={list.isError && !data && { title: t('acme.ui_loadError'), description: errorText(list.error, t) }}
        off={
          data &&
          !serviceOn && {
            title: t('acme.ui_serviceDisabled'),
            help: t('acme.ui_serviceDisabledHelp'),
            enable: { text: t('acme.ui_enableService'), onClick: () => void toggleService(true) },
          }
        }
        loading={!data && list.isPending}
      />

      {data && (
        <>
          <CertificatesCard
            certificates={data.certificates}
            accounts={data.accounts}
            expiryWarnDays={data.settings.expiryWarnDays}
            serviceOn={serviceOn}
            onAdd={() => setCertDialog(opened())}
            onEdit={(c) => setCertDialog(opened(c))}
            onToggle={(c, on) => actions.setCertEnabled(c, on)}
            onIssue={(c) => actions.issueNow(c)}
            onRevoke={setRevoking}
            onDelete={(key) => actions.removeCert(key)}
          />
          <AccountsCard
            accounts={data.accounts}
            loading={false}
            onAdd={() => setAccountDialog(opened())}
            onEdit={(a) => setAccountDialog(opened(a))}
            onDelete={(key) => actions.removeAccount(key)}
          />
          <CertificateDialog
            key={`cert-${certDialog.seq}`}
            open={certDialog.open}
            certificate={certDialog.item}
            accounts={data.accounts}
            providers={data.dnsProviders}
            onClose={() => setCertDialog(closed)}
            onSaved={(c) => {
              actions.patch(c);
              void actions.refresh();
              setCertDialog(closed);
            }}
          />
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
        </>
      )}
      <AccountDialog
        key={`account-${accountDialog.seq}`}
        open={accountDialog.open}
        account={accountDialog.item}
        onClose={() => setAccountDialog(closed)}
        onSaved={() => {
          void actions.refresh();
          setAccountDialog(closed);
        }}
      />
      <RevokeDialog certificate={revoking} onClose={() => setRevoking(null)} onRevoke={actions.revoke} />
      <ServiceLogDrawer
        open={logsOpen}
        intervalMs={intervalMs}
        onClose={() => setLogsOpen(false)}
        onClear={actions.clearLogs}
        ns="acme"
        wordsPrefix="ui_"
        queryKey={acmeKeys.logs}
        fetchLogs={fetchLogs}
        testIdPrefix="acme"
      />
    </div>
  );
}
