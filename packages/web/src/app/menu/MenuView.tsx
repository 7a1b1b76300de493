// Renders the menu model as the left menu (wide windows) or as the top-bar
// dropdown (narrow windows). Loaded on demand: the login page has no menu.
import { MenuOutlined } from '@ant-design/icons';
import { Button, Dropdown, Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { menuIcon } from './menuIcons';
import { type MenuEntry, selectedKey } from './menuModel';

type Items = NonNullable<MenuProps['items']>;

export interface MenuViewProps {
  entries: MenuEntry[];
  placement: 'side' | 'top';
  /** Groups opened initially in the left menu (empty when auto-expand is disabled). */
  defaultOpenKeys: string[];
  onAction: (action: 'log' | 'logout') => void;
}

function toItems(entries: readonly MenuEntry[], t: (k: string) => string): Items {
  return entries.map((e) => {
    switch (e.kind) {
      case 'divider':
        return { type: 'divider' as const, key: e.key };
      case 'group':
        return { key: e.key, icon: menuIcon(e.icon), label: t(e.labelKey), children: toItems(e.children, t) };
      default:
        return { key: e.key, icon: menuIcon(e.icon), label: t(e.labelKey), danger: e.key === 'logout' };
    }
  });
}

function findEntry(entries: readonly MenuEntry[], key: string): MenuEntry | undefined {
  for (const e of entries) {
    if (e.key === key) return e;
    if (e.kind === 'group') {
      const inner = findEntry(e.children, key);
      if (inner) return inner;
    }
  }
  return undefined;
}

export default function MenuView({ entries, placement, defaultOpenKeys, onAction }: MenuViewProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const items = useMemo(() => toItems(entries, t), [entries, t]);
  const selected = selectedKey(entries, pathname);

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const entry = findEntry(entries, key);
    if (!entry) return;
    // Module paths are pushed as the spec has them: wanjiadmin without a leading
    // slash, which resolves against the root route this menu lives in.
    if (entry.kind === 'route') navigate(entry.path);
    else if (entry.kind === 'action') onAction(entry.key);
  };

  if (placement === 'side') {
    return (
      <Menu
        mode="inline"
        items={items}
        selectedKeys={selected ? [selected] : []}
        defaultOpenKeys={defaultOpenKeys}
        onClick={onClick}
        className="shell-side-menu"
        data-testid="side-menu"
      />
    );
  }
  return (
    <Dropdown
      menu={{ items, selectedKeys: selected ? [selected] : [], onClick }}
      trigger={['click']}
      placement="bottomLeft"
    >
      <Button type="text" icon={<MenuOutlined />} data-testid="top-menu-button" className="shell-top-menu-button">
        {t('menu.menu')}
      </Button>
    </Dropdown>
  );
}
