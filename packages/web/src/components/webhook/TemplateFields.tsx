// The request of a template (a webhook, DDNS's callback): method and URL, header lines, the body
// (not for GET), and the success strings with the switch that turns their check off. The server
// reads stored tokens in the URL, headers and body as the mask and keeps them: the URL says so.
import { HTTP_METHODS, SECRET_MASK } from '@lucky/shared';
import { Checkbox, Form, Input, Select, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { NamePath } from '../../hooks/useFormErrors';
import './webhook.css';

export interface TemplateFieldsProps {
  /** Where the template sits in the form's values. */
  prefix: NamePath;
  urlLabel: string;
  urlPlaceholder: string;
  /** Under the URL (the variables it may use). */
  urlHelp?: ReactNode;
  headersHelp: string;
  bodyHelp?: string;
  /** `<testId>-url` names the URL input. */
  testId?: string;
}

export function TemplateFields({
  prefix,
  urlLabel,
  urlPlaceholder,
  urlHelp,
  headersHelp,
  bodyHelp,
  testId,
}: TemplateFieldsProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const n = (...rest: string[]) => [...prefix, ...rest];
  const method = Form.useWatch(n('method'), form) as string | undefined;
  const noCheck = Form.useWatch(n('disableSuccessCheck'), form) as boolean | undefined;
  const url = Form.useWatch(n('url'), form) as string | undefined;
  const masked = typeof url === 'string' && url.includes(SECRET_MASK);
  const help =
    urlHelp || masked ? (
      <>
        {urlHelp}
        {masked && <div>{t('webhook.secretPartsKeptHelp', { mask: SECRET_MASK })}</div>}
      </>
    ) : undefined;

  return (
    <>
      <Form.Item label={urlLabel} required extra={help}>
        <Space.Compact block>
          <Form.Item name={n('method')} noStyle>
            <Select
              style={{ width: 110 }}
              placeholder={t('webhook.method')}
              options={HTTP_METHODS.map((m) => ({ value: m, label: m }))}
              aria-label={t('webhook.method')}
            />
          </Form.Item>
          <Form.Item name={n('url')} noStyle>
            <Input placeholder={urlPlaceholder} data-testid={testId && `${testId}-url`} />
          </Form.Item>
        </Space.Compact>
      </Form.Item>
      <Form.Item name={n('headers')} label={t('webhook.headers')} extra={headersHelp}>
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 6 }} placeholder="Content-Type:application/json" />
      </Form.Item>
      {method && method !== 'GET' && (
        <Form.Item name={n('body')} label={t('webhook.body')} extra={bodyHelp}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} className="mono" />
        </Form.Item>
      )}
      <Form.Item label={t('webhook.successStrings')} extra={t('webhook.successStringsHelp')}>
        <Form.Item name={n('successStrings')} noStyle>
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} disabled={noCheck} />
        </Form.Item>
        <Form.Item name={n('disableSuccessCheck')} valuePropName="checked" noStyle>
          <Checkbox className="webhook-inline-check">{t('webhook.disableSuccessCheck')}</Checkbox>
        </Form.Item>
      </Form.Item>
    </>
  );
}
