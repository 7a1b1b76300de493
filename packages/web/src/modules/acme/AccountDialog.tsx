// Add or edit an ACME account: name, e-mail, the CA (its directory shown; a custom directory URL),
// External Account Binding (required for the CAs that need it, optional for a custom one), the key
// type and, for a private directory, the CA certificate its TLS is checked against. The form runs
// the server's own checks before sending; a refusal lands on the field it names.
import {
  ACME_CAS,
  ACME_KEY_TYPES,
  type AcmeAccountView,
  type AcmeCa,
  ACME_LIMITS as L,
  SECRET_MASK,
} from '@lucky/shared';
import { Form, Input, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { PemInput } from '../../components/PemInput';
import { type NamePath, useFormErrors } from '../../hooks/useFormErrors';
import {
  type AccountFormValues,
  accountToValues,
  checkAccount,
  directoryOf,
  eabNeed,
  newAccountValues,
  valuesToAccount,
} from './accountForm';
import { addAccount, updateAccount } from './api';

export interface AccountDialogProps {
  open: boolean;
  /** The account to edit (as listed when the dialog opened); absent = add. */
  account?: AcmeAccountView;
  onClose: () => void;
  onSaved: (account: AcmeAccountView) => void;
}

export function AccountDialog({ open, account, onClose, onSaved }: AccountDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AccountFormValues>();
  const [initial] = useState<AccountFormValues>(() => (account ? accountToValues(account) : newAccountValues()));
  const ca = (Form.useWatch('ca', form) ?? initial.ca) as AcmeCa;
  const directoryUrl = (Form.useWatch('directoryUrl', form) ?? initial.directoryUrl) as string;
  const need = eabNeed(ca);
  const errors = useFormErrors(form, {
    ns: 'acme',
    // Only the form's own items; anything else (a field the server adds) becomes a message.
    nameOf: (field) => {
      const name: NamePath = field.split('.');
      return Object.hasOwn(initial, name[0]) ? name : undefined;
    },
  });

  const save: SaveHandler = async (saved) => {
    const input = valuesToAccount({ ...initial, ...form.getFieldsValue(true) });
    const issues = checkAccount(input);
    if (issues.length > 0) return issues;
    const reply = account ? await updateAccount(account.key, input) : await addAccount(input);
    saved(t(account ? 'acme.account_saved' : 'acme.account_added'));
    onSaved(reply.account);
  };

  return (
    <FormDialog<AccountFormValues>
      open={open}
      title={t(account ? 'acme.account_edit' : 'acme.account_add')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="acme-account"
      width={720}
      labelWidth={150}
      name="acmeAccount"
      initialValues={initial}
    >
      <Form.Item name="name" label={t('acme.account_name')} required>
        <Input maxLength={L.name.max} style={{ maxWidth: 320 }} data-testid="acme-account-name" />
      </Form.Item>
      <Form.Item name="email" label={t('acme.account_email')} extra={t('acme.account_emailHelp')}>
        <Input
          type="email"
          autoComplete="email"
          maxLength={L.email.max}
          style={{ maxWidth: 360 }}
          placeholder="admin@example.com"
          data-testid="acme-account-email"
        />
      </Form.Item>
      <Form.Item
        name="ca"
        label={t('acme.account_ca')}
        extra={
          ca !== 'custom' && (
            <Typography.Text type="secondary" className="mono acme-directory" data-testid="acme-account-directory">
              {directoryOf(ca, directoryUrl)}
            </Typography.Text>
          )
        }
      >
        <Select
          style={{ maxWidth: 360 }}
          options={ACME_CAS.map((c) => ({ value: c, label: t(`acme.account_ca_${c}`) }))}
          data-testid="acme-account-ca"
        />
      </Form.Item>
      {ca === 'custom' && (
        <Form.Item
          name="directoryUrl"
          label={t('acme.account_directoryUrl')}
          required
          extra={t('acme.account_directoryUrlHelp')}
        >
          <Input
            autoComplete="off"
            className="mono"
            placeholder="https://ca.example.lan/acme/directory"
            data-testid="acme-account-directory-url"
          />
        </Form.Item>
      )}
      {need !== 'none' && (
        <>
          <Form.Item
            name={['eab', 'kid']}
            label={t('acme.account_eabKid')}
            required={need === 'required'}
            extra={t(need === 'required' ? 'acme.account_eabRequiredHelp' : 'acme.account_eabOptionalHelp')}
          >
            <Input autoComplete="off" className="mono" style={{ maxWidth: 480 }} data-testid="acme-account-eab-kid" />
          </Form.Item>
          <Form.Item
            name={['eab', 'hmacKey']}
            label={t('acme.account_eabHmacKey')}
            required={need === 'required'}
            extra={account ? t('ddns.secretKeptHelp', { mask: SECRET_MASK }) : undefined}
          >
            <Input.Password
              autoComplete="new-password"
              className="mono"
              style={{ maxWidth: 480 }}
              data-testid="acme-account-eab-hmac"
            />
          </Form.Item>
        </>
      )}
      <Form.Item name="keyType" label={t('acme.ui_keyType')}>
        <Select
          style={{ width: 220 }}
          options={ACME_KEY_TYPES.map((k) => ({ value: k, label: t(`acme.ui_keyType_${k}`) }))}
          data-testid="acme-account-key-type"
        />
      </Form.Item>
      {(ca === 'custom' || initial.caCertPem !== '') && (
        <Form.Item name="caCertPem" label={t('acme.account_caCert')} extra={t('acme.account_caCertHelp')}>
          <PemInput placeholder="-----BEGIN CERTIFICATE-----" data-testid="acme-account-ca-cert" />
        </Form.Item>
      )}
    </FormDialog>
  );
}
