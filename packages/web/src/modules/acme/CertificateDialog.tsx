// Add or edit a certificate: the account, the names (tags, each checked as the server does; a
// wildcard asks for DNS-01), the key type, the challenge and its settings, renewal (days before,
// ARI), and what runs after each issue (export, command, webhook). The form runs the server's own
// checks before sending; a refusal lands on the field it names (opening its switch) and the
// dialog stays.
import {
  ACME_KEY_TYPES,
  type AcmeAccountView,
  type AcmeCertificateView,
  acmeWebhook,
  isAcmeName,
  ACME_LIMITS as L,
} from '@lucky/shared';
import { Alert, Button, Divider, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { numberRangeRule } from '../../components/numberRangeRule';
import { TagListInput } from '../../components/TagListInput';
import { useWebhookTest } from '../../components/webhook/useWebhookTest';
import { testProblems, valuesToWebhook } from '../../components/webhook/webhookForm';
import { type NamePath, useFormErrors } from '../../hooks/useFormErrors';
import { AcmeWebhookFields, CommandFields, ExportFields } from './AfterIssueFields';
import { addCertificate, testWebhook, updateCertificate } from './api';
import { ChallengeFields } from './ChallengeFields';
import { type CertFormValues, certToValues, checkCert, formFieldOf, newCertValues, valuesToCert } from './certForm';

export interface CertificateDialogProps {
  open: boolean;
  /** The certificate to edit (as listed when the dialog opened); absent = add. */
  certificate?: AcmeCertificateView;
  accounts: readonly AcmeAccountView[];
  /** DNS providers that can write TXT records. */
  providers: readonly string[];
  onClose: () => void;
  onSaved: (certificate: AcmeCertificateView) => void;
}

export function CertificateDialog({
  open,
  certificate,
  accounts,
  providers,
  onClose,
  onSaved,
}: CertificateDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<CertFormValues>();
  const [initial] = useState<CertFormValues>(() =>
    certificate ? certToValues(certificate) : newCertValues(accounts[0]?.key ?? '', providers[0] ?? 'cloudflare'),
  );
  const names = (Form.useWatch('names', form) ?? initial.names) as string[];
  const challenge = Form.useWatch('challenge', form) ?? initial.challenge;
  const webhookTest = useWebhookTest('acme');
  const wildcard = names.find((n) => n.startsWith('*.'));

  const errors = useFormErrors(form, {
    ns: 'acme',
    // A list entry (`names.2`) belongs to its list's box; only the form's own items.
    nameOf: (field) => {
      const name = formFieldOf(field);
      return name.length > 0 && Object.hasOwn(initial, name[0]) ? name : undefined;
    },
    // A problem inside a switched-off block switches it on so the field shows.
    reveal: (list: NamePath[]) => {
      if (list.some((n) => n[0] === 'webhook')) form.setFieldValue(['webhook', 'enabled'], true);
      if (list.some((n) => n[0] === 'export')) form.setFieldValue(['export', 'enabled'], true);
      if (list.some((n) => n[0] === 'dns' && n[1] !== 'provider'))
        form.setFieldValue(['dns', 'propagationCheck'], true);
    },
  });

  const currentValues = (): CertFormValues => ({ ...initial, ...form.getFieldsValue(true) });

  const save: SaveHandler = async (saved) => {
    const input = valuesToCert(currentValues());
    const issues = checkCert(input);
    if (issues.length > 0) return issues;
    const reply = certificate ? await updateCertificate(certificate.key, input) : await addCertificate(input);
    saved(t(certificate ? 'acme.cert_saved' : 'acme.cert_added'));
    onSaved(reply.certificate);
  };

  const runWebhookTest = () => {
    const webhook = valuesToWebhook(currentValues().webhook);
    const issues = testProblems(acmeWebhook.testSchema, webhook, 'webhook.');
    if (issues.length > 0) {
      errors.show(issues);
      return;
    }
    void webhookTest.run(() => testWebhook(webhook, certificate?.key ?? ''));
  };

  return (
    <FormDialog<CertFormValues>
      open={open}
      title={t(certificate ? 'acme.cert_edit' : 'acme.cert_add')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="acme-cert"
      width={900}
      labelWidth={170}
      name="acmeCertificate"
      initialValues={initial}
      after={webhookTest.resultModal}
    >
      <Divider titlePlacement="start">{t('acme.dialog_sectionBasic')}</Divider>
      <Form.Item label={t('acme.cert_name')} required>
        <Space wrap>
          <Form.Item name="name" noStyle>
            <Input maxLength={L.name.max} style={{ width: 260 }} data-testid="acme-cert-name" />
          </Form.Item>
          <Form.Item name="enabled" valuePropName="checked" noStyle>
            <Switch checkedChildren={t('common.enabled')} unCheckedChildren={t('common.disabled')} />
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item name="account" label={t('acme.cert_account')} required>
        <Select
          style={{ maxWidth: 360 }}
          placeholder={t('acme.cert_accountPlaceholder')}
          notFoundContent={t('acme.account_none')}
          options={accounts.map((a) => ({ value: a.key, label: a.name }))}
          data-testid="acme-cert-account"
        />
      </Form.Item>
      <Form.Item name="names" label={t('acme.cert_names')} required extra={t('acme.cert_namesHelp')}>
        <TagListInput isValid={isAcmeName} placeholder="example.com *.example.com" data-testid="acme-cert-names" />
      </Form.Item>
      {wildcard && challenge !== 'dns-01' && (
        <Alert
          type="warning"
          showIcon
          className="acme-dialog-note"
          title={t('acme.cert_wildcardHint', { name: wildcard })}
          data-testid="acme-cert-wildcard-hint"
          action={
            <Button size="small" onClick={() => form.setFieldValue('challenge', 'dns-01')}>
              {t('acme.cert_useDns')}
            </Button>
          }
        />
      )}
      <Form.Item name="keyType" label={t('acme.ui_keyType')}>
        <Select
          style={{ width: 220 }}
          options={ACME_KEY_TYPES.map((k) => ({ value: k, label: t(`acme.ui_keyType_${k}`) }))}
        />
      </Form.Item>

      <Divider titlePlacement="start">{t('acme.dialog_sectionChallenge')}</Divider>
      <ChallengeFields providers={providers} secretKept={!!certificate} />

      <Divider titlePlacement="start">{t('acme.dialog_sectionRenewal')}</Divider>
      <Form.Item
        name="renewDaysBefore"
        label={t('acme.cert_renewDaysBefore')}
        extra={t('acme.cert_renewDaysBeforeHelp')}
        rules={[numberRangeRule(t, L.renewDaysBefore.min, L.renewDaysBefore.max)]}
      >
        <InputNumber<number> precision={0} suffix={t('common.unitDay')} style={{ width: 140 }} />
      </Form.Item>
      <Form.Item name="useAri" label={t('acme.cert_useAri')} valuePropName="checked" extra={t('acme.cert_useAriHelp')}>
        <Switch />
      </Form.Item>

      <Divider titlePlacement="start">{t('acme.dialog_sectionAfter')}</Divider>
      <ExportFields />
      <CommandFields />
      <AcmeWebhookFields testing={webhookTest.testing} onTestWebhook={runWebhookTest} />
    </FormDialog>
  );
}
