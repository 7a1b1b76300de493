import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Switch, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../theme';

/** Light / dark colours, remembered in the browser (app/theme.tsx). */
export function ThemeSwitch() {
  const { t } = useTranslation();
  const { mode, setMode } = useThemeMode();
  const dark = mode === 'dark';
  const label = t(dark ? 'shell.themeToLight' : 'shell.themeToDark');
  return (
    <Tooltip title={label}>
      <Switch
        checked={dark}
        onChange={(on) => setMode(on ? 'dark' : 'light')}
        checkedChildren={<MoonOutlined />}
        unCheckedChildren={<SunOutlined />}
        aria-label={label}
        className="shell-theme-switch"
        data-testid="theme-switch"
      />
    </Tooltip>
  );
}
