// The consoles on a phone (usePhone): one card per console instead of the table's eight columns,
// which would scroll sideways with the actions out of sight. A card holds what a table row holds —
// select box, switch, name and address, the state with why and the next try, version, uptime,
// load, module tags, certificates near expiry, the same actions (the same test ids: only one
// layout is on the page) — and opens to the same detail the table's expanded row shows.
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import type { WanjiConsoleView } from '@lucky/shared';
import { Button, Card, Checkbox, Spin, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ConsoleActions,
  ConsoleAddress,
  ConsoleCerts,
  ConsoleDetail,
  ConsoleHealth,
  ConsoleLoad,
  ConsoleModules,
  ConsoleSwitch,
  type ConsolesListProps,
  ConsoleUptime,
  ConsoleVersion,
} from './consoleParts';

export function ConsoleCards(props: ConsolesListProps) {
  const { t } = useTranslation();
  const { consoles, selected } = props;
  if (consoles.length === 0) return <Card size="small">{props.empty}</Card>;

  const all = consoles.every((c) => selected.includes(c.key));
  const some = !all && consoles.some((c) => selected.includes(c.key));
  const pick = (c: WanjiConsoleView, on: boolean) =>
    props.onSelect(on ? [...selected.filter((k) => k !== c.key), c.key] : selected.filter((k) => k !== c.key));

  return (
    <Spin spinning={props.loading}>
      <div className="wanji-cards" data-testid="wanji-cards">
        <Checkbox
          className="wanji-select-all"
          checked={all}
          indeterminate={some}
          onChange={(e) => props.onSelect(e.target.checked ? consoles.map((c) => c.key) : [])}
          data-testid="wanji-select-all"
        >
          {t('wanji_admin.ui_selectAll')}
        </Checkbox>
        {consoles.map((c) => (
          <ConsoleCard key={c.key} c={c} checked={selected.includes(c.key)} onPick={pick} {...props} />
        ))}
      </div>
    </Spin>
  );
}

type CardProps = ConsolesListProps & {
  c: WanjiConsoleView;
  checked: boolean;
  onPick: (c: WanjiConsoleView, on: boolean) => void;
};

function ConsoleCard({ c, checked, onPick, ...props }: CardProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const field = (label: string, value: ReactNode) => (
    <>
      <Typography.Text type="secondary" className="wanji-field-label">
        {label}
      </Typography.Text>
      <div className="wanji-field-value">{value}</div>
    </>
  );
  return (
    <Card
      size="small"
      className={checked ? 'wanji-console-card wanji-console-card-picked' : 'wanji-console-card'}
      data-testid={`wanji-card-${c.key}`}
    >
      <div className="wanji-card-head">
        <Checkbox
          checked={checked}
          onChange={(e) => onPick(c, e.target.checked)}
          aria-label={t('wanji_admin.ui_selectConsole', { name: c.name })}
          data-testid={`wanji-select-${c.key}`}
        />
        <ConsoleSwitch c={c} onToggle={props.onToggle} />
        <Typography.Text strong ellipsis className="wanji-card-name">
          {c.name}
        </Typography.Text>
      </div>
      <div className="wanji-name">
        <ConsoleAddress c={c} />
      </div>
      <ConsoleHealth c={c} onRepin={props.onRepin} />
      {/* Never read yet: one line instead of five dashes (the table keeps its columns). */}
      {c.summary ? (
        <div className="wanji-fields">
          {field(t('wanji_admin.col_version'), <ConsoleVersion c={c} />)}
          {field(t('wanji_admin.col_uptime'), <ConsoleUptime c={c} />)}
          {field(t('wanji_admin.col_load'), <ConsoleLoad c={c} />)}
          {field(t('wanji_admin.col_modules'), <ConsoleModules c={c} />)}
          {field(t('wanji_admin.col_certs'), <ConsoleCerts c={c} />)}
        </div>
      ) : (
        <Typography.Text type="secondary" className="wanji-next" data-testid={`wanji-no-summary-${c.key}`}>
          {t('wanji_admin.ui_noSummary')}
        </Typography.Text>
      )}
      <div className="wanji-card-actions">
        <ConsoleActions
          c={c}
          onOpen={props.onOpen}
          onRefresh={props.onRefresh}
          onEdit={props.onEdit}
          onDelete={props.onDelete}
        />
        <Button
          type="link"
          size="small"
          icon={open ? <UpOutlined /> : <DownOutlined />}
          iconPlacement="end"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          data-testid={`wanji-detail-toggle-${c.key}`}
        >
          {t(open ? 'wanji_admin.ui_hideDetail' : 'wanji_admin.ui_showDetail')}
        </Button>
      </div>
      {open && <ConsoleDetail c={c} />}
    </Card>
  );
}
