// Add or edit a rule: the listener and its default rule (what answers requests
// no sub rule takes). Sub rules have their own dialog; an edit sends them back
// as the server has them right now, so a sub rule changed meanwhile is kept.
import type { ReverseproxyRuleView } from '@lucky/shared';
import { App, Button, Divider, Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogLayout } from '../../hooks/useDialogLayout';
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
  const { message } = App.useApp();
  const [form] = Form.useForm<RuleValues>();
  const [saving, setSaving] = useState(false);
  const layout = useDialogLayout(900);
  const issues = useServiceErrors(form, PREFIX, ruleSpot);

  const submit = async () => {
    if (!(await issues.validate())) return;
    const values: RuleValues = { ...newRuleValues(), ...form.getFieldsValue(true) };
    setSaving(true);
    let input = valuesToRuleInput(values, rule?.subRules);
    try {
      if (rule) input = valuesToRuleInput(values, (await fetchRule(rule.key)).rule.subRules);
      const local = checkWholeRule(input);
      if (local) {
        issues.show(local, input);
        return;
      }
      const reply = rule ? await updateRule(rule.key, input) : await createRule(input);
      issues.clear();
      void message.success(t(rule ? 'reverseproxy.ruleSaved' : 'reverseproxy.ruleAdded'));
      onSaved(reply.rule);
    } catch (err) {
      issues.show(err, input);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={rule ? t('reverseproxy.editRule') : t('reverseproxy.addRule')}
      onCancel={onClose}
      width={layout.width}
      style={layout.style}
      className={`rp-dialog rp-rule-dialog ${layout.className}`}
      mask={{ closable: false }}
      destroyOnHidden
      afterClose={() => issues.setPanels([])}
      footer={[
        <Button key="cancel" onClick={onClose} disabled={saving}>
          {t('common.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => void submit()} data-testid="rp-rule-save">
          {t('common.save')}
        </Button>,
      ]}
    >
      <Form<RuleValues>
        form={form}
        name="rpRule"
        initialValues={rule ? ruleToValues(rule) : newRuleValues()}
        layout={layout.fullScreen ? 'vertical' : 'horizontal'}
        labelCol={layout.fullScreen ? undefined : { flex: '180px' }}
        labelWrap
        colon={false}
        requiredMark
        onValuesChange={issues.onValuesChange}
        data-testid="rp-rule-form"
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
      </Form>
    </Modal>
  );
}
