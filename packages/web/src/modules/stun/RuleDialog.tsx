// Add or edit a rule. The form checks what it can as the user types (the shared schema the
// server parses with, and the names of the other rules); a refusal from the server lands beside
// the field it names (useFormErrors), opening its folded group, and the dialog stays open.
import type { StunRule, StunRuleView } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { valuesToWebhook } from '../../components/webhook/webhookForm';
import { useFormErrors } from '../../hooks/useFormErrors';
import { createRule, fetchSettings, stunKeys, updateRule } from './api';
import { BasicFields } from './BasicFields';
import { RuleSections } from './RuleSections';
import {
  checkRule,
  formFieldOf,
  newRuleValues,
  type PanelKey,
  panelOf,
  type RuleFormValues,
  ruleToValues,
  valuesToInput,
} from './ruleForm';
import { useStunWebhookTest } from './useStunWebhookTest';

export interface RuleDialogProps {
  open: boolean;
  /** The rule to edit (as listed when the dialog opened); absent = add. */
  rule?: StunRuleView;
  /** Names of the other rules (a name must be unique). */
  otherNames: readonly string[];
  onClose: () => void;
  onSaved: (rule: StunRuleView) => void;
}

export function RuleDialog({ open, rule, otherNames, onClose, onSaved }: RuleDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleFormValues>();
  const [panels, setPanels] = useState<PanelKey[]>([]);
  const webhookTest = useStunWebhookTest();
  // The global defaults a rule falls back on, shown as the placeholders of its empty fields.
  const settings = useQuery({
    queryKey: stunKeys.settings,
    queryFn: ({ signal }) => fetchSettings(signal),
    enabled: open,
  });
  const errors = useFormErrors(form, {
    ns: 'stun',
    nameOf: formFieldOf,
    reveal: (names) => {
      const needed = names.map((n) => panelOf(n[0])).filter((p): p is PanelKey => p !== undefined);
      if (needed.some((p) => !panels.includes(p))) setPanels((was) => [...new Set([...was, ...needed])]);
      // The webhook's fields show once it is switched on (a test checks it as if it were).
      if (names.some((n) => n[0] === 'webhook' && n.length > 1)) form.setFieldValue(['webhook', 'enabled'], true);
    },
  });

  const current = (): RuleFormValues => ({ ...newRuleValues(), ...form.getFieldsValue(true) });

  const save: SaveHandler = async (saved) => {
    const input = valuesToInput(current());
    const local = checkRule(input, otherNames);
    if (local.length > 0) return local;
    const reply = rule ? await updateRule(rule.key, input) : await createRule(input);
    saved(t(rule ? 'stun.ruleSaved' : 'stun.ruleAdded'));
    onSaved(reply.rule);
  };

  const testWebhook = () => {
    const refused = webhookTest.run(valuesToWebhook<StunRule['webhook']>(current().webhook), rule?.key ?? '');
    if (refused.length > 0) errors.show(refused);
  };

  return (
    <FormDialog<RuleFormValues>
      open={open}
      title={rule ? t('stun.editRule') : t('stun.addRule')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="stun-rule"
      width={900}
      labelWidth={170}
      className="stun-rule-dialog"
      afterClose={() => setPanels([])}
      name="stunRule"
      initialValues={rule ? ruleToValues(rule) : newRuleValues()}
      after={webhookTest.resultModal}
    >
      <BasicFields otherNames={otherNames} />
      <RuleSections
        open={panels}
        onOpenChange={setPanels}
        globals={settings.data?.settings}
        webhookTesting={webhookTest.testing}
        onTestWebhook={testWebhook}
      />
    </FormDialog>
  );
}
