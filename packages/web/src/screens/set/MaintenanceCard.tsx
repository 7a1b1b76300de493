import { PoweroffOutlined } from '@ant-design/icons';
import { App, Button, Card, Divider, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { get } from '../../api/client';
import { BackupRestore } from './BackupRestore';
import { ServicePanel } from './ServicePanel';
import { UpdatePanel } from './UpdatePanel';

export function useRestart(onRestarting: () => void) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return () =>
    modal.confirm({
      title: t('set.restartTitle'),
      content: t('set.restartConfirm'),
      okText: t('set.restartNow'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await get('api/reboot_program');
          onRestarting();
        } catch {
          // shown by the client
        }
      },
    });
}

export function MaintenanceCard({ onRestarting }: { onRestarting: (port?: number) => void }) {
  const { t } = useTranslation();
  const restart = useRestart(() => onRestarting());
  const section = (title: string, help: string) => (
    <>
      <Divider titlePlacement="start">{title}</Divider>
      <Typography.Paragraph type="secondary">{help}</Typography.Paragraph>
    </>
  );
  return (
    <Card title={t('set.maintenanceTitle')} data-testid="maintenance">
      {section(t('set.backupTitle'), t('set.backupHelp'))}
      <BackupRestore onRestarting={onRestarting} />
      {section(t('set.updateTitle'), t('set.updateHelp'))}
      <UpdatePanel onRestarting={() => onRestarting()} />
      {section(t('set.restartTitle'), t('set.restartHelp'))}
      <Button danger icon={<PoweroffOutlined />} onClick={restart} data-testid="restart-button">
        {t('set.restartNow')}
      </Button>
      {section(t('set.serviceTitle'), t('set.serviceHelp'))}
      <ServicePanel onRestarting={() => onRestarting()} />
    </Card>
  );
}
