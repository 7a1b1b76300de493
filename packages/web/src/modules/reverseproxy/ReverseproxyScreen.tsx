// Web service (/web): one card per rule (listener) with its default rule, sub
// rules, state and newest log lines, refreshed at the chosen interval; add and
// edit dialogs for rules and sub rules, batch domain replace, access logs.

import { PlusOutlined, SwapOutlined } from '@ant-design/icons';
import type { ReverseproxyRuleView, ReverseproxySubRuleView } from '@lucky/shared';
import { Button, Card, Empty, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModuleAlerts } from '../../components/module/ModuleAlerts';
import { ModuleHeader } from '../../components/module/ModuleHeader';
import { useModuleSwitch } from '../../components/module/useModuleSwitch';
import { BatchReplaceDialog } from './BatchReplaceDialog';
import { errorText } from './errors';
import { LogDrawer, type LogTarget } from './LogDrawer';
import { RuleCard, sitesOf } from './RuleCard';
import { RuleDialog } from './RuleDialog';
import { SubRuleDialog } from './SubRuleDialog';
import { useReverseproxyActions, useRules } from './useReverseproxy';
import './reverseproxy.css';

const DEFAULT_INTERVAL_MS = 5000;

/**
 * A dialog's state. `seq` grows with every opening and keys the dialog, so each opening starts
 * from a fresh form (an edit that was cancelled leaves nothing behind); closing keeps the key
 * so the closing animation still plays.
 */
interface DialogState<T> {
  seq: number;
  open: boolean;
  of?: T;
}
const opened =
  <T,>(of?: T) =>
  (d: DialogState<T>): DialogState<T> => ({ seq: d.seq + 1, open: true, of });
const closed = <T,>(d: DialogState<T>): DialogState<T> => ({ ...d, open: false });

interface SubTarget {
  rule: ReverseproxyRuleView;
  sub?: ReverseproxySubRuleView;
}

export default function ReverseproxyScreen() {
  const { t } = useTranslation();
  const [intervalMs, setIntervalMs] = useState(DEFAULT_INTERVAL_MS);
  const rules = useRules(intervalMs);
  const actions = useReverseproxyActions();
  const [ruleDialog, setRuleDialog] = useState<DialogState<ReverseproxyRuleView>>({ seq: 0, open: false });
  const [subDialog, setSubDialog] = useState<DialogState<SubTarget>>({ seq: 0, open: false });
  const [batch, setBatch] = useState<DialogState<never>>({ seq: 0, open: false });
  const [logsOf, setLogsOf] = useState<LogTarget | null>(null);
  const data = rules.data;
  const { busy: switching, toggle: toggleModule } = useModuleSwitch(actions.setModuleEnabled);

  const saved = (rule: ReverseproxyRuleView) => {
    actions.ruleSaved(rule);
    setRuleDialog(closed);
    setSubDialog(closed);
  };

  return (
    <div className="screen rp-screen" data-testid="reverseproxy-screen">
      <ModuleHeader
        title={t('reverseproxy.title')}
        prefix="rp"
        className="rp-toolbar"
        moduleSwitch={
          data && {
            checked: data.enabled,
            onChange: (on) => void toggleModule(on),
            busy: switching,
            label: t('reverseproxy.moduleSwitch'),
            testId: 'rp-module-switch',
            caption: t('reverseproxy.moduleSwitch'),
          }
        }
        query={rules}
        updatedAtKey="reverseproxy.updatedAt"
        interval={{ value: intervalMs, onChange: setIntervalMs }}
      >
        <Button icon={<SwapOutlined />} onClick={() => setBatch(opened())} data-testid="rp-batch-open">
          {t('reverseproxy.batchReplace')}
        </Button>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setRuleDialog(opened())}
          data-testid="rp-add-rule"
        >
          {t('reverseproxy.addRule')}
        </Button>
      </ModuleHeader>

      <ModuleAlerts
        testId="rp"
        ids={{ off: 'rp-module-off' }}
        loadError={
          rules.isError && !data && { title: t('reverseproxy.loadError'), description: errorText(rules.error, t) }
        }
        off={data && !data.enabled && { title: t('reverseproxy.moduleOff'), type: 'info' }}
        loading={!data && rules.isPending}
      />

      {data && data.list.length === 0 && (
        <Card>
          <Empty description={t('reverseproxy.noRules')} data-testid="rp-empty">
            <Typography.Paragraph type="secondary" className="rp-empty-help">
              {t('reverseproxy.noRulesHelp')}
            </Typography.Paragraph>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setRuleDialog(opened())}>
              {t('reverseproxy.addRule')}
            </Button>
          </Empty>
        </Card>
      )}

      {data?.list.map((rule) => (
        <RuleCard
          key={rule.key}
          rule={rule}
          onToggle={(on) => actions.setRuleEnabled(rule.key, on)}
          onEdit={() => setRuleDialog(opened(rule))}
          onDelete={() => actions.removeRule(rule.key)}
          onAddSub={() => setSubDialog(opened<SubTarget>({ rule }))}
          onEditSub={(sub) => setSubDialog(opened<SubTarget>({ rule, sub }))}
          onToggleSub={(sub, on) => actions.setSubRuleEnabled(rule.key, sub, on)}
          onDeleteSub={(sub) => actions.removeSubRule(rule.key, sub)}
          onLogs={(site) => setLogsOf({ key: rule.key, name: rule.name, sites: sitesOf(rule, t), site })}
        />
      ))}

      <RuleDialog
        key={`rule-${ruleDialog.seq}`}
        open={ruleDialog.open}
        rule={ruleDialog.of}
        onClose={() => setRuleDialog(closed)}
        onSaved={saved}
      />
      <SubRuleDialog
        key={`sub-${subDialog.seq}`}
        open={subDialog.open}
        rule={subDialog.of?.rule}
        sub={subDialog.of?.sub}
        onClose={() => setSubDialog(closed)}
        onSaved={saved}
      />
      <BatchReplaceDialog
        key={`batch-${batch.seq}`}
        open={batch.open}
        onClose={() => setBatch(closed)}
        onDone={() => {
          setBatch(closed);
          void actions.refresh();
        }}
      />
      <LogDrawer target={logsOf} intervalMs={intervalMs} onClose={() => setLogsOf(null)} />
    </div>
  );
}
