// Port forwarding (/portforward): the rule list with live figures, refreshed
// by itself at the chosen interval; add/edit dialog, global settings, logs.
import { PlusOutlined, SettingOutlined } from '@ant-design/icons';
import type { PortforwardRuleView } from '@lucky/shared';
import { Button, Card, Empty } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModuleAlerts } from '../../components/module/ModuleAlerts';
import { ModuleHeader } from '../../components/module/ModuleHeader';
import { errorText } from './errors';
import { LogDrawer } from './LogDrawer';
import { RuleCard } from './RuleCard';
import { RuleDialog } from './RuleDialog';
import { SettingsDialog } from './SettingsDialog';
import { SummaryBar } from './SummaryBar';
import { usePortforwardActions, useRules } from './usePortforward';
import './portforward.css';

const DEFAULT_INTERVAL_MS = 5000;

/**
 * A dialog's state. `seq` grows with every opening and keys the dialog, so each opening starts
 * from a fresh form (an edit that was cancelled leaves nothing behind); closing keeps the key
 * so the closing animation still plays.
 */
interface DialogState {
  seq: number;
  open: boolean;
  rule?: PortforwardRuleView;
}
const opened = (rule?: PortforwardRuleView) => (d: DialogState) => ({ seq: d.seq + 1, open: true, rule });
const closed = (d: DialogState) => ({ ...d, open: false });

export default function PortforwardScreen() {
  const { t } = useTranslation();
  const [intervalMs, setIntervalMs] = useState(DEFAULT_INTERVAL_MS);
  const rules = useRules(intervalMs);
  const actions = usePortforwardActions();
  const [editing, setEditing] = useState<DialogState>({ seq: 0, open: false });
  const [settings, setSettings] = useState<DialogState>({ seq: 0, open: false });
  const [logsOf, setLogsOf] = useState<{ key: string; name: string } | null>(null);
  const data = rules.data;
  const enabled = data?.summary.enabled;

  return (
    <div className="screen pf-screen" data-testid="portforward-screen">
      <ModuleHeader
        title={t('portforward.title')}
        prefix="pf"
        className="pf-toolbar"
        query={rules}
        updatedAtKey="portforward.updatedAt"
        interval={{ value: intervalMs, onChange: setIntervalMs }}
      >
        <Button icon={<SettingOutlined />} onClick={() => setSettings(opened())} data-testid="pf-open-settings">
          {t('portforward.globalSettings')}
        </Button>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(opened())} data-testid="pf-add-rule">
          {t('portforward.addRule')}
        </Button>
      </ModuleHeader>

      <ModuleAlerts
        testId="pf"
        loadError={
          rules.isError && !data && { title: t('portforward.loadError'), description: errorText(rules.error, t) }
        }
        off={
          data &&
          !enabled && {
            title: t('portforward.moduleDisabled'),
            help: t('portforward.moduleDisabledHelp'),
            enable: { text: t('portforward.enableModule'), onClick: () => void actions.setModuleEnabled(true) },
          }
        }
        loading={!data && rules.isPending}
      />

      {data && <SummaryBar summary={data.summary} onToggleModule={actions.setModuleEnabled} />}

      {data && data.list.length === 0 && (
        <Card>
          <Empty description={t('portforward.noRules')}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(opened())}>
              {t('portforward.addRule')}
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
          onDelete={() => actions.removeRule(rule.key)}
          onLogs={() => setLogsOf({ key: rule.key, name: rule.name })}
        />
      ))}

      <RuleDialog
        key={`rule-${editing.seq}`}
        open={editing.open}
        rule={editing.rule}
        onClose={() => setEditing(closed)}
        onSaved={(rule) => {
          actions.ruleSaved(rule);
          setEditing(closed);
        }}
      />
      <SettingsDialog key={`settings-${settings.seq}`} open={settings.open} onClose={() => setSettings(closed)} />
      <LogDrawer rule={logsOf} intervalMs={intervalMs} onClose={() => setLogsOf(null)} onClear={actions.clearLogs} />
    </div>
  );
}
