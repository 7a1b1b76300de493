// Every setting of baseSettingsSchema except the account (which lives with the
// password): save sends only what changed; revert restores the loaded values.
import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { type BaseConfigureView, HTTP_CLIENT_TIMEOUT_S, LOG_MAX_SIZE, TOKEN_LIFETIME_HOURS } from '@lucky/shared';
import { Alert, App, Button, Card, Divider, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TrustedProxiesInput, trustedProxiesRule } from '../../components/TrustedProxiesInput';
import { useFormErrors } from '../../hooks/useFormErrors';
import { CONNECTION_FIELDS, ConnectionLimitsFields } from './ConnectionLimitsFields';
import { entranceUrl } from './reconnect';
import { changedFields, useSaveBaseConfigure } from './useBaseConfigure';
import { hostNamesRule, isHttpUrl, settingRule } from './validators';

type GeneralFields = Omit<BaseConfigureView, 'adminAccount' | 'passwordIsDefault' | 'twoFAEnable'>;

const FIELDS: (keyof GeneralFields)[] = [
  'adminPort',
  'forceHttps',
  'securityEntrance',
  'allowInternetAccess',
  'cgnatIsLan',
  'adminHostNames',
  'trustedProxies',
  'tokenLifetimeHours',
  'loginMaxFailures',
  'loginLockMinutes',
  'logMaxSize',
  'httpClientTimeout',
  'frontendDisableAutoExpandLeftMenu',
  'aboutHosts',
  ...CONNECTION_FIELDS,
];

function pick(config: BaseConfigureView): GeneralFields {
  const out = {} as Record<string, unknown>;
  for (const f of FIELDS) out[f] = config[f];
  return out as GeneralFields;
}

export interface GeneralSettingsCardProps {
  config: BaseConfigureView;
  /** Offered when a port change needs a restart. */
  onRestart: () => void;
}

export function GeneralSettingsCard({ config, onRestart }: GeneralSettingsCardProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<GeneralFields>();
  const save = useSaveBaseConfigure();
  const [saving, setSaving] = useState(false);
  const [pendingPort, setPendingPort] = useState<number | null>(null);
  const errors = useFormErrors(form, { ns: 'set' });

  useEffect(() => {
    form.setFieldsValue(pick(config));
  }, [config, form]);

  const onSave = async () => {
    if (!(await errors.validate())) return;
    const values = form.getFieldsValue() as GeneralFields;
    const changes = changedFields(pick(config), values);
    if (Object.keys(changes).length === 0) {
      message.info(t('set.noChanges'));
      return;
    }
    setSaving(true);
    try {
      const reply = await save(changes, { silent: true });
      errors.clear();
      message.success(t('set.saved'));
      if (reply.restartNeeded) setPendingPort(reply.port ?? values.adminPort);
      followAddressChange(changes);
    } catch (err) {
      errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  // The console's own address changes with the entrance or forced HTTPS: move there.
  const followAddressChange = (changes: Partial<GeneralFields>) => {
    let target: string | null = null;
    if (changes.securityEntrance !== undefined) {
      target = entranceUrl(window.location.href, config.securityEntrance, changes.securityEntrance);
    }
    if (changes.forceHttps && window.location.protocol === 'http:') {
      const u = new URL(target ?? window.location.href);
      u.protocol = 'https:';
      target = u.toString();
    }
    if (!target) return;
    const to = target;
    modal.info({
      title: t('set.addressChanged'),
      content: to,
      okText: t('set.openNewAddress'),
      onOk: () => window.location.assign(to),
    });
  };

  const num = (min: number, max: number, suffix?: string) => (
    <InputNumber min={min} max={max} precision={0} style={{ width: 180 }} suffix={suffix} />
  );

  return (
    <Card
      title={t('set.generalTitle')}
      data-testid="general-settings"
      extra={
        <Space>
          <Button icon={<UndoOutlined />} onClick={() => form.setFieldsValue(pick(config))} disabled={saving}>
            {t('common.revert')}
          </Button>
          <Button type="primary" icon={<SaveOutlined />} onClick={onSave} loading={saving} data-testid="settings-save">
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      {pendingPort !== null && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('set.restartNeeded', { port: pendingPort })}
          action={
            <Button size="small" danger onClick={onRestart}>
              {t('set.restartNow')}
            </Button>
          }
        />
      )}
      <Form<GeneralFields>
        form={form}
        layout="horizontal"
        labelCol={{ flex: '220px' }}
        labelWrap
        colon={false}
        onValuesChange={errors.onValuesChange}
      >
        <Divider titlePlacement="start">{t('set.sectionAccess')}</Divider>
        <Form.Item
          name="adminPort"
          label={t('set.adminPort')}
          extra={t('set.adminPortHelp')}
          rules={[{ required: true, message: t('set.portInvalid') }, settingRule('adminPort', t('set.portInvalid'))]}
        >
          {num(1, 65535)}
        </Form.Item>
        <Form.Item
          name="forceHttps"
          label={t('set.forceHttps')}
          extra={t('set.forceHttpsHelp')}
          valuePropName="checked"
        >
          <Switch />
        </Form.Item>
        <Form.Item
          name="securityEntrance"
          label={t('set.securityEntrance')}
          extra={t('set.securityEntranceHelp')}
          rules={[settingRule('securityEntrance', t('set.securityEntranceInvalid'))]}
        >
          <Input prefix="/" placeholder={t('set.securityEntrancePlaceholder')} style={{ maxWidth: 320 }} allowClear />
        </Form.Item>
        <Form.Item
          name="allowInternetAccess"
          label={t('set.allowInternetAccess')}
          extra={t('set.allowInternetAccessHelp')}
          valuePropName="checked"
        >
          <Switch />
        </Form.Item>
        <Form.Item
          name="cgnatIsLan"
          label={t('set.cgnatIsLan')}
          extra={t('set.cgnatIsLanHelp')}
          valuePropName="checked"
        >
          <Switch data-testid="cgnat-is-lan" />
        </Form.Item>
        <Form.Item
          name="adminHostNames"
          label={t('set.adminHostNames')}
          extra={t('set.adminHostNamesHelp')}
          rules={[hostNamesRule(t)]}
          normalize={(v?: string[]) => (v ?? []).map((s) => s.trim()).filter(Boolean)}
        >
          <Select
            mode="tags"
            tokenSeparators={[',', ' ', '\n', ';']}
            open={false}
            suffixIcon={null}
            placeholder={t('set.adminHostNamesPlaceholder')}
            style={{ width: '100%', maxWidth: 560 }}
            data-testid="admin-host-names"
          />
        </Form.Item>
        <Form.Item
          name="trustedProxies"
          label={t('set.trustedProxies')}
          extra={t('set.trustedProxiesHelp')}
          rules={[trustedProxiesRule(t)]}
        >
          <TrustedProxiesInput />
        </Form.Item>

        <ConnectionLimitsFields />

        <Divider titlePlacement="start">{t('set.sectionLogin')}</Divider>
        <Form.Item
          name="tokenLifetimeHours"
          label={t('set.tokenLifetimeHours')}
          rules={[
            settingRule(
              'tokenLifetimeHours',
              t('common.rangeError', { min: TOKEN_LIFETIME_HOURS.min, max: TOKEN_LIFETIME_HOURS.max }),
            ),
          ]}
        >
          {num(TOKEN_LIFETIME_HOURS.min, TOKEN_LIFETIME_HOURS.max, t('common.unitHours'))}
        </Form.Item>
        <Form.Item
          name="loginMaxFailures"
          label={t('set.loginMaxFailures')}
          extra={t('set.loginMaxFailuresHelp')}
          rules={[settingRule('loginMaxFailures', t('common.rangeError', { min: 3, max: 100 }))]}
        >
          {num(3, 100)}
        </Form.Item>
        <Form.Item
          name="loginLockMinutes"
          label={t('set.loginLockMinutes')}
          rules={[settingRule('loginLockMinutes', t('common.rangeError', { min: 1, max: 1440 }))]}
        >
          {num(1, 1440, t('common.unitMinutes'))}
        </Form.Item>

        <Divider titlePlacement="start">{t('set.sectionProgram')}</Divider>
        <Form.Item
          name="logMaxSize"
          label={t('set.logMaxSize')}
          extra={t('set.logMaxSizeHelp')}
          rules={[settingRule('logMaxSize', t('common.rangeError', { min: LOG_MAX_SIZE.min, max: LOG_MAX_SIZE.max }))]}
        >
          {num(LOG_MAX_SIZE.min, LOG_MAX_SIZE.max, t('common.unitLines'))}
        </Form.Item>
        <Form.Item
          name="httpClientTimeout"
          label={t('set.httpClientTimeout')}
          extra={t('set.httpClientTimeoutHelp')}
          rules={[
            settingRule(
              'httpClientTimeout',
              t('common.rangeError', { min: HTTP_CLIENT_TIMEOUT_S.min, max: HTTP_CLIENT_TIMEOUT_S.max }),
            ),
          ]}
        >
          {num(HTTP_CLIENT_TIMEOUT_S.min, HTTP_CLIENT_TIMEOUT_S.max, t('common.secondsShort'))}
        </Form.Item>
        <Form.Item
          name="frontendDisableAutoExpandLeftMenu"
          label={t('set.disableAutoExpandMenu')}
          valuePropName="checked"
        >
          <Switch />
        </Form.Item>

        <Divider titlePlacement="start">{t('set.sectionAboutHosts')}</Divider>
        {[0, 1, 2].map((i) => (
          <Form.Item
            key={i}
            name={['aboutHosts', i]}
            label={i === 0 ? t('set.aboutHostDefault') : t('set.aboutHostAlt', { n: i + 1 })}
            extra={i === 0 ? t('set.aboutHostsHelp') : undefined}
            rules={[
              { required: true, message: t('set.aboutHostInvalid') },
              {
                validator: (_, v: string) =>
                  !v || isHttpUrl(v) ? Promise.resolve() : Promise.reject(new Error(t('set.aboutHostInvalid'))),
              },
            ]}
          >
            <Input placeholder="https://" style={{ maxWidth: 420 }} />
          </Form.Item>
        ))}
      </Form>
    </Card>
  );
}
