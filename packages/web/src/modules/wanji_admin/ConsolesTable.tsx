// The one table of all consoles (wide screens; a phone gets ConsoleCards): name and address, a
// health badge (why not, in the UI language, and "next try in …" while the server backs off),
// version, uptime, CPU, memory, module states as small tags with their error counts, certificates
// close to expiry; a row expands to each module's detail. Row actions: open (jump-in), refresh
// now, edit, switch, delete; a row whose certificate is no longer the pinned one offers re-pin.
// Between a phone and a wide screen the table scrolls sideways.
import type { WanjiConsoleView } from '@lucky/shared';
import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useWindowSize } from '../../hooks/useWindowSize';
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

export type ConsolesTableProps = ConsolesListProps;

export function ConsolesTable(props: ConsolesTableProps) {
  const { t } = useTranslation();
  // On a narrow screen nothing is pinned: pinned name and action columns would leave no room to scroll.
  const wide = useWindowSize().width > 768;

  return (
    <Table<WanjiConsoleView>
      rowKey="key"
      size="small"
      className="wanji-table"
      loading={props.loading}
      dataSource={props.consoles}
      pagination={false}
      scroll={{ x: 1000 }}
      locale={{ emptyText: props.empty }}
      rowSelection={{
        selectedRowKeys: props.selected,
        onChange: (keys) => props.onSelect(keys.map(String)),
        columnWidth: 36,
      }}
      onRow={(c) => ({ 'data-testid': `wanji-row-${c.key}` }) as React.HTMLAttributes<HTMLElement>}
      expandable={{ expandedRowRender: (c) => <ConsoleDetail c={c} />, columnWidth: 36 }}
      columns={[
        {
          title: t('wanji_admin.col_console'),
          key: 'name',
          fixed: wide ? 'left' : undefined,
          width: 170,
          render: (_v, c) => (
            <div className="wanji-name">
              <span className="wanji-name-line">
                <ConsoleSwitch c={c} onToggle={props.onToggle} />
                <Typography.Text strong>{c.name}</Typography.Text>
              </span>
              <ConsoleAddress c={c} />
            </div>
          ),
        },
        {
          title: t('wanji_admin.col_health'),
          key: 'health',
          width: 150,
          render: (_v, c) => <ConsoleHealth c={c} onRepin={props.onRepin} />,
        },
        { title: t('wanji_admin.col_version'), key: 'version', width: 82, render: (_v, c) => <ConsoleVersion c={c} /> },
        { title: t('wanji_admin.col_uptime'), key: 'uptime', width: 76, render: (_v, c) => <ConsoleUptime c={c} /> },
        { title: t('wanji_admin.col_load'), key: 'load', width: 116, render: (_v, c) => <ConsoleLoad c={c} /> },
        {
          title: t('wanji_admin.col_modules'),
          key: 'modules',
          width: 128,
          render: (_v, c) => <ConsoleModules c={c} />,
        },
        { title: t('wanji_admin.col_certs'), key: 'certs', width: 110, render: (_v, c) => <ConsoleCerts c={c} /> },
        {
          title: t('common.actions'),
          key: 'actions',
          fixed: wide ? 'right' : undefined,
          width: 120,
          render: (_v, c) => (
            <ConsoleActions
              c={c}
              onOpen={props.onOpen}
              onRefresh={props.onRefresh}
              onEdit={props.onEdit}
              onDelete={props.onDelete}
            />
          ),
        },
      ]}
    />
  );
}
