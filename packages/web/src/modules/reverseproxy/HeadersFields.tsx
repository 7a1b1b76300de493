// Advanced: headers added towards the back end and to every answer, as rows of
// name and value. A credential header's stored value reads with its secret part
// masked (`Bearer ******`); left so, the stored value is kept.
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkHeaderName, type NamePath } from './serviceForm';
import { issueRule } from './validators';

function HeaderList({ name, label, help }: { name: NamePath; label: string; help: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={label} extra={help}>
      <Form.List name={name}>
        {(fields, { add, remove }) => (
          <div className="rp-rows">
            {fields.map((f) => (
              <div key={f.key} className="rp-row">
                <Form.Item
                  name={[f.name, 'name']}
                  className="rp-row-item rp-header-name"
                  rules={[issueRule(t, (v) => checkHeaderName(v as string))]}
                >
                  <Input className="mono" placeholder="X-Header" aria-label={t('reverseproxy.headerName')} />
                </Form.Item>
                <Form.Item name={[f.name, 'value']} className="rp-row-item rp-header-value">
                  <Input
                    className="mono"
                    placeholder={t('reverseproxy.headerValue')}
                    aria-label={t('reverseproxy.headerValue')}
                  />
                </Form.Item>
                <Button
                  type="text"
                  icon={<DeleteOutlined />}
                  onClick={() => remove(f.name)}
                  aria-label={t('reverseproxy.remove')}
                />
              </div>
            ))}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', value: '' })}>
              {t('reverseproxy.addHeader')}
            </Button>
          </div>
        )}
      </Form.List>
    </Form.Item>
  );
}

export function HeadersFields({ prefix }: { prefix: NamePath }) {
  const { t } = useTranslation();
  return (
    <>
      <HeaderList
        name={[...prefix, 'requestHeaders']}
        label={t('reverseproxy.requestHeaders')}
        help={t('reverseproxy.requestHeadersHelp')}
      />
      <HeaderList
        name={[...prefix, 'responseHeaders']}
        label={t('reverseproxy.responseHeaders')}
        help={t('reverseproxy.responseHeadersHelp')}
      />
    </>
  );
}
