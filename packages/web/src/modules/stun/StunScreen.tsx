// STUN NAT traversal (/stun): the rules with their mappings, refreshed by themselves at the chosen
// interval; add/edit dialog, global settings (servers, keep-alive, defaults, webhook), NAT type
// detection, logs.
import { PlusOutlined, RadarChartOutlined, SettingOutlined } from '@ant-design/icons';
import type { StunRuleView } from '@lucky/shared';
import { Button, Card, Empty } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModuleAlerts } from '../../components/module/ModuleAlerts';
import { ModuleHeader } from '../../components/module/ModuleHeader';
import { errorText } from './errors';
import { LogDrawer } from './LogDrawer';
import { NatTypeDialog } from './NatTypeDialog';
import { RuleCard } from './RuleCard';
import { RuleDialog } from './RuleDialog';
import { SettingsDialog } from './SettingsDialog';
import { SummaryBar } from './SummaryBar';
import { useRules, useStunActions } from './useStun';
import './stun.css';

const DEFAULT_INTERVAL_MS = 5000;

/**
 * A dialog's state. `seq` grows with every opening and keys the dialog, so each opening starts
 * from a fresh form; closing keeps the key so the closing animation still plays.
 */
interface DialogState<T> {
  seq: number;
  open: boolean;
  of?: T;
}
const opened =
  <T,>(of?: T) =>
  (d: DialogState<T>) => ({ seq: d.seq + 1, open: true, of });
const closed = <T,>(d: DialogState<T>) => ({ ...d, open: false });
const shut = { seq: 0, open: false };

export default function StunScreen() {
  const { t } = useTranslation();
  const [intervalMs, setIntervalMs] = useState(DEFAULT_INTERVAL_MS);
  const rules = useRules(intervalMs);
  const actions = useStunActions();
  const [editing, setEditing] = useState<DialogState<StunRuleView>>(shut);
  const [settings, setSettings] = useState<DialogState<never>>(shut);
  const [natType, setNatType] = useState<DialogState<{ key: string; name: string }>>(shut);
  const [logsOf, setLogsOf] = useState<{ key: string; name: string } | null>(null);
  const data = rules.data;
  const enabled = data?.summary.enabled;
  const otherNames = (data?.list ?? []).filter((r) => r.key !== editing.of?.key).map((r) => r.name);

  return (
    <div className="screen stun-screen" data-testid="stun-screen">
      <ModuleHeader
        title={t('stun.title')}
        prefix="stun"
        className="stun-toolbar"
        query={rules}
        updatedAtKey="stun.updatedAt"
        interval={{ value: intervalMs, onChange: setIntervalMs }}
      >
        <Button
          icon={<RadarChartOutlined />}
          disabled={!enabled}
          onClick={() => setNatType(opened())}
          data-testid="stun-open-nat-type"
        >
          {t('stun.detectNatType')}
        </Button>
        <Button icon={<SettingOutlined />} onClick={() => setSettings(opened())} data-testid="stun-open-settings">
          {t('stun.globalSettings')}
        </Button>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(opened())} data-testid="stun-add-rule">
          {t('stun.addRule')}
        </Button>
      </ModuleHeader>

      <ModuleAlerts
        testId="stun"
        loadError={rules.isError && !data && { title: t('stun.loadError'), description: errorText(rules.error, t) }}
        off={
          data &&
          !enabled && {
            title: t('stun.moduleDisabled'),
            help: t('stun.moduleDisabledHelp'),
            enable: { text: t('stun.enableModule'), onClick: () => void actions.setModuleEnabled(true) },
          }
        }
        loading={!data && rules.isPending}
      />

      {data && <SummaryBar summary={data.summary} onToggleModule={actions.setModuleEnabled} />}

      {data && data.list.length === 0 && (
        <Card>
          <Empty description={t('stun.noRules')}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(opened())}>
              {t('stun.addRule')}
            </Button>
          </Empty>
        </Card>
      )}

      {data?.list.map((rule) => (
        <RuleCard
          key={rule.key}
          rule={rule}
          onToggle={(on) => actions.setRuleEnabled(rule.key, on)}
          onEdit={() => setEditing(opened(rule))}
          onReopen={() => actions.reopen(rule.key)}
          onNatType={() => setNatType(opened({ key: rule.key, name: rule.name }))}
          onDelete={() => actions.removeRule(rule.key)}
          onLogs={() => setLogsOf({ key: rule.key, name: rule.name })}
        />
      ))}

      <RuleDialog
        key={`rule-${editing.seq}`}
        open={editing.open}
        rule={editing.of}
        otherNames={otherNames}
        onClose={() => setEditing(closed)}
        onSaved={(rule) => {
          actions.ruleSaved(rule);
          setEditing(closed);
        }}
      />
      <SettingsDialog key={`settings-${settings.seq}`} open={settings.open} onClose={() => setSettings(closed)} />
      <NatTypeDialog
        key={`nat-${natType.seq}`}
        open={natType.open}
        rule={natType.of}
        onClose={() => setNatType(closed)}
      />
      <LogDrawer
        rule={logsOf}
        webhookCalls={data?.list.find((r) => r.key === logsOf?.key)?.webhookHistory ?? []}
        intervalMs={intervalMs}
        onClose={() => setLogsOf(null)}
        onClear={actions.clearLogs}
      />
    </div>
  );
}
