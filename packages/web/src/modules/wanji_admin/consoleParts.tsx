// The pieces of one console that the wide table (ConsolesTable) and the phone's cards
// (ConsoleCards) both show: the same data under the same test ids, written once. Only one of the
// two layouts is rendered at a time, so an id such as `wanji-open-<key>` stays unique on the page.
import {
  DeleteOutlined,
  EditOutlined,
  ExportOutlined,
  MoreOutlined,
  ReloadOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import type { SummaryModule, WanjiConsoleView } from '@lucky/shared';
import { App, Badge, Button, Descriptions, Dropdown, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/time';
import { codedText } from '../../i18n/coded';
import { reasonText } from './errors';
import {
  certColor,
  type DurationUnits,
  duration,
  HEALTH_COLOR,
  healthOf,
  MODULE_STATE_COLOR,
  percent,
  secondsToNextTry,
  shownModules,
  size,
  systemMemoryPercent,
} from './format';

type T = (k: string, o?: Record<string, unknown>) => string;
type Summary = NonNullable<WanjiConsoleView['summary']>;

/** What both layouts get from the screen: the list, the selection and the per-console actions. */
export interface ConsolesListProps {
  consoles: WanjiConsoleView[];
  loading: boolean;
  selected: string[];
  onSelect: (keys: string[]) => void;
  onOpen: (c: WanjiConsoleView) => void;
  onRefresh: (c: WanjiConsoleView) => Promise<unknown>;
  onEdit: (c: WanjiConsoleView) => void;
  onToggle: (c: WanjiConsoleView, on: boolean) => unknown;
  onDelete: (c: WanjiConsoleView) => unknown;
  onRepin: (c: WanjiConsoleView) => void;
  empty: ReactNode;
}

/** The duration units in the UI language. */
export function useUnits(): DurationUnits {
  const { t } = useTranslation();
  return { d: t('common.unitDay'), h: t('common.unitHour'), m: t('common.unitMinute'), s: t('common.unitSecond') };
}

const moduleName = (t: T, key: string) => t(`menu.${key}`, { defaultValue: key });

/** The modules without a tag, counted: idle (on, nothing to do) and switched off. */
function restOfModules(t: T, mods: SummaryModule[]): string {
  const shown = new Set(shownModules(mods).map((m) => m.key));
  const rest = mods.filter((m) => !shown.has(m.key));
  if (rest.length === 0) return '';
  const off = rest.filter((m) => m.state === 'disabled').length;
  return t('wanji_admin.ui_modulesRest', { idle: rest.length - off, off });
}

/**
 * A figure of the last summary read: a dash before the first read, and faded while the console
 * does not answer (the numbers are old).
 */
export function SummaryOr({ c, show }: { c: WanjiConsoleView; show: (s: Summary) => ReactNode }) {
  if (!c.summary) return <Typography.Text type="secondary">-</Typography.Text>;
  return <span className={c.reachable ? '' : 'wanji-stale'}>{show(c.summary)}</span>;
}

/**
 * "Next try in …" while the server backs off from a console, counting down every second between
 * two reads of the list (only this line re-renders, not the list).
 */
function NextTry({ c, units }: { c: WanjiConsoleView; units: DurationUnits }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  const backingOff = secondsToNextTry(c, Date.now()) !== undefined;
  useEffect(() => {
    if (!backingOff) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [backingOff]);
  const wait = secondsToNextTry(c, now);
  if (wait === undefined) return null;
  return (
    <Typography.Text type="secondary" className="wanji-next" data-testid={`wanji-next-${c.key}`}>
      {wait > 0 ? t('wanji_admin.ui_nextTry', { time: duration(wait, units) }) : t('wanji_admin.ui_tryingNow')}
    </Typography.Text>
  );
}

/** The console's switch (read it regularly, or not). */
export function ConsoleSwitch({ c, onToggle }: { c: WanjiConsoleView; onToggle: ConsolesListProps['onToggle'] }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t(c.enabled ? 'wanji_admin.ui_switchOff' : 'wanji_admin.ui_switchOn')}>
      <Switch
        size="small"
        checked={c.enabled}
        onChange={(on) => onToggle(c, on)}
        aria-label={t('wanji_admin.ui_consoleSwitch')}
        data-testid={`wanji-switch-${c.key}`}
      />
    </Tooltip>
  );
}

/** Address and note under the name. */
export function ConsoleAddress({ c }: { c: WanjiConsoleView }) {
  return (
    <>
      <Typography.Text type="secondary" className="wanji-url mono">
        {c.url}
      </Typography.Text>
      {c.note && (
        <Typography.Text type="secondary" className="wanji-note">
          {c.note}
        </Typography.Text>
      )}
    </>
  );
}

/** The state badge, why not (in the UI language), the next try, when last seen, and re-pin. */
export function ConsoleHealth({ c, onRepin }: { c: WanjiConsoleView; onRepin: (c: WanjiConsoleView) => void }) {
  const { t } = useTranslation();
  const units = useUnits();
  const health = healthOf(c);
  return (
    <div className="wanji-health">
      <Tag
        color={HEALTH_COLOR[health]}
        data-testid={`wanji-health-${c.key}`}
        data-state={health}
        className="wanji-health-tag"
      >
        {t(`wanji_admin.ui_health_${health}`)}
      </Tag>
      {!c.reachable && c.enabled && c.reason && c.reason.code !== 'notChecked' && (
        <Typography.Text type="danger" className="wanji-reason" data-testid={`wanji-reason-${c.key}`}>
          {reasonText(c.reason)}
        </Typography.Text>
      )}
      {c.enabled && <NextTry c={c} units={units} />}
      {c.lastSeen && (
        <Tooltip title={formatTime(c.lastSeen)}>
          <Typography.Text type="secondary" className="wanji-next">
            {t('wanji_admin.ui_lastSeen', { time: formatTime(c.lastSeen, 'HH:mm:ss') })}
          </Typography.Text>
        </Tooltip>
      )}
      {health === 'mismatch' && (
        <Button
          size="small"
          icon={<SafetyCertificateOutlined />}
          onClick={() => onRepin(c)}
          data-testid={`wanji-repin-${c.key}`}
        >
          {t('wanji_admin.ui_repin')}
        </Button>
      )}
    </div>
  );
}

export function ConsoleVersion({ c }: { c: WanjiConsoleView }) {
  return <SummaryOr c={c} show={(s) => <span data-testid={`wanji-version-${c.key}`}>{s.version}</span>} />;
}

export function ConsoleUptime({ c }: { c: WanjiConsoleView }) {
  const units = useUnits();
  return <SummaryOr c={c} show={(s) => duration(s.uptimeSeconds, units)} />;
}

/** CPU, the program's memory and the machine's memory in use. */
export function ConsoleLoad({ c }: { c: WanjiConsoleView }) {
  const { t } = useTranslation();
  return (
    <SummaryOr
      c={c}
      show={(s) => (
        <span className="wanji-load">
          <span>{t('wanji_admin.ui_cpu', { percent: percent(s.cpu.percent) })}</span>
          <Tooltip title={t('wanji_admin.ui_memoryHelp')}>
            <span>
              {t('wanji_admin.ui_memory', { size: size(s.memory.rss) })}
              <Typography.Text type="secondary"> · {percent(systemMemoryPercent(s.memory))}</Typography.Text>
            </span>
          </Tooltip>
        </span>
      )}
    />
  );
}

/** Tags of the modules doing something or in trouble (with their error counts); the rest counted. */
export function ConsoleModules({ c }: { c: WanjiConsoleView }) {
  const { t } = useTranslation();
  return (
    <SummaryOr
      c={c}
      show={(s) => (
        <span className="wanji-tags" data-testid={`wanji-modules-${c.key}`}>
          {shownModules(s.modules).map((m) => (
            <Tag key={m.key} color={MODULE_STATE_COLOR[m.state]} data-state={m.state}>
              {moduleName(t, m.key)}
              {m.errors > 0 && <Badge count={m.errors} size="small" overflowCount={999} className="wanji-errors" />}
            </Tag>
          ))}
          <Typography.Text type="secondary" className="wanji-module-rest" data-testid={`wanji-modules-rest-${c.key}`}>
            {restOfModules(t, s.modules)}
          </Typography.Text>
        </span>
      )}
    />
  );
}

/** Certificates close to expiry, by urgency; "none" when all are fine. */
export function ConsoleCerts({ c }: { c: WanjiConsoleView }) {
  const { t } = useTranslation();
  return (
    <SummaryOr
      c={c}
      show={(s) =>
        s.certs.length === 0 ? (
          <Typography.Text type="secondary">{t('wanji_admin.ui_certsFine')}</Typography.Text>
        ) : (
          <span className="wanji-tags">
            {s.certs.map((x) => (
              <Tag key={x.name} color={certColor(x)}>
                {x.daysLeft < 0
                  ? t('wanji_admin.ui_certExpired', { name: x.name })
                  : t('wanji_admin.ui_certDays', { name: x.name, count: x.daysLeft })}
              </Tag>
            ))}
          </span>
        )
      }
    />
  );
}

type ActionProps = Pick<ConsolesListProps, 'onOpen' | 'onRefresh' | 'onEdit' | 'onDelete'> & { c: WanjiConsoleView };

/** Open (jump-in), refresh now (spinning until the read is back), and edit / delete under "more". */
export function ConsoleActions({ c, onOpen, onRefresh, onEdit, onDelete }: ActionProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [refreshing, setRefreshing] = useState(false);
  const refresh = async () => {
    setRefreshing(true);
    try {
      await onRefresh(c);
    } finally {
      setRefreshing(false);
    }
  };
  return (
    <Space size={4} wrap>
      <Button
        size="small"
        type="primary"
        icon={<ExportOutlined />}
        disabled={!c.enabled}
        onClick={() => onOpen(c)}
        data-testid={`wanji-open-${c.key}`}
      >
        {t('wanji_admin.ui_open')}
      </Button>
      <Tooltip title={t('wanji_admin.ui_refreshNow')}>
        <Button
          size="small"
          icon={<ReloadOutlined />}
          disabled={!c.enabled}
          loading={refreshing}
          onClick={() => void refresh()}
          aria-label={t('wanji_admin.ui_refreshNow')}
          data-testid={`wanji-refresh-${c.key}`}
        />
      </Tooltip>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            {
              key: 'edit',
              icon: <EditOutlined />,
              label: <span data-testid={`wanji-edit-${c.key}`}>{t('wanji_admin.ui_edit')}</span>,
              onClick: () => onEdit(c),
            },
            {
              key: 'delete',
              danger: true,
              icon: <DeleteOutlined />,
              label: <span data-testid={`wanji-delete-${c.key}`}>{t('wanji_admin.ui_delete')}</span>,
              onClick: () =>
                modal.confirm({
                  title: t('wanji_admin.ui_deleteConfirm', { name: c.name }),
                  okText: t('wanji_admin.ui_delete'),
                  okButtonProps: { danger: true },
                  cancelText: t('common.cancel'),
                  onOk: () => onDelete(c),
                }),
            },
          ],
        }}
      >
        <Button
          size="small"
          icon={<MoreOutlined />}
          aria-label={t('wanji_admin.ui_more')}
          data-testid={`wanji-more-${c.key}`}
        />
      </Dropdown>
    </Space>
  );
}

/** The machine, then every module with its state, why, and its errors of the last 24 h. */
export function ConsoleDetail({ c }: { c: WanjiConsoleView }) {
  const { t } = useTranslation();
  const s = c.summary;
  if (!s) return <Typography.Text type="secondary">{t('wanji_admin.ui_noSummary')}</Typography.Text>;
  return (
    <div className="wanji-detail" data-testid={`wanji-detail-${c.key}`}>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 4 }}
        items={[
          { key: 'host', label: t('wanji_admin.ui_hostname'), children: s.hostname },
          { key: 'started', label: t('wanji_admin.ui_startedAt'), children: formatTime(s.startedAt) },
          { key: 'cores', label: t('wanji_admin.ui_cores'), children: s.cpu.cores },
          {
            key: 'mem',
            label: t('wanji_admin.ui_systemMemory'),
            children: `${size(s.memory.systemTotal - s.memory.systemFree)} / ${size(s.memory.systemTotal)}`,
          },
        ]}
      />
      <Table
        size="small"
        rowKey="key"
        pagination={false}
        dataSource={s.modules}
        className="wanji-modules"
        columns={[
          { title: t('wanji_admin.col_module'), key: 'key', render: (_v, m) => moduleName(t, m.key) },
          {
            title: t('wanji_admin.col_state'),
            key: 'state',
            render: (_v, m) => <Tag color={MODULE_STATE_COLOR[m.state]}>{t(`wanji_admin.ui_state_${m.state}`)}</Tag>,
          },
          {
            title: t('wanji_admin.col_reason'),
            key: 'reason',
            render: (_v, m) => (m.reason ? codedText(m.key, 'reason', m.reason) : ''),
          },
          {
            title: t('wanji_admin.col_errors'),
            key: 'errors',
            render: (_v, m) => (m.errors > 0 ? <Typography.Text type="danger">{m.errors}</Typography.Text> : 0),
          },
        ]}
      />
    </div>
  );
}
