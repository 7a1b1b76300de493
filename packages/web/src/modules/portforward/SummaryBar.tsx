// Totals over all rules: the module switch, rules, listeners used of the
// limit, connections and sessions of their limits, traffic and rates.
import type { PortforwardSummary } from '@lucky/shared';
import { Card, Progress, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { rate, size } from './format';

export interface SummaryBarProps {
  summary: PortforwardSummary;
  onToggleModule: (on: boolean) => Promise<unknown>;
}

export function SummaryBar({ summary: s, onToggleModule }: SummaryBarProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      await onToggleModule(on);
    } finally {
      setBusy(false);
    }
  };
  const used = s.proxyLimit > 0 ? Math.min(100, Math.round((s.proxies / s.proxyLimit) * 100)) : 0;
  return (
    <Card size="small" className="pf-summary" data-testid="pf-summary">
      <div className="pf-summary-item pf-summary-module">
        <span className="pf-figure-label">{t('portforward.module')}</span>
        <span className="pf-summary-value">
          <Switch
            checked={s.enabled}
            loading={busy}
            onChange={(on) => void toggle(on)}
            aria-label={t('portforward.moduleSwitch')}
            data-testid="pf-module-switch"
          />
          <Tag color={s.enabled ? 'success' : 'default'}>
            {s.enabled ? t('portforward.moduleOn') : t('portforward.moduleOff')}
          </Tag>
        </span>
      </div>
      <Item label={t('portforward.rules')} value={String(s.rules)} />
      <div className="pf-summary-item">
        <span className="pf-figure-label">{t('portforward.proxiesUsed')}</span>
        <span className="pf-summary-value pf-num" data-testid="pf-summary-proxies">
          {s.proxies} / {s.proxyLimit}
        </span>
        <Progress
          percent={used}
          size="small"
          showInfo={false}
          status={used >= 100 ? 'exception' : 'normal'}
          className="pf-summary-progress"
        />
      </div>
      <Item label={t('portforward.tcpConnections')} value={`${s.tcpConnections} / ${s.maxTcpConnections}`} />
      <Item label={t('portforward.udpSessions')} value={`${s.udpSessions} / ${s.maxUdpSessions}`} />
      <Item label={t('portforward.bytesIn')} value={size(s.bytesIn)} sub={rate(s.rateIn)} testId="pf-summary-in" />
      <Item label={t('portforward.bytesOut')} value={size(s.bytesOut)} sub={rate(s.rateOut)} />
    </Card>
  );
}

function Item({ label, value, sub, testId }: { label: string; value: string; sub?: string; testId?: string }) {
  return (
    <div className="pf-summary-item" data-testid={testId}>
      <span className="pf-figure-label">{label}</span>
      <span className="pf-summary-value pf-num">
        {value}
        {sub && <span className="pf-figure-sub">{sub}</span>}
      </span>
    </div>
  );
}
