// The console frame around every route: top bar, left or top menu, the
// default-password banner, the log dialog and the lazily loaded screen.
import { Button, Layout, Result, Spin } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { getItem } from '../../api/storage';
import { setDisplayTimeZone } from '../../components/time';
import { useWindowSize } from '../../hooks/useWindowSize';
import { useRestMessages } from '../../i18n/useRestMessages';
import { buildMenu, groupKeys, menuPlacement } from '../menu/menuModel';
import { hasModuleScreen } from '../moduleScreens';
import { useBaseSettings, useFrontendControl, useModules } from '../queries';
import { PasswordBanner } from './PasswordBanner';
import { TopBar } from './TopBar';
import { useDocumentTitle } from './useDocumentTitle';
import { useLogout } from './useLogout';
import './shell.css';

// Neither the menu nor the log dialog is needed on the login page; keeping
// them out of the entry chunk keeps the first load small.
const MenuView = lazy(() => import('../menu/MenuView'));
const LogDialog = lazy(() => import('../log/LogDialog'));

export function ScreenFallback() {
  const { t } = useTranslation();
  return (
    <div className="shell-screen-loading">
      <Spin description={t('common.loading')}>
        <div style={{ height: 80 }} />
      </Spin>
    </div>
  );
}

function MessagesFallback({ failed, retry }: { failed: boolean; retry: () => void }) {
  const { t } = useTranslation();
  if (!failed) return <ScreenFallback />;
  return (
    <Result
      status="warning"
      title={t('shell.messagesFailed')}
      extra={
        <Button type="primary" onClick={retry} data-testid="shell-messages-retry">
          {t('shell.retry')}
        </Button>
      }
      data-testid="shell-messages-failed"
    />
  );
}

export default function Shell() {
  const { pathname } = useLocation();
  const { width } = useWindowSize();
  const isLogin = pathname === '/login';
  const signedIn = Boolean(getItem('token'));
  const placement = menuPlacement(width, pathname);
  const [logOpen, setLogOpen] = useState(false);
  // Mounted on first open and kept, so reopening continues from the last line.
  const [logMounted, setLogMounted] = useState(false);
  const logout = useLogout();
  useDocumentTitle();

  const modulesQuery = useModules(!isLogin && signedIn);
  const frontend = useFrontendControl(!isLogin && signedIn);
  // Every time on screen is shown in the display zone: known before the first screen renders.
  const base = useBaseSettings(!isLogin && signedIn);
  const zoneKnown = isLogin || !base.isPending;
  setDisplayTimeZone(base.data?.timeZone);
  const modules = modulesQuery.data?.modules;
  const entries = useMemo(() => buildMenu(modules ?? [], (key) => hasModuleScreen(key)), [modules]);
  const openKeys = frontend.data?.FrontendDisableAutoExpandLeftMenu ? [] : groupKeys(entries);
  // Past the login page every namespace must be there before anything renders (i18n/parts.ts).
  const messages = useRestMessages(!isLogin && signedIn);

  // Without a token there is nothing to show but the login page.
  if (!isLogin && !signedIn) return <Navigate to="/login" replace />;
  if (!isLogin && !messages.ready) return <MessagesFallback failed={messages.failed} retry={messages.retry} />;

  const onAction = (action: 'log' | 'logout') => {
    if (action === 'logout') logout();
    else {
      setLogMounted(true);
      setLogOpen(true);
    }
  };

  const menu =
    placement === 'none' ? null : (
      <Suspense fallback={null}>
        <MenuView
          entries={entries}
          placement={placement}
          defaultOpenKeys={openKeys}
          onAction={onAction}
          // Remount when the auto-expand setting arrives, since defaultOpenKeys is read once.
          key={`${placement}-${openKeys.join(',')}`}
        />
      </Suspense>
    );

  return (
    <Layout className="shell">
      <TopBar menu={placement === 'top' ? menu : null} showVersion={!isLogin} />
      {!isLogin && modulesQuery.data?.user?.passwordIsDefault && <PasswordBanner />}
      <Layout className="shell-body">
        {placement === 'side' && (
          <Layout.Sider width={208} theme="light" className="shell-sider">
            <div className="shell-sider-inner">{menu}</div>
          </Layout.Sider>
        )}
        <Layout.Content className={isLogin ? 'shell-content shell-content-login' : 'shell-content'}>
          <Suspense fallback={<ScreenFallback />}>{zoneKnown ? <Outlet /> : <ScreenFallback />}</Suspense>
        </Layout.Content>
      </Layout>
      {logMounted && (
        <Suspense fallback={null}>
          <LogDialog open={logOpen} onClose={() => setLogOpen(false)} />
        </Suspense>
      )}
    </Layout>
  );
}
