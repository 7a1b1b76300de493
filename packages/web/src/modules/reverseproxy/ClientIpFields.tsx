// Advanced: where the client's address comes from (the socket, or forwarded
// headers from trusted proxies only) and what the back end is told.
import { isCidrOrIp } from '@lucky/shared';
import { Form, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { TagListInput } from '../../components/TagListInput';
import { checkCidrList, type NamePath } from './serviceForm';
import { issueRule } from './validators';

export function ClientIpFields({ prefix }: { prefix: NamePath }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const n = (...p: NamePath): NamePath => [...prefix, 'clientIp', ...p];
  const fromHeaders = Form.useWatch(n('fromHeaders'), form) ?? false;
  return (
    <>
      <Form.Item
        name={n('fromHeaders')}
        label={t('reverseproxy.clientIpFromHeaders')}
        valuePropName="checked"
        extra={t('reverseproxy.clientIpFromHeadersHelp')}
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name={n('trustedProxies')}
        label={t('reverseproxy.trustedProxies')}
        hidden={!fromHeaders}
        dependencies={[n('fromHeaders')]}
        extra={t('reverseproxy.trustedProxiesHelp')}
        rules={[issueRule(t, (v, get) => (get(n('fromHeaders')) ? checkCidrList(v as string[]) : undefined))]}
      >
        <TagListInput placeholder={t('reverseproxy.cidrPlaceholder')} isValid={isCidrOrIp} />
      </Form.Item>
      <Form.Item
        name={n('addForwardedHeaders')}
        label={t('reverseproxy.addForwardedHeaders')}
        valuePropName="checked"
        extra={t('reverseproxy.addForwardedHeadersHelp')}
      >
        <Switch />
      </Form.Item>
    </>
  );
}
