// Advanced: TLS on the listening side (terminate) or towards the target
// (originate). Only TCP types can use it.
import { type ForwardType, SECRET_MASK, TLS_MODES } from '@lucky/shared';
import { Form, Input, Radio, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { PemInput } from '../../components/PemInput';
import { checkTlsMode, checkTlsPair, hasTcp, type RuleFormValues } from './ruleForm';
import { issueRule } from './validators';

export interface RuleTlsFieldsProps {
  types: ForwardType[];
}

export function RuleTlsFields({ types }: RuleTlsFieldsProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<RuleFormValues>();
  const mode = Form.useWatch('tlsMode', form) ?? 'none';
  // A stored key reads as the mask: sent back unchanged, the server keeps it.
  const keyStored = Form.useWatch('tlsKey', form) === SECRET_MASK;
  const tcp = hasTcp(types);
  const pairRule = (field: 'tlsCert' | 'tlsKey') =>
    issueRule(t, (v, get) => {
      const pair = {
        tlsMode: get('tlsMode') as RuleFormValues['tlsMode'],
        tlsCert: String((field === 'tlsCert' ? v : get('tlsCert')) ?? ''),
        tlsKey: String((field === 'tlsKey' ? v : get('tlsKey')) ?? ''),
      };
      const issue = checkTlsPair(pair);
      return issue?.field === field ? issue : undefined;
    });
  return (
    <>
      <Form.Item
        name="tlsMode"
        label={t('portforward.tlsMode')}
        dependencies={['forwardTypes']}
        extra={t(`portforward.tlsModeHelp_${mode}`)}
        rules={[issueRule(t, (v, get) => checkTlsMode(v as string, get('forwardTypes') as ForwardType[]))]}
      >
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={TLS_MODES.map((m) => ({
            value: m,
            label: t(`portforward.tls_${m}`),
            disabled: m !== 'none' && !tcp,
          }))}
        />
      </Form.Item>
      <Form.Item
        name="tlsCert"
        label={t('portforward.tlsCert')}
        hidden={mode !== 'terminate'}
        dependencies={['tlsKey', 'tlsMode']}
        extra={t('portforward.tlsCertHelp')}
        rules={[pairRule('tlsCert')]}
      >
        <PemInput placeholder="-----BEGIN CERTIFICATE-----" data-testid="pf-tls-cert" />
      </Form.Item>
      <Form.Item
        name="tlsKey"
        label={t('portforward.tlsKey')}
        hidden={mode !== 'terminate'}
        dependencies={['tlsCert', 'tlsMode']}
        extra={keyStored ? t('portforward.tlsKeyKept', { mask: SECRET_MASK }) : undefined}
        rules={[pairRule('tlsKey')]}
      >
        <PemInput placeholder="-----BEGIN PRIVATE KEY-----" data-testid="pf-tls-key" />
      </Form.Item>
      <Form.Item
        name="tlsServerName"
        label={t('portforward.tlsServerName')}
        hidden={mode !== 'originate'}
        extra={t('portforward.tlsServerNameHelp')}
      >
        <Input className="mono" style={{ maxWidth: 360 }} allowClear />
      </Form.Item>
      <Form.Item
        name="tlsCa"
        label={t('portforward.tlsCa')}
        hidden={mode !== 'originate'}
        extra={t('portforward.tlsCaHelp')}
      >
        <PemInput placeholder="-----BEGIN CERTIFICATE-----" />
      </Form.Item>
      <Form.Item
        name="tlsSkipVerify"
        label={t('portforward.tlsSkipVerify')}
        hidden={mode !== 'originate'}
        valuePropName="checked"
        extra={t('portforward.tlsSkipVerifyHelp')}
      >
        <Switch />
      </Form.Item>
    </>
  );
}
