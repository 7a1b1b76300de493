import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../theme';

/**
 * Light / dark colours, remembered in the browser (app/theme.tsx): one toggle button (a plain
 * button keeps the login page's JavaScript small), pressed while the dark theme is on.
 */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const { mode, setMode } = useThemeMode();
  const dark = mode === 'dark';
  const label = t(dark ? 'shell.themeToLight' : 'shell.themeToDark');
  return (
    <Button
      type="text"
      shape="circle"
      icon={dark ? <MoonOutlined /> : <SunOutlined />}
      onClick={() => setMode(dark ? 'light' : 'dark')}
      aria-label={label}
      aria-pressed={dark}
      title={label}
      className="shell-theme-switch"
      data-testid="theme-switch"
    />
  );
}
