// The credential fields of one DNS provider (labels in the provider's own words, required ones
// marked, the secret as a password box with "kept unless replaced" under it when editing), and the
// TSIG algorithm for RFC 2136. Shared by the DDNS task dialog and the ACME certificate dialog (DNS-01).
import { type DdnsProvider, SECRET_MASK, TSIG_ALGORITHMS } from '@lucky/shared';
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { NamePath } from '../../hooks/useFormErrors';
import { credentialFields, PLACEHOLDERS } from './providers';

export interface DnsCredentialFieldsProps {
  /** Where the provider's fields sit in the form's values (`['dns']`). */
  prefix: NamePath;
  provider: DdnsProvider;
  /** Editing a saved item: the secret shows masked and is kept unless replaced. */
  secretKept: boolean;
  /** `<testIdPrefix>-cred-<field>` names each box. */
  testIdPrefix: string;
}

export function DnsCredentialFields({ prefix, provider, secretKept, testIdPrefix }: DnsCredentialFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      {credentialFields(provider).map((c) => (
        <Form.Item
          key={`${provider}-${c.field}`}
          name={[...prefix, c.field]}
          label={t(`ddns.${c.labelKey}`)}
          required={c.required}
          extra={c.field === 'secret' && secretKept ? t('ddns.secretKeptHelp', { mask: SECRET_MASK }) : undefined}
        >
          {c.field === 'secret' ? (
            <Input.Password
              autoComplete="new-password"
              style={{ maxWidth: 480 }}
              data-testid={`${testIdPrefix}-cred-${c.field}`}
            />
          ) : (
            <Input
              autoComplete="off"
              style={{ maxWidth: 480 }}
              placeholder={PLACEHOLDERS[provider]?.[c.field] ?? (c.required ? '' : t('ddns.optional'))}
              data-testid={`${testIdPrefix}-cred-${c.field}`}
            />
          )}
        </Form.Item>
      ))}
      {provider === 'rfc2136' && (
        <Form.Item name={[...prefix, 'tsigAlgorithm']} label={t('ddns.cred_tsigAlgorithm')}>
          <Select style={{ width: 200 }} options={TSIG_ALGORITHMS.map((a) => ({ value: a, label: a }))} />
        </Form.Item>
      )}
    </>
  );
}
