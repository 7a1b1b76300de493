// Totals over all rules: the module switch, rules, mappings open and broken.
import type { StunSummary } from '@lucky/shared';
import { Card, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface SummaryBarProps {
  summary: StunSummary;
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
  return (
    <Card size="small" className="stun-summary" data-testid="stun-summary">
      <div className="stun-summary-item">
        <span className="stun-summary-label">{t('stun.module')}</span>
        <span className="stun-summary-value">
          <Switch
            checked={s.enabled}
            loading={busy}
            onChange={(on) => void toggle(on)}
            aria-label={t('stun.moduleSwitch')}
            data-testid="stun-module-switch"
          />
          <Tag color={s.enabled ? 'success' : 'default'}>{s.enabled ? t('stun.moduleOn') : t('stun.moduleOff')}</Tag>
        </span>
      </div>
      <Item label={t('stun.rules')} value={s.rules} testId="stun-summary-rules" />
      <Item label={t('stun.mappingsOpen')} value={s.open} tone="ok" testId="stun-summary-open" />
      <Item
        label={t('stun.mappingsBroken')}
        value={s.broken}
        tone={s.broken > 0 ? 'bad' : undefined}
        testId="stun-summary-broken"
      />
    </Card>
  );
}

function Item({ label, value, tone, testId }: { label: string; value: number; tone?: 'ok' | 'bad'; testId: string }) {
  return (
    <div className="stun-summary-item" data-testid={testId}>
      <span className="stun-summary-label">{label}</span>
      <span className={`stun-summary-value stun-num${tone ? ` stun-tone-${tone}` : ''}`}>{value}</span>
    </div>
  );
}
