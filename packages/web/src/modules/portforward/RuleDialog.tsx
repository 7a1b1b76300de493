// Add or edit a rule. The form checks what it can as the user types (the same
// checks and messages as the server); a refusal from the server lands on the
// field it names and the dialog stays open.
import type { PortforwardRuleView } from '@lucky/shared';
import { App, Button, Form, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import { createRule, updateRule } from './api';
import { errorDuration, errorText, type FieldIssue, issueOfError, issueText } from './errors';
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

  /** Opens the folded panels that hold these fields, so their errors are seen. */
  const reveal = (fields: RuleField[]) => {
    const needed = fields.map(panelOf).filter((p): p is PanelKey => p !== undefined);
    if (needed.some((p) => !panels.includes(p))) setPanels((open) => [...new Set([...open, ...needed])]);
  };

  const showIssue = (issue: FieldIssue, values: RuleFormValues) => {
    const field = formFieldOf(issue.field);
    const text = issueText(t, withToken(issue, values));
    if (!field) {
      void message.error({ content: text, duration: 10 });
      return;
    }
    reveal([field]);
    form.setFields([{ name: field, errors: [text] }]);
    // After the panel has opened.
    setTimeout(() => form.scrollToField(field, { block: 'center' }), 0);
  };

  const submit = async () => {
    try {
      await form.validateFields();
    } catch (err) {
      const fields = ((err as { errorFields?: { name: (string | number)[] }[] }).errorFields ?? []).map(
        (f) => f.name[0] as RuleField,
      );
      reveal(fields);
      return;
    }
    const values: RuleFormValues = { ...newRuleValues(), ...form.getFieldsValue(true) };
    const input = valuesToInput(values);
    const local = checkWholeRule(input);
    if (local) {
      showIssue(local, values);
      return;
    }
    setSaving(true);
    try {
      const reply = rule ? await updateRule(rule.key, input) : await createRule(input);
      void message.success(t(rule ? 'portforward.ruleSaved' : 'portforward.ruleAdded'));
      onSaved(reply.rule);
    } catch (err) {
      const issue = issueOfError(err);
      if (issue) showIssue(issue, values);
      else {
        const text = errorText(err, t);
        if (text) void message.error({ content: text, duration: errorDuration(err) });
      }
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
        data-testid="pf-rule-form"
      >
        <RuleBasicFields />
        <RuleAdvanced open={panels} onOpenChange={setPanels} />
      </Form>
    </Modal>
  );
}
