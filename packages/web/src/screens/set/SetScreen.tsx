// Settings (/set): account and password, every base setting, and maintenance
// (backup, restore, update, restart, system service).
import { Alert, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AccountCard } from './AccountCard';
import { GeneralSettingsCard } from './GeneralSettingsCard';
import { MaintenanceCard, useRestart } from './MaintenanceCard';
import { useBaseConfigure } from './useBaseConfigure';
import { useReconnect } from './useReconnect';

export default function SetScreen() {
  const { t } = useTranslation();
  const config = useBaseConfigure();
  const { reconnect, dialog } = useReconnect();
  const restart = useRestart(() => void reconnect());

  return (
    <div className="screen" data-testid="set-screen">
      <Typography.Title level={4} className="screen-title">
        {t('set.title')}
      </Typography.Title>
      {config.isPending && <Skeleton active paragraph={{ rows: 8 }} />}
      {config.isError && <Alert type="error" showIcon title={t('set.loadError')} />}
      {config.data && (
        <>
          <AccountCard config={config.data} />
          <GeneralSettingsCard config={config.data} onRestart={restart} />
          <MaintenanceCard onRestarting={(port) => void reconnect(port)} />
        </>
      )}
      {dialog}
    </div>
  );
}
