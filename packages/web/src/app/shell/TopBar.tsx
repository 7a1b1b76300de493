import { Layout } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PRODUCT_WEBSITE } from '../constants';
import { useVersion } from '../queries';
import { LanguageSwitch } from './LanguageSwitch';
import { LogoMark } from './Logo';
import { ThemeSwitch } from './ThemeSwitch';

export function TopBar({ menu, showVersion }: { menu: ReactNode; showVersion: boolean }) {
  const { t } = useTranslation();
  const version = useVersion().data?.version;
  return (
    <Layout.Header className="shell-header">
      {/* Spec §2: the logo opens the product's website in a new tab. */}
      <a
        className="shell-logo"
        href={PRODUCT_WEBSITE}
        target="_blank"
        rel="noopener noreferrer"
        title={t('shell.website')}
        data-testid="logo-link"
      >
        <LogoMark />
        <span className="shell-logo-text">Lucky</span>
      </a>
      {menu}
      <div className="shell-header-spacer" />
      {showVersion && version && (
        <Link to="/about" className="shell-version" title={t('menu.about')}>
          v{version}
        </Link>
      )}
      <ThemeSwitch />
      <LanguageSwitch />
    </Layout.Header>
  );
}
