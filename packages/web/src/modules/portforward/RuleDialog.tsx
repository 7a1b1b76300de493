// Add or edit a rule. The form checks what it can as the user types (the same
// checks and messages as the server); a refusal from the server lands on the
// field it names (useFormErrors) and the dialog stays open.
import type { PortforwardRuleView } from '@lucky/shared';
import { Form } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { useFormErrors } from '../../hooks/useFormErrors';
import { createRule, updateRule } from './api';
import { isIssueCode, issueText } from './errors';
import { RuleAdvanced } from './RuleAdvanced';
import { RuleBasicFields } from './RuleBasicFields';
import {
  checkWholeRule,
  formFieldOf,
  newRuleValues,
  type PanelKey,
  panelOf,
  type RuleField,
  type RuleFormValues,
  ruleToValues,
  valuesToInput,
  withToken,
} from './ruleForm';

export interface RuleDialogProps {
  open: boolean;
  /** The rule to edit (as listed when the dialog opened); absent = add. */
  rule?: PortforwardRuleView;
  onClose: () => void;
  onSaved: (rule: PortforwardRuleView) => void;
}

export function RuleDialog({ open, rule, onClose, onSaved }: RuleDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleFormValues>();
  const [panels, setPanels] = useState<PanelKey[]>([]);
  /** What the last save sent: a refusal of a list entry by index names the entry. */
  const sent = useRef<RuleFormValues>(newRuleValues());
  const errors = useFormErrors(form, {
    ns: 'portforward',
    nameOf: (field) => {
      const name = formFieldOf(field);
      return name && [name];
    },
    describe: ({ field = '', code, params = {} }) =>
      isIssueCode(code) ? issueText(t, withToken({ field, code, params }, sent.current)) : undefined,
    // Opens the folded panels that hold these fields, so their errors are seen.
    reveal: (names) => {
      const needed = names.map((n) => panelOf(n[0] as RuleField)).filter((p): p is PanelKey => p !== undefined);
      if (needed.some((p) => !panels.includes(p))) setPanels((open) => [...new Set([...open, ...needed])]);
    },
  });

  const save: SaveHandler = async (saved) => {
    const values: RuleFormValues = { ...newRuleValues(), ...form.getFieldsValue(true) };
    sent.current = values;
    const input = valuesToInput(values);
    const local = checkWholeRule(input);
    if (local) return [local];
    const reply = rule ? await updateRule(rule.key, input) : await createRule(input);
    saved(t(rule ? 'portforward.ruleSaved' : 'portforward.ruleAdded'));
    onSaved(reply.rule);
  };

  return (
    <FormDialog<RuleFormValues>
      open={open}
      title={rule ? t('portforward.editRule') : t('portforward.addRule')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="pf-rule"
      width={860}
      labelWidth={170}
      className="pf-rule-dialog"
      afterClose={() => setPanels([])}
      name="pfRule"
      initialValues={rule ? ruleToValues(rule) : newRuleValues()}
      formProps={{ requiredMark: true }}
    >
      <RuleBasicFields />
      <RuleAdvanced open={panels} onOpenChange={setPanels} />
    </FormDialog>
  );
}
