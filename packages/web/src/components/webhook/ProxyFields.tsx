// An outbound proxy setting: the type (no proxy, HTTP, HTTPS, SOCKS5, and the module's own types,
// which carry no address: the module knows the proxy), then address, user and password.
import { PROXY_TYPES } from '@lucky/shared';
import { Form, Input, Select, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { NamePath } from '../../hooks/useFormErrors';

export interface ProxyFieldsProps {
  /** Where the proxy sits in the form's values (`type`, `address`, `user`, `password` below it). */
  prefix: NamePath;
  /** The module's own proxy types, offered after "no proxy" (DDNS: the task's provider proxy). */
  moduleTypes?: { value: string; label: string }[];
  extra?: ReactNode;
}

export function ProxyFields({ prefix, moduleTypes = [], extra }: ProxyFieldsProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const type = Form.useWatch([...prefix, 'type'], form) as string | undefined;
  const [none, ...standard] = PROXY_TYPES.map((x) => ({ value: x as string, label: t(`webhook.proxy_${x}`) }));
  const hasAddress = type !== undefined && type !== 'none' && !moduleTypes.some((m) => m.value === type);

  return (
    <Form.Item label={t('webhook.proxy')} extra={extra}>
      <Space wrap>
        <Form.Item name={[...prefix, 'type']} noStyle>
          <Select
            style={{ width: 170 }}
            options={[none, ...moduleTypes, ...standard]}
            aria-label={t('webhook.proxy')}
          />
        </Form.Item>
        {hasAddress && (
          <>
            <Form.Item name={[...prefix, 'address']} noStyle>
              <Input placeholder={t('webhook.proxyAddressPlaceholder')} style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name={[...prefix, 'user']} noStyle>
              <Input placeholder={t('webhook.proxyUser')} style={{ width: 140 }} autoComplete="off" />
            </Form.Item>
            <Form.Item name={[...prefix, 'password']} noStyle>
              <Input.Password
                placeholder={t('webhook.proxyPassword')}
                style={{ width: 160 }}
                autoComplete="new-password"
              />
            </Form.Item>
          </>
        )}
      </Space>
    </Form.Item>
  );
}
