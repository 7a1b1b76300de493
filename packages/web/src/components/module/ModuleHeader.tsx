// The title row of a module screen, the same on every screen: the title, the module switch with
// its on / off word, "updated at HH:mm:ss" of the screen's main query, the refresh interval, a
// refresh button and the screen's own buttons (logs, settings, add …). The texts are the module's
// own (translated by the caller, the updated-at line by its key); the test ids and class names
// keep each screen's: `<prefix>-refresh`, `<prefix>-updated`, and the switch's own test id. The
// row keeps the screen's class (`wol-toolbar`) for its CSS; narrow windows get
// `module-header-narrow` so the buttons wrap below the title.
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Space, Switch, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindowSize } from '../../hooks/useWindowSize';
import { RefreshControl } from '../RefreshControl';
import { formatTime } from '../time';
import './moduleHeader.css';

/** Below this width (px) the header stacks: title above, buttons below. */
export const HEADER_NARROW_WIDTH = 768;

export interface ModuleHeaderSwitch {
  checked: boolean;
  onChange: (on: boolean) => void;
  /** Spins while the switch's call runs (useModuleSwitch's `busy`). */
  busy?: boolean;
  /** The switch's accessible name. */
  label: string;
  testId: string;
  /** The word after the switch that says its state (coloured: on = success). */
  words?: { on: ReactNode; off: ReactNode };
  /** A fixed caption after the switch where the screen names the switch instead. */
  caption?: ReactNode;
}

/** What the header reads of the screen's main query (a react-query result fits). */
export interface ModuleHeaderQuery {
  dataUpdatedAt: number;
  isFetching: boolean;
  refetch: () => unknown;
}

export interface ModuleHeaderProps {
  title: ReactNode;
  /** Prefix of the test ids and class names: `<prefix>-refresh`, `<prefix>-updated`. */
  prefix: string;
  /** The screen's own class on the row (its CSS and older selectors). */
  className?: string;
  /** The module switch; absent where the screen shows it elsewhere (a status card). */
  moduleSwitch?: ModuleHeaderSwitch | false;
  /** The query behind "updated at" and the refresh button's spinner. */
  query?: ModuleHeaderQuery;
  /** The locale key of "updated at {{time}}"; absent = no such line. */
  updatedAtKey?: string;
  /** Leave "updated at" out on a narrow window, where the row has no room to spare. */
  wideOnlyUpdatedAt?: boolean;
  /** The refresh interval picker; absent where the screen refreshes at a fixed pace. */
  interval?: { value: number; onChange: (ms: number) => void };
  /** What the refresh button does; defaults to the query's refetch. Absent both = no button. */
  onRefresh?: () => unknown;
  /** An icon-only refresh button (its name in aria-label), where the row is crowded. */
  compactRefresh?: boolean;
  /** The screen's own buttons, after the refresh button. */
  children?: ReactNode;
}

export function ModuleHeader(p: ModuleHeaderProps) {
  const { t } = useTranslation();
  const narrow = useWindowSize().width <= HEADER_NARROW_WIDTH;
  const refresh = p.onRefresh ?? p.query?.refetch;
  const updatedAt = p.query?.dataUpdatedAt ?? 0;
  const rowClass = ['module-header', p.className, narrow && 'module-header-narrow'].filter(Boolean).join(' ');
  return (
    <div className={rowClass} data-testid={`${p.prefix}-header`}>
      <Space wrap align="center" className="module-header-title">
        <Typography.Title level={4} className="screen-title">
          {p.title}
        </Typography.Title>
        {p.moduleSwitch && <HeaderSwitch {...p.moduleSwitch} />}
      </Space>
      <Space wrap className="module-header-actions">
        {p.updatedAtKey && updatedAt > 0 && !(narrow && p.wideOnlyUpdatedAt) && (
          <Typography.Text type="secondary" className={`module-header-updated ${p.prefix}-updated`}>
            {t(p.updatedAtKey, { time: formatTime(updatedAt, 'HH:mm:ss') })}
          </Typography.Text>
        )}
        {p.interval && <RefreshControl value={p.interval.value} onChange={p.interval.onChange} />}
        {refresh && (
          <Button
            icon={<ReloadOutlined />}
            loading={p.query?.isFetching ?? false}
            onClick={() => void refresh()}
            aria-label={p.compactRefresh ? t('common.refresh') : undefined}
            data-testid={`${p.prefix}-refresh`}
          >
            {!p.compactRefresh && t('common.refresh')}
          </Button>
        )}
        {p.children}
      </Space>
    </div>
  );
}

function HeaderSwitch({ checked, onChange, busy, label, testId, words, caption }: ModuleHeaderSwitch) {
  return (
    <Space size={6} className="module-header-switch">
      <Switch
        checked={checked}
        loading={busy ?? false}
        onChange={(on) => onChange(on)}
        aria-label={label}
        data-testid={testId}
      />
      {words && (
        <Typography.Text type={checked ? 'success' : 'secondary'}>{checked ? words.on : words.off}</Typography.Text>
      )}
      {caption !== undefined && <Typography.Text>{caption}</Typography.Text>}
    </Space>
  );
}
