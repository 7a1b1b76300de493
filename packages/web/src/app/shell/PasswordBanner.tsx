import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Shown on every page while the first-start password 666 is still in use. */
export function PasswordBanner() {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      banner
      data-testid="default-password-banner"
      title={
        <span>
          {t('shell.defaultPassword')} <Link to="/set">{t('shell.changePasswordNow')}</Link>
        </span>
      }
    />
  );
}
