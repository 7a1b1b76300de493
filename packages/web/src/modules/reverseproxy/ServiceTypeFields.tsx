// The service type selector and each type's own fields: reverse proxy (back
// ends), redirect and URL jump (target), file server (FilesFields), text output
// and close connection. Fields of the other types stay in the form, hidden, so
// switching back and forth loses nothing.
import { REDIRECT_CODES, REVERSEPROXY_VARIABLES, SERVICE_TYPES } from '@lucky/shared';
import { Alert, AutoComplete, Form, Input, Radio, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LinesInput } from '../../components/LinesInput';
import { FilesFields } from './FilesFields';
import { checkRedirectTarget, checkTargets, type NamePath, type ServiceType } from './serviceForm';
import { issueRule } from './validators';

export interface ServiceTypeFieldsProps {
  prefix: NamePath;
  /** The default rule may leave the back ends empty (it then answers 404). */
  isDefault: boolean;
}

/** `{clientIP} {host} …` as the help under fields that expand them. */
export function VariablesHelp({ intro }: { intro: string }) {
  return (
    <span className="rp-vars">
      {intro}{' '}
      {REVERSEPROXY_VARIABLES.map((v) => (
        <Typography.Text key={v} code className="rp-var">
          {`{${v}}`}
        </Typography.Text>
      ))}
    </span>
  );
}

export function ServiceTypeFields({ prefix, isDefault }: ServiceTypeFieldsProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const n = (...p: NamePath): NamePath => [...prefix, ...p];
  const type: ServiceType = Form.useWatch(n('serviceType'), form) ?? 'proxy';
  const redirecting = type === 'redirect' || type === 'jump';

  return (
    <>
      <Form.Item
        name={n('serviceType')}
        label={t('reverseproxy.serviceType')}
        extra={t(`reverseproxy.typeHelp_${type}`)}
      >
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          className="rp-type-radio"
          options={SERVICE_TYPES.map((x) => ({ value: x, label: t(`reverseproxy.type_${x}`) }))}
          data-testid="rp-service-type"
        />
      </Form.Item>

      {/* reverse proxy */}
      <Form.Item
        name={n('targets')}
        label={t('reverseproxy.targets')}
        hidden={type !== 'proxy'}
        required={!isDefault}
        dependencies={[n('serviceType')]}
        extra={isDefault ? t('reverseproxy.targetsDefaultHelp') : t('reverseproxy.targetsHelp')}
        rules={[
          issueRule(t, (v, get) =>
            get(n('serviceType')) === 'proxy' ? checkTargets(v as string[], !isDefault) : undefined,
          ),
        ]}
      >
        <LinesInput placeholder="http://192.168.1.10:8080" data-testid="rp-targets" />
      </Form.Item>
      <Form.Item
        name={n('keepHost')}
        label={t('reverseproxy.keepHost')}
        hidden={type !== 'proxy'}
        valuePropName="checked"
        extra={t('reverseproxy.keepHostHelp')}
      >
        <Switch checkedChildren={t('reverseproxy.keep')} unCheckedChildren={t('reverseproxy.rewrite')} />
      </Form.Item>
      <Form.Item
        name={n('websocket')}
        label={t('reverseproxy.websocket')}
        hidden={type !== 'proxy'}
        valuePropName="checked"
        extra={t('reverseproxy.websocketHelp')}
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name={n('backendSkipVerify')}
        label={t('reverseproxy.skipVerify')}
        hidden={type !== 'proxy'}
        valuePropName="checked"
        extra={t('reverseproxy.skipVerifyHelp')}
      >
        <Switch />
      </Form.Item>

      {/* redirect / URL jump */}
      <Form.Item
        name={n('redirectTarget')}
        label={t('reverseproxy.redirectTarget')}
        hidden={!redirecting}
        required
        dependencies={[n('serviceType')]}
        extra={<VariablesHelp intro={t(`reverseproxy.redirectTargetHelp_${type === 'jump' ? 'jump' : 'redirect'}`)} />}
        rules={[
          issueRule(t, (v, get) => {
            const x = get(n('serviceType'));
            return x === 'redirect' || x === 'jump' ? checkRedirectTarget(v as string) : undefined;
          }),
        ]}
      >
        <Input className="mono" placeholder="https://example.com" allowClear data-testid="rp-redirect-target" />
      </Form.Item>
      <Form.Item name={n('redirectCode')} label={t('reverseproxy.redirectCode')} hidden={type !== 'redirect'}>
        <Select<number>
          style={{ width: 260 }}
          options={REDIRECT_CODES.map((c) => ({ value: c, label: `${c} · ${t(`reverseproxy.code_${c}`)}` }))}
        />
      </Form.Item>
      <Form.Item
        name={n('keepPath')}
        label={t('reverseproxy.keepPath')}
        hidden={!redirecting}
        valuePropName="checked"
        extra={t('reverseproxy.keepPathHelp')}
      >
        <Switch />
      </Form.Item>

      {/* file server */}
      <FilesFields prefix={prefix} hidden={type !== 'files'} />

      {/* text output */}
      <Form.Item
        name={n('text')}
        label={t('reverseproxy.text')}
        hidden={type !== 'text'}
        extra={<VariablesHelp intro={t('reverseproxy.textHelp')} />}
      >
        <Input.TextArea className="mono" autoSize={{ minRows: 4, maxRows: 14 }} data-testid="rp-text" />
      </Form.Item>
      <Form.Item name={n('textContentType')} label={t('reverseproxy.textContentType')} hidden={type !== 'text'}>
        <AutoComplete
          className="mono"
          style={{ maxWidth: 360 }}
          options={['text/plain; charset=utf-8', 'text/html; charset=utf-8', 'application/json; charset=utf-8'].map(
            (v) => ({ value: v, label: v }),
          )}
        />
      </Form.Item>

      {type === 'close' && (
        <Form.Item label=" " colon={false}>
          <Alert type="info" showIcon title={t('reverseproxy.closeHelp')} />
        </Form.Item>
      )}
    </>
  );
}
