// Add or edit a sub rule of a rule: which domains and path it takes and what
// it answers with (the same service editor as the default rule).
import type { ReverseproxyRuleView, ReverseproxySubRuleView } from '@lucky/shared';
import { App, Button, Divider, Form, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogLayout } from '../../hooks/useDialogLayout';
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
  const { message } = App.useApp();
  const [form] = Form.useForm<SubRuleValues>();
  const [saving, setSaving] = useState(false);
  const layout = useDialogLayout(900);
  const issues = useServiceErrors(form, PREFIX, subRuleSpot);
  const ruleName = rule?.name || t('reverseproxy.unnamed');

  const submit = async () => {
    if (!rule || !(await issues.validate())) return;
    const values: SubRuleValues = { ...newSubRuleValues(), ...form.getFieldsValue(true) };
    const input = valuesToSubRuleInput(values);
    const local = checkWholeSubRule(input);
    if (local) {
      issues.show(local, input);
      return;
    }
    setSaving(true);
    try {
      const reply = sub ? await updateSubRule(rule.key, sub.key, input) : await createSubRule(rule.key, input);
      issues.clear();
      void message.success(t(sub ? 'reverseproxy.subRuleSaved' : 'reverseproxy.subRuleAdded'));
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
      title={t(sub ? 'reverseproxy.editSubRuleOf' : 'reverseproxy.addSubRuleOf', { name: ruleName })}
      onCancel={onClose}
      width={layout.width}
      style={layout.style}
      className={`rp-dialog rp-sub-dialog ${layout.className}`}
      mask={{ closable: false }}
      destroyOnHidden
      afterClose={() => issues.setPanels([])}
      footer={[
        <Button key="cancel" onClick={onClose} disabled={saving}>
          {t('common.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => void submit()} data-testid="rp-sub-save">
          {t('common.save')}
        </Button>,
      ]}
    >
      <Form<SubRuleValues>
        form={form}
        name="rpSubRule"
        initialValues={sub ? subRuleToValues(sub) : newSubRuleValues()}
        layout={layout.fullScreen ? 'vertical' : 'horizontal'}
        labelCol={layout.fullScreen ? undefined : { flex: '180px' }}
        labelWrap
        colon={false}
        requiredMark
        onValuesChange={issues.onValuesChange}
        data-testid="rp-sub-form"
      >
        <SubRuleFields />
        <Divider titlePlacement="start" className="rp-divider">
          {t('reverseproxy.service')}
        </Divider>
        <ServiceTypeFields prefix={PREFIX} isDefault={false} />
        <ServiceAdvanced prefix={PREFIX} open={issues.panels} onOpenChange={issues.setPanels} />
      </Form>
    </Modal>
  );
}
