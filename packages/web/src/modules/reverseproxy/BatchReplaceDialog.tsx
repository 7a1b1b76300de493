// Batch domain replace: one front-end domain swapped for another in every sub
// rule of every rule (e.g. after moving to a new DDNS name). Says how many sub
// rules changed; when none use the old domain the dialog stays open.
import { App, Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import { replaceDomain } from './api';
import { errorDuration, errorText, issueOfError, issueText } from './errors';
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

  const fieldRule = (field: keyof BatchValues) => issueRule(t, (v) => checkBatchField(field, v as string));

  const submit = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const { oldDomain, newDomain } = form.getFieldsValue();
    setSaving(true);
    try {
      const { changed } = await replaceDomain(oldDomain.trim(), newDomain.trim());
      if (changed === 0) {
        void message.warning(t('reverseproxy.batchNone', { domain: oldDomain.trim() }));
        return;
      }
      void message.success(t('reverseproxy.batchDone', { count: changed }));
      onDone();
    } catch (err) {
      const issue = issueOfError(err);
      if (issue && (issue.field === 'oldDomain' || issue.field === 'newDomain'))
        form.setFields([{ name: issue.field, errors: [issueText(t, issue)] }]);
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
