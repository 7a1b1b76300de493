// The file manager screen (being built: see issue 16).
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';

export default function FilebrowserScreen() {
  const { t } = useTranslation();
  return (
    <Card data-testid="filebrowser-screen" title={t('filebrowser.title')}>
      {t('filebrowser.placeholder')}
    </Card>
  );
}
