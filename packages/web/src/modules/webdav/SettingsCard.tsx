// The server's settings in place on the screen: listener (port, address, network), HTTPS with the
// certificate picked from the store, the path prefix, who may connect (LAN only, allow / block
// lists, trusted proxies), anonymous read and the connection caps. Only what changed is sent; a
// refused value lands beside its field in the user's language.
import { isCidrOrIp, WEBDAV_LIMITS as L, NETWORK_TYPES, normalizePathPrefix, type WebdavSettings } from '@lucky/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App, AutoComplete, Button, Card, Form, Input, InputNumber, Radio, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { numberRangeRule } from '../../components/numberRangeRule';
import { TagListInput } from '../../components/TagListInput';
import { useFormErrors } from '../../hooks/useFormErrors';
import { useWindowSize } from '../../hooks/useWindowSize';
import { saveSettings, webdavKeys } from './api';

const FIELDS: (keyof WebdavSettings)[] = [
  'port',
  'address',
  'network',
  'tls',
  'pathPrefix',
  'lanOnly',
  'allowList',
  'blockList',
  'trustedProxies',
  'anonymousReadOnly',
  'maxConnections',
  'perAddressMaxConnections',
];

export interface SettingsCardProps {
  settings: WebdavSettings;
  certNames: string[];
}

export function SettingsCard({ settings, certNames }: SettingsCardProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<WebdavSettings>();
  const [saving, setSaving] = useState(false);
  const narrow = useWindowSize().width <= 768;
  const tls = Form.useWatch(['tls', 'enabled'], form) ?? settings.tls.enabled;
  const errors = useFormErrors(form, {
    ns: 'webdav',
    nameOf: (field) => {
      const [head, ...rest] = field.split('.');
      if (!FIELDS.includes(head as keyof WebdavSettings)) return undefined;
      // A list entry's issue goes on the list; tls.certificate on its own item.
      return head === 'tls' && rest[0] ? ['tls', rest[0]] : [head];
    },
  });

  const submit = async () => {
    if (!(await errors.validate())) return;
    const values = form.getFieldsValue() as WebdavSettings;
    const changes: Record<string, unknown> = {};
    for (const f of FIELDS) {
      if (JSON.stringify(values[f]) !== JSON.stringify(settings[f])) changes[f] = values[f];
    }
    if (Object.keys(changes).length === 0) return;
    setSaving(true);
    try {
      await saveSettings(changes);
      errors.clear();
      void message.success(t('webdav.saved'));
      await qc.invalidateQueries({ queryKey: webdavKeys.all });
    } catch (err) {
      errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  const cidrRule = {
    validator: (_: unknown, v: string[] | undefined) => {
      const bad = (v ?? []).find((x) => !isCidrOrIp(x));
      return bad === undefined
        ? Promise.resolve()
        : Promise.reject(new Error(t('webdav.err_cidrInvalid', { token: bad })));
    },
  };
  const num = (min: number, max: number) => [numberRangeRule(t, min, max)];

  return (
    <Card size="small" title={t('webdav.settings')} data-testid="webdav-settings">
      <Form<WebdavSettings>
        form={form}
        name="webdavSettings"
        initialValues={settings}
        layout={narrow ? 'vertical' : 'horizontal'}
        labelCol={narrow ? undefined : { flex: '200px' }}
        labelWrap
        colon={false}
        onValuesChange={errors.onValuesChange}
      >
        <Form.Item name="port" label={t('webdav.port')} required rules={num(L.port.min, L.port.max)}>
          <InputNumber<number> precision={0} style={{ width: 160 }} data-testid="webdav-port" />
        </Form.Item>
        <Form.Item name="network" label={t('webdav.network')}>
          <Radio.Group
            optionType="button"
            buttonStyle="solid"
            options={NETWORK_TYPES.map((x) => ({ value: x, label: t(`webdav.network_${x}`) }))}
          />
        </Form.Item>
        <Form.Item name="address" label={t('webdav.address')} extra={t('webdav.addressHelp')}>
          <Input placeholder={t('webdav.anyAddress')} allowClear className="mono" style={{ maxWidth: 360 }} />
        </Form.Item>
        <Form.Item
          name={['tls', 'enabled']}
          label={t('webdav.tls')}
          valuePropName="checked"
          extra={t('webdav.tlsHelp')}
        >
          <Switch data-testid="webdav-tls" />
        </Form.Item>
        <Form.Item
          name={['tls', 'certificate']}
          label={t('webdav.certificate')}
          hidden={!tls}
          extra={t('webdav.certificateHelp')}
        >
          <AutoComplete
            allowClear
            options={certNames.map((n) => ({ value: n }))}
            placeholder={t('webdav.certificateDefault')}
            style={{ maxWidth: 360 }}
            data-testid="webdav-certificate"
          />
        </Form.Item>
        <Form.Item
          name="pathPrefix"
          label={t('webdav.pathPrefix')}
          extra={t('webdav.pathPrefixHelp')}
          rules={[
            {
              validator: (_, v: string) =>
                normalizePathPrefix(v ?? '') !== undefined
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('webdav.err_pathPrefixInvalid'))),
            },
          ]}
        >
          <Input className="mono" style={{ maxWidth: 360 }} data-testid="webdav-prefix" />
        </Form.Item>
        <Form.Item name="lanOnly" label={t('webdav.lanOnly')} valuePropName="checked" extra={t('webdav.lanOnlyHelp')}>
          <Switch data-testid="webdav-lan-only" />
        </Form.Item>
        <Form.Item name="allowList" label={t('webdav.allowList')} extra={t('webdav.allowListHelp')} rules={[cidrRule]}>
          <TagListInput placeholder={t('webdav.cidrPlaceholder')} isValid={isCidrOrIp} />
        </Form.Item>
        <Form.Item name="blockList" label={t('webdav.blockList')} extra={t('webdav.blockListHelp')} rules={[cidrRule]}>
          <TagListInput placeholder={t('webdav.cidrPlaceholder')} isValid={isCidrOrIp} />
        </Form.Item>
        <Form.Item
          name="trustedProxies"
          label={t('webdav.trustedProxies')}
          extra={t('webdav.trustedProxiesHelp')}
          rules={[cidrRule]}
        >
          <TagListInput placeholder={t('webdav.cidrPlaceholder')} isValid={isCidrOrIp} />
        </Form.Item>
        <Form.Item
          name="anonymousReadOnly"
          label={t('webdav.anonymousReadOnly')}
          valuePropName="checked"
          extra={t('webdav.anonymousReadOnlyHelp')}
        >
          <Switch />
        </Form.Item>
        <Form.Item
          name="maxConnections"
          label={t('webdav.maxConnections')}
          rules={num(L.maxConnections.min, L.maxConnections.max)}
        >
          <InputNumber<number> precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item
          name="perAddressMaxConnections"
          label={t('webdav.perAddressMaxConnections')}
          extra={t('webdav.perAddressMaxConnectionsHelp')}
          rules={num(L.perAddressMaxConnections.min, L.perAddressMaxConnections.max)}
        >
          <InputNumber<number> precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label={narrow ? undefined : ' '}>
          <Button type="primary" loading={saving} onClick={() => void submit()} data-testid="webdav-settings-save">
            {t('common.save')}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
