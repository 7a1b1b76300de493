// Batch domain replace: one front-end domain swapped for another in every sub
// rule of every rule (e.g. after moving to a new DDNS name). Says how many sub
// rules changed; when none use the old domain the dialog stays open.
import { App, Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import { useFormErrors } from '../../hooks/useFormErrors';
import { replaceDomain } from './api';
import { issueOfFailure, issueText } from './errors';
import { checkBatchField } from './ruleForm';
import { issueRule } from './validators';

interface BatchValues {
  oldDomain: string;
  newDomain: string;
}

export interface BatchReplaceDialogProps {
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}

export function BatchReplaceDialog({ open, onClose, onDone }: BatchReplaceDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<BatchValues>();
  const [saving, setSaving] = useState(false);
  const layout = useDialogLayout(560);

  const errors = useFormErrors(form, {
    ns: 'reverseproxy',
    nameOf: (field) => (field === 'oldDomain' || field === 'newDomain' ? [field] : undefined),
    describe: (f) => {
      const issue = issueOfFailure(f);
      return issue && issueText(t, issue);
    },
  });

  const fieldRule = (field: keyof BatchValues) => issueRule(t, (v) => checkBatchField(field, v as string));

  const submit = async () => {
    if (!(await errors.validate())) return;
    const { oldDomain, newDomain } = form.getFieldsValue();
    setSaving(true);
    try {
      const { changed } = await replaceDomain(oldDomain.trim(), newDomain.trim());
      errors.clear();
      if (changed === 0) {
        void message.warning(t('reverseproxy.batchNone', { domain: oldDomain.trim() }));
        return;
      }
      void message.success(t('reverseproxy.batchDone', { count: changed }));
      onDone();
    } catch (err) {
      errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('reverseproxy.batchTitle')}
      onCancel={onClose}
      width={layout.width}
      style={layout.style}
      className={`rp-dialog rp-batch-dialog ${layout.className}`}
      mask={{ closable: false }}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose} disabled={saving}>
          {t('common.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => void submit()} data-testid="rp-batch-save">
          {t('reverseproxy.batchReplace')}
        </Button>,
      ]}
    >
      <Form<BatchValues>
        form={form}
        layout="vertical"
        initialValues={{ oldDomain: '', newDomain: '' }}
        requiredMark
        onValuesChange={errors.onValuesChange}
        data-testid="rp-batch-form"
      >
        <Form.Item name="oldDomain" label={t('reverseproxy.batchOld')} required rules={[fieldRule('oldDomain')]}>
          <Input className="mono" placeholder="old.example.com" allowClear data-testid="rp-batch-old" />
        </Form.Item>
        <Form.Item
          name="newDomain"
          label={t('reverseproxy.batchNew')}
          required
          extra={t('reverseproxy.batchHelp')}
          rules={[fieldRule('newDomain')]}
        >
          <Input className="mono" placeholder="new.example.com" allowClear data-testid="rp-batch-new" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
