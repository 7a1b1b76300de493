// Add a certificate: the PEM chain and its private key, each pasted or read
// from a file, plus a remark. The boxes are checked for PEM here; the server
// checks that they parse and belong together, and its refusal lands on the
// field it names.
import { App, Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PemInput } from '../../components/PemInput';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import { useFormErrors } from '../../hooks/useFormErrors';
import { addCert, addIssue, type CertField, checkCertPem, checkKeyPem, pemProblemText, splitBundle } from './certs';

export interface CertAddDialogProps {
  open: boolean;
  onClose: () => void;
  /** After the server stored it (the list refreshes). */
  onAdded: (key: string) => void;
}

interface Values {
  cert: string;
  key: string;
  remark: string;
}

const REMARK_MAX = 256;
/** The API's names of the dialog's fields. */
const FIELD_OF: Record<string, keyof Values> = { CertBase64: 'cert', KeyBase64: 'key', Remark: 'remark' };

export function CertAddDialog({ open, onClose, onAdded }: CertAddDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const layout = useDialogLayout(720);
  const errors = useFormErrors(form, {
    ns: 'safe',
    // The API's name, or the dialog's own (the store's refusals mapped by `addIssue`).
    nameOf: (field) => {
      const name = FIELD_OF[field] ?? Object.values(FIELD_OF).find((f) => f === field);
      return name && [name];
    },
  });

  /** A bundle (chain + key in one file) dropped into either box fills both. */
  const onValuesChange = (changed: Partial<Values>) => {
    errors.onValuesChange(changed);
    const field = (Object.keys(changed) as (keyof Values)[]).find((f) => f === 'cert' || f === 'key');
    if (!field) return;
    const bundle = splitBundle(changed[field] ?? '');
    if (!bundle) return;
    const other = form.getFieldValue(field === 'cert' ? 'key' : 'cert') as string | undefined;
    if (other?.trim() && field === 'cert') {
      // The key box already has something: only keep the chain here.
      form.setFieldsValue({ cert: bundle.cert });
    } else form.setFieldsValue(bundle);
    void form.validateFields(['cert', 'key']).catch(() => undefined);
  };

  const submit = async () => {
    if (!(await errors.validate())) return;
    const values = form.getFieldsValue() as Values;
    setSaving(true);
    try {
      const key = await addCert({
        remark: (values.remark ?? '').trim(),
        cert: values.cert.trim(),
        key: values.key.trim(),
      });
      errors.clear();
      void message.success(t('safe.certAdded'));
      onAdded(key);
    } catch (err) {
      // The store's own refusals in this dialog's words (a key of another certificate, a duplicate …).
      const issue = addIssue(err, t);
      errors.show(issue ? { field: issue.field, msg: issue.text } : err);
    } finally {
      setSaving(false);
    }
  };

  const pemRule = (field: CertField) => ({
    validator: (_: unknown, v: string | undefined) => {
      const problem = field === 'cert' ? checkCertPem(v) : checkKeyPem(v);
      return problem ? Promise.reject(new Error(pemProblemText(t, field, problem))) : Promise.resolve();
    },
  });

  return (
    <Modal
      open={open}
      title={t('safe.certAddTitle')}
      onCancel={onClose}
      width={layout.width}
      style={layout.style}
      className={`cert-add-dialog ${layout.className}`}
      mask={{ closable: false }}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose} disabled={saving}>
          {t('common.cancel')}
        </Button>,
        <Button key="save" type="primary" loading={saving} onClick={() => void submit()} data-testid="cert-add-save">
          {t('safe.certAddSubmit')}
        </Button>,
      ]}
    >
      <Form<Values>
        form={form}
        name="certAdd"
        initialValues={{ cert: '', key: '', remark: '' }}
        layout="vertical"
        requiredMark
        onValuesChange={onValuesChange}
        data-testid="cert-add-form"
      >
        <Typography.Paragraph type="secondary" className="cert-add-intro">
          {t('safe.certAddIntro')}
        </Typography.Paragraph>
        <Form.Item
          name="cert"
          label={t('safe.certPem')}
          extra={t('safe.certPemHelp')}
          required
          rules={[pemRule('cert')]}
        >
          <PemInput
            placeholder={'-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----'}
            accept=".pem,.crt,.cer,.txt"
            minRows={4}
            data-testid="cert-add-cert"
          />
        </Form.Item>
        <Form.Item name="key" label={t('safe.certKey')} extra={t('safe.certKeyHelp')} required rules={[pemRule('key')]}>
          <PemInput
            placeholder={'-----BEGIN PRIVATE KEY-----\n…\n-----END PRIVATE KEY-----'}
            accept=".pem,.key,.txt"
            minRows={4}
            data-testid="cert-add-key"
          />
        </Form.Item>
        <Form.Item
          name="remark"
          label={t('safe.certRemark')}
          rules={[{ max: REMARK_MAX, message: t('safe.certRemarkTooLong', { max: REMARK_MAX }) }]}
        >
          <Input
            placeholder={t('safe.certRemarkPlaceholder')}
            maxLength={REMARK_MAX}
            allowClear
            data-testid="cert-add-remark"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
