// What a sub rule takes: its name and switch, the front-end domains (one per
// line, exact or a one-level `*.` wildcard) and the path prefix.
import { REVERSEPROXY_LIMITS } from '@lucky/shared';
import { Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { LinesInput } from '../../components/LinesInput';
import { checkDomains, checkPathPrefix } from './ruleForm';
import { issueRule } from './validators';

export function SubRuleFields() {
  const { t } = useTranslation();
  const max = REVERSEPROXY_LIMITS.name.max;
  return (
    <>
      <Form.Item
        name="name"
        label={t('reverseproxy.name')}
        rules={[{ max, message: t('reverseproxy.err_tooLong', { max }) }]}
      >
        <Input
          placeholder={t('reverseproxy.subNamePlaceholder')}
          maxLength={max}
          allowClear
          style={{ maxWidth: 360 }}
          data-testid="rp-sub-name"
        />
      </Form.Item>
      <Form.Item name="enabled" label={t('reverseproxy.subRuleSwitch')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name="domains"
        label={t('reverseproxy.domains')}
        required
        extra={t('reverseproxy.domainsHelp')}
        rules={[issueRule(t, (v) => checkDomains(v as string[]))]}
      >
        <LinesInput placeholder={'app.example.com\n*.example.com'} data-testid="rp-domains" />
      </Form.Item>
      <Form.Item
        name="pathPrefix"
        label={t('reverseproxy.pathPrefix')}
        extra={t('reverseproxy.pathPrefixHelp')}
        rules={[issueRule(t, (v) => checkPathPrefix(v as string))]}
      >
        <Input className="mono" placeholder="/" style={{ maxWidth: 260 }} data-testid="rp-path-prefix" />
      </Form.Item>
      <Form.Item name="remark" label={t('reverseproxy.remark')}>
        <Input maxLength={256} allowClear style={{ maxWidth: 560 }} />
      </Form.Item>
    </>
  );
}
