// One row per (forward type × listen port) of a rule: its state — with the
// reason when it failed, e.g. the port is in use, in the UI language — and its
// live figures.
import type { PortforwardProxyStatus } from '@lucky/shared';
import { Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { codedText } from '../../i18n/coded';
import { rate, size } from './format';
import { StateTag } from './StateTag';

const PAGE_SIZE = 8;

export function ProxyTable({ proxies }: { proxies: PortforwardProxyStatus[] }) {
  const { t } = useTranslation();
  return (
    <Table<PortforwardProxyStatus>
      className="pf-proxy-table"
      size="small"
      rowKey="id"
      dataSource={proxies}
      pagination={proxies.length > PAGE_SIZE ? { pageSize: PAGE_SIZE, size: 'small', showSizeChanger: false } : false}
      scroll={{ x: 760 }}
      rowClassName={(p) => (p.state === 'error' ? 'pf-proxy-error' : '')}
      columns={[
        {
          title: t('portforward.colPort'),
          key: 'port',
          width: 230,
          render: (_, p) => (
            <span className="pf-proxy-port">
              <Tag className="pf-type-tag">{p.type.toUpperCase()}</Tag>
              <span className="mono">{p.listen}</span>
              <span className="pf-arrow">→</span>
              <span className="mono">{p.targetPort}</span>
            </span>
          ),
        },
        {
          title: t('portforward.colState'),
          key: 'state',
          render: (_, p) => (
            <span className="pf-proxy-state" data-testid={`pf-proxy-${p.id}`}>
              <StateTag state={p.state} />
              {(p.reason || p.error) && (
                <Typography.Text type="danger" className="pf-proxy-reason">
                  {codedText('portforward', 'reason', { ...p.reason, text: p.error })}
                </Typography.Text>
              )}
            </span>
          ),
        },
        {
          title: t('portforward.colLive'),
          key: 'live',
          width: 110,
          align: 'right',
          render: (_, p) => <span className="pf-num">{p.protocol === 'tcp' ? p.connections : p.sessions}</span>,
        },
        {
          title: t('portforward.colIn'),
          key: 'in',
          width: 130,
          align: 'right',
          render: (_, p) => <Figure total={p.bytesIn} perSecond={p.rateIn} />,
        },
        {
          title: t('portforward.colOut'),
          key: 'out',
          width: 130,
          align: 'right',
          render: (_, p) => <Figure total={p.bytesOut} perSecond={p.rateOut} />,
        },
        {
          title: t('portforward.colAccepted'),
          key: 'accepted',
          width: 170,
          align: 'right',
          render: (_, p) => (
            <span className="pf-num">
              {p.accepted}
              {p.refused > 0 && (
                <Typography.Text type="warning" title={t('portforward.refusedHelp')}>
                  {' '}
                  / {p.refused}
                </Typography.Text>
              )}
            </span>
          ),
        },
      ]}
    />
  );
}

function Figure({ total, perSecond }: { total: number; perSecond: number }) {
  return (
    <span className="pf-figure">
      <span className="pf-num">{size(total)}</span>
      <Typography.Text type="secondary" className="pf-rate">
        {rate(perSecond)}
      </Typography.Text>
    </span>
  );
}
