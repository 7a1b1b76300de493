// The rarely changed options, folded away: limits, TLS, access list, log.
// Every panel is rendered (hidden) from the start so its fields are part of
// the form; each header says what is set without opening it.
import type { ForwardType } from '@lucky/shared';
import { Collapse, Form, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { levelKey } from '../../components/ruleLog/levels';
import { rate } from './format';
import { RuleAccessFields } from './RuleAccessFields';
import { RuleLimitsFields } from './RuleLimitsFields';
import { RuleLogFields } from './RuleLogFields';
import { RuleTlsFields } from './RuleTlsFields';
import { newRuleValues, type PanelKey, type RuleFormValues } from './ruleForm';

export interface RuleAdvancedProps {
  open: PanelKey[];
  onOpenChange: (keys: PanelKey[]) => void;
}

const DEFAULTS = newRuleValues();
const LIMIT_FIELDS = [
  'maxTcpConnections',
  'maxUdpSessions',
  'perIpMaxConnections',
  'tcpIdleTimeoutMs',
  'udpTimeoutMs',
  'udpPacketSize',
] as const satisfies readonly (keyof RuleFormValues)[];

function Summary({ children }: { children: ReactNode }) {
  return (
    <Typography.Text type="secondary" className="pf-panel-summary">
      {children}
    </Typography.Text>
  );
}

export function RuleAdvanced({ open, onOpenChange }: RuleAdvancedProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<RuleFormValues>();
  const v = Form.useWatch((all: RuleFormValues) => all, form) ?? DEFAULTS;
  const types: ForwardType[] = v.forwardTypes ?? [];

  const speeds = [
    v.speedLimitIn ? `↑ ${rate(v.speedLimitIn)}` : '',
    v.speedLimitOut ? `↓ ${rate(v.speedLimitOut)}` : '',
  ].filter(Boolean);
  const limitsChanged = LIMIT_FIELDS.some((f) => v[f] !== undefined && v[f] !== DEFAULTS[f]);
  const limitsSummary = [...speeds, limitsChanged ? t('portforward.customized') : ''].filter(Boolean).join(' · ');

  const accessCount = (v.accessList ?? []).length;
  const items = [
    {
      key: 'limits',
      label: t('portforward.panelLimits'),
      extra: <Summary>{limitsSummary || t('portforward.defaults')}</Summary>,
      children: <RuleLimitsFields types={types} />,
    },
    {
      key: 'tls',
      label: t('portforward.panelTls'),
      extra: <Summary>{t(`portforward.tls_${v.tlsMode ?? 'none'}`)}</Summary>,
      children: <RuleTlsFields types={types} />,
    },
    {
      key: 'access',
      label: t('portforward.panelAccess'),
      extra: (
        <Summary>
          {t(`portforward.access_${v.accessMode ?? 'off'}`)}
          {v.accessMode && v.accessMode !== 'off' ? ` · ${accessCount}` : ''}
        </Summary>
      ),
      children: <RuleAccessFields />,
    },
    {
      key: 'log',
      label: t('portforward.panelLog'),
      extra: (
        <Summary>
          {t(levelKey(v.logLevel ?? DEFAULTS.logLevel))} · {v.logCapacity ?? DEFAULTS.logCapacity}{' '}
          {t('common.unitLines')}
        </Summary>
      ),
      children: <RuleLogFields />,
    },
  ].map((item) => ({ ...item, forceRender: true }));

  return (
    <div className="pf-advanced">
      <Typography.Text strong className="pf-advanced-title">
        {t('portforward.advanced')}
      </Typography.Text>
      <Collapse
        size="small"
        activeKey={open}
        onChange={(keys) => onOpenChange(keys as PanelKey[])}
        items={items}
        data-testid="pf-advanced"
      />
    </div>
  );
}
