// Batch domain replace: one front-end domain swapped for another in every sub
// rule of every rule (e.g. after moving to a new DDNS name). Says how many sub
// rules changed; when none use the old domain the dialog stays open.
import { App, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
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

  const errors = useFormErrors(form, {
    ns: 'reverseproxy',
    nameOf: (field) => (field === 'oldDomain' || field === 'newDomain' ? [field] : undefined),
    describe: (f) => {
      const issue = issueOfFailure(f);
      return issue && issueText(t, issue);
    },
  });

  const fieldRule = (field: keyof BatchValues) => issueRule(t, (v) => checkBatchField(field, v as string));

  const save: SaveHandler = async (saved) => {
    const { oldDomain, newDomain } = form.getFieldsValue();
    const { changed } = await replaceDomain(oldDomain.trim(), newDomain.trim());
    if (changed === 0) {
      errors.clear();
      void message.warning(t('reverseproxy.batchNone', { domain: oldDomain.trim() }));
      return;
    }
    saved(t('reverseproxy.batchDone', { count: changed }));
    onDone();
  };

  return (
    <FormDialog<BatchValues>
      open={open}
      title={t('reverseproxy.batchTitle')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="rp-batch"
      width={560}
      className="rp-dialog rp-batch-dialog"
      okText={t('reverseproxy.batchReplace')}
      initialValues={{ oldDomain: '', newDomain: '' }}
      formProps={{ requiredMark: true }}
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
    </FormDialog>
  );
}
