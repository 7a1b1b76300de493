// The rule form's groups after the basics, folded: channel, router port mapping, on change,
// STUN, limits, log. Every panel is rendered (hidden) from the start so its fields are part of
// the form; each header says what is set without opening it.
import { Collapse, Form, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { levelKey } from '../../components/ruleLog/levels';
import { ChannelFields } from './ChannelFields';
import { LimitsFields } from './LimitsFields';
import { LogFields } from './LogFields';
import { NotifyFields } from './NotifyFields';
import { PortMapFields } from './PortMapFields';
import { hasProtocol, newRuleValues, type PanelKey, type RuleFormValues } from './ruleForm';
import { StunFields, type StunGlobals } from './StunFields';

export interface RuleSectionsProps {
  open: PanelKey[];
  onOpenChange: (keys: PanelKey[]) => void;
  globals?: StunGlobals;
  webhookTesting: boolean;
  onTestWebhook: () => void;
}

const DEFAULTS = newRuleValues();

function Summary({ children }: { children: ReactNode }) {
  return (
    <Typography.Text type="secondary" className="stun-panel-summary">
      {children}
    </Typography.Text>
  );
}

/** What the panel headers say, from the values: a small object, so typing elsewhere re-renders nothing here. */
function headerFacts(v: RuleFormValues) {
  const all = { ...DEFAULTS, ...v };
  return {
    channelMode: all.channelMode,
    channelIp: all.channelIp,
    channelInterface: all.channelInterface,
    upnp: all.upnp,
    natpmp: all.natpmp,
    natpmpMethod: all.natpmpMethod,
    script: (all.script ?? '').trim() !== '',
    webhook: Boolean(all.webhook?.enabled),
    ddnsTask: Boolean(all.ddnsTask),
    servers: (all.stunServers ?? []).filter((s) => s.trim() !== '').length,
    heartbeatSec: all.heartbeatSec,
    maxConnections: all.maxConnections,
    udp: hasProtocol(all, 'udp'),
    tcp: hasProtocol(all, 'tcp'),
    logLevel: all.logLevel ?? DEFAULTS.logLevel,
    logCapacity: all.logCapacity ?? DEFAULTS.logCapacity,
  };
}

export function RuleSections({ open, onOpenChange, globals, webhookTesting, onTestWebhook }: RuleSectionsProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<RuleFormValues>();
  const v = Form.useWatch(headerFacts, form) ?? headerFacts(DEFAULTS);
  const maps = [v.upnp ? 'UPnP' : '', v.natpmp ? t(`stun.natpmpMethod_${v.natpmpMethod}`) : ''].filter(Boolean);
  const notify = [
    v.script ? t('stun.script') : '',
    v.webhook ? t('stun.webhook') : '',
    v.ddnsTask ? t('stun.ddnsTask') : '',
  ].filter(Boolean);

  const items = [
    {
      key: 'channel',
      label: t('stun.panelChannel'),
      extra: (
        <Summary>
          {v.channelMode === 'interface'
            ? t('stun.channelSummaryInterface', { name: v.channelInterface || '?' })
            : v.channelIp || t('stun.anyAddress')}
        </Summary>
      ),
      children: <ChannelFields />,
    },
    {
      key: 'portmap',
      label: t('stun.panelPortMap'),
      extra: <Summary>{maps.length > 0 ? maps.join(' · ') : t('stun.off')}</Summary>,
      children: <PortMapFields />,
    },
    {
      key: 'notify',
      label: t('stun.panelNotify'),
      extra: <Summary>{notify.length > 0 ? notify.join(' · ') : t('stun.none')}</Summary>,
      children: <NotifyFields testing={webhookTesting} onTestWebhook={onTestWebhook} />,
    },
    {
      key: 'stun',
      label: t('stun.panelStun'),
      extra: (
        <Summary>
          {v.servers > 0 ? t('stun.serversCount', { count: v.servers }) : t('stun.globalServers')}
          {' · '}
          {t('stun.heartbeatSummary', { value: v.heartbeatSec ?? globals?.heartbeatSec ?? '?' })}
        </Summary>
      ),
      children: <StunFields globals={globals} />,
    },
    {
      key: 'limits',
      label: t('stun.panelLimits'),
      extra: <Summary>{t('stun.limitsSummary', { max: v.maxConnections ?? '?' })}</Summary>,
      children: <LimitsFields udp={v.udp} tcp={v.tcp} />,
    },
    {
      key: 'log',
      label: t('stun.panelLog'),
      extra: (
        <Summary>
          {t(levelKey(v.logLevel))} · {v.logCapacity} {t('common.unitLines')}
        </Summary>
      ),
      children: <LogFields />,
    },
  ].map((item) => ({ ...item, forceRender: true }));

  return (
    <Collapse
      size="small"
      className="stun-sections"
      activeKey={open}
      onChange={(keys) => onOpenChange(keys as PanelKey[])}
      items={items}
      data-testid="stun-rule-sections"
    />
  );
}
