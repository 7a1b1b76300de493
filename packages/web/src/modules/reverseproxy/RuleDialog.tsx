// Add or edit a rule: the listener and its default rule (what answers requests
// no sub rule takes). Sub rules have their own dialog; an edit sends them back
// as the server has them right now, so a sub rule changed meanwhile is kept.
import type { ReverseproxyRuleView } from '@lucky/shared';
import { Divider, Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { createRule, fetchRule, updateRule } from './api';
import { RuleListenerFields } from './RuleListenerFields';
import { checkWholeRule, newRuleValues, type RuleValues, ruleSpot, ruleToValues, valuesToRuleInput } from './ruleForm';
import { ServiceAdvanced } from './ServiceAdvanced';
import { ServiceTypeFields } from './ServiceTypeFields';
import { useServiceErrors } from './useServiceErrors';

export interface RuleDialogProps {
  open: boolean;
  /** The rule to edit (as listed when the dialog opened); absent = add. */
  rule?: ReverseproxyRuleView;
  onClose: () => void;
  onSaved: (rule: ReverseproxyRuleView) => void;
}

const PREFIX = ['defaultRule'];

export function RuleDialog({ open, rule, onClose, onSaved }: RuleDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RuleValues>();
  const issues = useServiceErrors(form, PREFIX, ruleSpot);

  const save: SaveHandler = async (saved) => {
    const values: RuleValues = { ...newRuleValues(), ...form.getFieldsValue(true) };
    let input = valuesToRuleInput(values, rule?.subRules);
    issues.sending(input);
    if (rule) {
      input = valuesToRuleInput(values, (await fetchRule(rule.key)).rule.subRules);
      issues.sending(input);
    }
    const local = checkWholeRule(input);
    if (local) return [local];
    const reply = rule ? await updateRule(rule.key, input) : await createRule(input);
    saved(t(rule ? 'reverseproxy.ruleSaved' : 'reverseproxy.ruleAdded'));
    onSaved(reply.rule);
  };

  return (
    <FormDialog<RuleValues>
      open={open}
      title={rule ? t('reverseproxy.editRule') : t('reverseproxy.addRule')}
      onClose={onClose}
      form={form}
      errors={issues}
      onSave={save}
      testId="rp-rule"
      width={900}
      labelWidth={180}
      className="rp-dialog rp-rule-dialog"
      afterClose={() => issues.setPanels([])}
      name="rpRule"
      initialValues={rule ? ruleToValues(rule) : newRuleValues()}
      formProps={{ requiredMark: true }}
    >
      <RuleListenerFields />
      <Divider titlePlacement="start" className="rp-divider">
        {t('reverseproxy.defaultRule')}
      </Divider>
      <Typography.Paragraph type="secondary" className="rp-divider-help">
        {t('reverseproxy.defaultRuleHelp')}
      </Typography.Paragraph>
      <ServiceTypeFields prefix={PREFIX} isDefault />
      <ServiceAdvanced prefix={PREFIX} open={issues.panels} onOpenChange={issues.setPanels} />
    </FormDialog>
  );
}
