// The FTP server's screen: a placeholder until the settings / users / mounts screen lands
// (branch ftpweb builds it on the shared schema in packages/shared/src/modules/ftpserver.ts).
import type { FtpserverSettingsResponse } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { get } from '../../api/client';

export default function FtpserverScreen() {
  const { t } = useTranslation();
  const settings = useQuery({
    queryKey: ['ftpserver', 'settings'],
    queryFn: ({ signal }) => get<FtpserverSettingsResponse>('api/ftpserver/settings', { signal }),
  });
  return (
    <Card title={t('menu.ftpserver')} loading={settings.isLoading}>
      <Typography.Text>
        {t('ftpserver.moduleSwitch')}: {settings.data?.settings.enabled ? '✓' : '—'}
      </Typography.Text>
    </Card>
  );
}
