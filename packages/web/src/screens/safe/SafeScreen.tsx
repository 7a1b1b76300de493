// Security (/safe): sessions, two-factor login, API tokens, access from outside, the IP lists,
// the knock URL, auto-ban, certificates, the audit log. The open tab is in the address (`#/safe?tab=audit`), so a link can name it.
import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AccessTab } from './AccessTab';
import { ApiTokensTab } from './ApiTokensTab';
import { AuditTab } from './AuditTab';
import { BansTab } from './BansTab';
import { CertsTab } from './CertsTab';
import { KnockTab } from './KnockTab';
import { ListsTab } from './ListsTab';
import { SessionsTab } from './SessionsTab';
import { TwoFATab } from './TwoFATab';

const TABS = ['login', '2fa', 'tokens', 'access', 'lists', 'knock', 'bans', 'certs', 'audit'];

export default function SafeScreen() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab') ?? '';
  const active = TABS.includes(asked) ? asked : 'login';
  return (
    <div className="screen" data-testid="safe-screen">
      <Typography.Title level={4} className="screen-title">
        {t('safe.title')}
      </Typography.Title>
      <Tabs
        type="card"
        destroyOnHidden
        activeKey={active}
        onChange={(key) => setParams(key === 'login' ? {} : { tab: key }, { replace: true })}
        items={[
          { key: 'login', label: t('safe.tabLogin'), children: <SessionsTab /> },
          { key: '2fa', label: t('safe.tab2fa'), children: <TwoFATab /> },
          { key: 'tokens', label: t('safe.tabTokens'), children: <ApiTokensTab /> },
          { key: 'access', label: t('safe.tabAccess'), children: <AccessTab /> },
          { key: 'lists', label: t('safe.lists_tab'), children: <ListsTab /> },
          { key: 'knock', label: t('safe.knock_tab'), children: <KnockTab /> },
          { key: 'bans', label: t('safe.bans_tab'), children: <BansTab /> },
          { key: 'certs', label: t('safe.tabCerts'), children: <CertsTab /> },
          { key: 'audit', label: t('safe.tabAudit'), children: <AuditTab /> },
        ]}
      />
    </div>
  );
}
