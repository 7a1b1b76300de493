// Add or edit a sub rule of a rule: which domains and path it takes and what
// it answers with (the same service editor as the default rule).
import type { ReverseproxyRuleView, ReverseproxySubRuleView } from '@lucky/shared';
import { Divider, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { createSubRule, updateSubRule } from './api';
import {
  checkWholeSubRule,
  newSubRuleValues,
  type SubRuleValues,
  subRuleSpot,
  subRuleToValues,
  valuesToSubRuleInput,
} from './ruleForm';
import { ServiceAdvanced } from './ServiceAdvanced';
import { ServiceTypeFields } from './ServiceTypeFields';
import { SubRuleFields } from './SubRuleFields';
import { useServiceErrors } from './useServiceErrors';

export interface SubRuleDialogProps {
  open: boolean;
  /** The rule the sub rule belongs to. */
  rule?: Pick<ReverseproxyRuleView, 'key' | 'name'>;
  /** The sub rule to edit; absent = add. */
  sub?: ReverseproxySubRuleView;
  onClose: () => void;
  onSaved: (rule: ReverseproxyRuleView) => void;
}

const PREFIX: string[] = [];

export function SubRuleDialog({ open, rule, sub, onClose, onSaved }: SubRuleDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<SubRuleValues>();
  const issues = useServiceErrors(form, PREFIX, subRuleSpot);
  const ruleName = rule?.name || t('reverseproxy.unnamed');

  const save: SaveHandler = async (saved) => {
    if (!rule) return;
    const values: SubRuleValues = { ...newSubRuleValues(), ...form.getFieldsValue(true) };
    const input = valuesToSubRuleInput(values);
    issues.sending(input);
    const local = checkWholeSubRule(input);
    if (local) return [local];
    const reply = sub ? await updateSubRule(rule.key, sub.key, input) : await createSubRule(rule.key, input);
    saved(t(sub ? 'reverseproxy.subRuleSaved' : 'reverseproxy.subRuleAdded'));
    onSaved(reply.rule);
  };

  return (
    <FormDialog<SubRuleValues>
      open={open}
      title={t(sub ? 'reverseproxy.editSubRuleOf' : 'reverseproxy.addSubRuleOf', { name: ruleName })}
      onClose={onClose}
      form={form}
      errors={issues}
      onSave={save}
      testId="rp-sub"
      width={900}
      labelWidth={180}
      className="rp-dialog rp-sub-dialog"
      afterClose={() => issues.setPanels([])}
      name="rpSubRule"
      initialValues={sub ? subRuleToValues(sub) : newSubRuleValues()}
      formProps={{ requiredMark: true }}
    >
      <SubRuleFields />
      <Divider titlePlacement="start" className="rp-divider">
        {t('reverseproxy.service')}
      </Divider>
      <ServiceTypeFields prefix={PREFIX} isDefault={false} />
      <ServiceAdvanced prefix={PREFIX} open={issues.panels} onOpenChange={issues.setPanels} />
    </FormDialog>
  );
}
