import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export function NotFound() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('shell.notFoundTitle')}
      subTitle={t('shell.notFound')}
      extra={
        <Button type="primary" onClick={() => navigate('/status')}>
          {t('menu.status')}
        </Button>
      }
    />
  );
}
