// Add or edit a rule. The form checks what it can as the user types (the same
// checks and messages as the server); a refusal from the server lands on the
// field it names (useFormErrors) and the dialog stays open.
import type { PortforwardRuleView } from '@lucky/shared';
import { App, Button, Form, Modal } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogLayout } from '../../hooks/useDialogLayout';
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
  const { message } = App.useApp();
  const [form] = Form.useForm<RuleFormValues>();
  const [panels, setPanels] = useState<PanelKey[]>([]);
  const [saving, setSaving] = useState(false);
  const layout = useDialogLayout(860);
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

  const submit = async () => {
    if (!(await errors.validate())) return;
    const values: RuleFormValues = { ...newRuleValues(), ...form.getFieldsValue(true) };
    sent.current = values;
    const input = valuesToInput(values);
    const local = checkWholeRule(input);
    if (local) {
      errors.show(local);
      return;
    }
    setSaving(true);
    try {
      const reply = rule ? await updateRule(rule.key, input) : await createRule(input);
      errors.clear();
      void message.success(t(rule ? 'portforward.ruleSaved' : 'portforward.ruleAdded'));
      onSaved(reply.rule);
    } catch (err) {
      errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={rule ? t('portforward.editRule') : t('portforward.addRule')}
      onCancel={onClose}
      width={layout.width}
      style={layout.style}
      className={`pf-rule-dialog ${layout.className}`}
      mask={{ closable: false }}
      destroyOnHidden
      afterClose={() => setPanels([])}
      footer={[
        <Button key="cancel" onClick={onClose} disabled={saving}>
          {t('common.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => void submit()} data-testid="pf-rule-save">
          {t('common.save')}
        </Button>,
      ]}
    >
      <Form<RuleFormValues>
        form={form}
        name="pfRule"
        initialValues={rule ? ruleToValues(rule) : newRuleValues()}
        layout={layout.fullScreen ? 'vertical' : 'horizontal'}
        labelCol={layout.fullScreen ? undefined : { flex: '170px' }}
        labelWrap
        colon={false}
        requiredMark
        onValuesChange={errors.onValuesChange}
        data-testid="pf-rule-form"
      >
        <RuleBasicFields />
        <RuleAdvanced open={panels} onOpenChange={setPanels} />
      </Form>
    </Modal>
  );
}
