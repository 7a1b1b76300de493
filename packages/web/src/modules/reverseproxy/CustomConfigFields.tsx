// Advanced: the service's custom config (spec §3), nginx-style directives, checked line by line
// as typed with the server's own parser. A stored credential value reads as ****** and is kept
// while the ****** stays.
import { SECRET_MASK } from '@lucky/shared';
import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkCustomConfig, type NamePath } from './serviceForm';
import { issueRule } from './validators';

const EXAMPLE = [
  'proxy_set_header X-Site "home lab";',
  'proxy_hide_header X-Powered-By;',
  'add_header Strict-Transport-Security "max-age=31536000";',
].join('\n');

export function CustomConfigFields({ prefix }: { prefix: NamePath }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const text = Form.useWatch([...prefix, 'customConfig'], form) as string | undefined;
  return (
    <Form.Item
      name={[...prefix, 'customConfig']}
      label={t('reverseproxy.customConfig')}
      rules={[issueRule(t, (v) => checkCustomConfig(v as string))]}
      extra={
        <div className="rp-custom-help">
          <div>{t('reverseproxy.customConfigHelp')}</div>
          <Typography.Text code>proxy_set_header</Typography.Text>{' '}
          <Typography.Text code>proxy_hide_header</Typography.Text> <Typography.Text code>add_header</Typography.Text>
          <div>{t('reverseproxy.customConfigNoVariables')}</div>
          {text?.includes(SECRET_MASK) && <div>{t('reverseproxy.customConfigMaskHelp', { mask: SECRET_MASK })}</div>}
        </div>
      }
    >
      <Input.TextArea
        className="mono"
        autoSize={{ minRows: 3, maxRows: 14 }}
        placeholder={EXAMPLE}
        spellCheck={false}
        data-testid="rp-custom-config"
      />
    </Form.Item>
  );
}
