// Security (/safe): sessions, two-factor login, API tokens, access from outside, certificates.
import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AccessTab } from './AccessTab';
import { ApiTokensTab } from './ApiTokensTab';
import { CertsTab } from './CertsTab';
import { SessionsTab } from './SessionsTab';
import { TwoFATab } from './TwoFATab';

export default function SafeScreen() {
  const { t } = useTranslation();
  return (
    <div className="screen" data-testid="safe-screen">
      <Typography.Title level={4} className="screen-title">
        {t('safe.title')}
      </Typography.Title>
      <Tabs
        type="card"
        destroyOnHidden
        items={[
          { key: 'login', label: t('safe.tabLogin'), children: <SessionsTab /> },
          { key: '2fa', label: t('safe.tab2fa'), children: <TwoFATab /> },
          { key: 'tokens', label: t('safe.tabTokens'), children: <ApiTokensTab /> },
          { key: 'access', label: t('safe.tabAccess'), children: <AccessTab /> },
          { key: 'certs', label: t('safe.tabCerts'), children: <CertsTab /> },
        ]}
      />
    </div>
  );
}
