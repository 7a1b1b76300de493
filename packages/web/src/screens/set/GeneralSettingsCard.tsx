// Every setting of baseSettingsSchema except the account (which lives with the
// password): save sends only what changed; revert restores the loaded values.
import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import {
  type BaseConfigureView,
  HTTP_CLIENT_TIMEOUT_S,
  LOG_MAX_SIZE,
  TIME_ZONES,
  TOKEN_LIFETIME_HOURS,
} from '@lucky/shared';
import { Alert, App, Button, Card, Divider, Form, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TrustedProxiesInput, trustedProxiesRule } from '../../components/TrustedProxiesInput';
import { browserTimeZone } from '../../components/time';
import { useFormErrors } from '../../hooks/useFormErrors';
import { CONNECTION_FIELDS, ConnectionLimitsFields } from './ConnectionLimitsFields';
import { entranceUrl } from './reconnect';
import { changedFields, useSaveBaseConfigure } from './useBaseConfigure';
import { hostNamesRule, isHttpUrl, settingRule } from './validators';

type GeneralFields = Omit<BaseConfigureView, 'adminAccount' | 'passwordIsDefault' | 'twoFAEnable' | 'portOverride'>;

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
  'timeZone',
  'frontendDisableAutoExpandLeftMenu',
  'aboutHosts',
  ...CONNECTION_FIELDS,
];

/**
 * The form's values. With a -p flag the port field shows the port in effect (the flag's), so an
 * unchanged field is not sent and the flag's port never lands in the file unless typed.
 */
function pick(config: BaseConfigureView): GeneralFields {
  const out = {} as Record<string, unknown>;
  for (const f of FIELDS) out[f] = config[f];
  if (config.portOverride) out.adminPort = config.portOverride;
  return out as GeneralFields;
}

/** `UTC+08:00` for a zone now. */
function utcOffset(zone: string): string {
  try {
    const part = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(new Date())
      .find((p) => p.type === 'timeZoneName');
    return (part?.value ?? 'GMT').replace(/^GMT$/, 'UTC+00:00').replace(/^GMT/, 'UTC');
  } catch {
    return '';
  }
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
  const [pendingPort, setPendingPort] = useState<{ port: number; byFlag: boolean } | null>(null);
  const errors = useFormErrors(form, { ns: 'set' });
  const zoneOptions = useMemo(
    () => [
      { value: '', label: t('set.timeZoneAuto', { zone: browserTimeZone() }) },
      ...TIME_ZONES.map((z) => ({ value: z, label: `${z} (${utcOffset(z)})` })),
    ],
    [t],
  );

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
      if (reply.restartNeeded) {
        setPendingPort({ port: reply.port ?? values.adminPort, byFlag: reply.portOverriddenByFlag === true });
      }
      followAddressChange(changes);
    } catch (err) {
      // A refused field shows the reason beside it (in range words for a number), else a message.
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

  // No min / max on the input: it would move an out-of-range entry to the bound unseen; the rule refuses it.
  const num = (suffix?: string) => <InputNumber precision={0} style={{ width: 180 }} suffix={suffix} />;

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
          data-testid="port-pending"
          title={t(pendingPort.byFlag ? 'set.portSavedFlag' : 'set.restartNeeded', { port: pendingPort.port })}
          action={
            // A restart keeps the -p flag: it would not apply the saved port.
            pendingPort.byFlag ? undefined : (
              <Button size="small" danger onClick={onRestart}>
                {t('set.restartNow')}
              </Button>
            )
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
          extra={
            config.portOverride ? (
              <Typography.Text type="secondary" data-testid="admin-port-flag">
                {t('set.adminPortFlag', { port: config.portOverride, saved: config.adminPort })}
              </Typography.Text>
            ) : (
              t('set.adminPortHelp')
            )
          }
          rules={[{ required: true, message: t('set.portInvalid') }, settingRule('adminPort', t('set.portInvalid'))]}
        >
          {num()}
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
          {num(t('common.unitHours'))}
        </Form.Item>
        <Form.Item
          name="loginMaxFailures"
          label={t('set.loginMaxFailures')}
          extra={t('set.loginMaxFailuresHelp')}
          rules={[settingRule('loginMaxFailures', t('common.rangeError', { min: 3, max: 100 }))]}
        >
          {num()}
        </Form.Item>
        <Form.Item
          name="loginLockMinutes"
          label={t('set.loginLockMinutes')}
          rules={[settingRule('loginLockMinutes', t('common.rangeError', { min: 1, max: 1440 }))]}
        >
          {num(t('common.unitMinutes'))}
        </Form.Item>

        <Divider titlePlacement="start">{t('set.sectionProgram')}</Divider>
        <Form.Item
          name="logMaxSize"
          label={t('set.logMaxSize')}
          extra={t('set.logMaxSizeHelp')}
          rules={[settingRule('logMaxSize', t('common.rangeError', { min: LOG_MAX_SIZE.min, max: LOG_MAX_SIZE.max }))]}
        >
          {num(t('common.unitLines'))}
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
          {num(t('common.secondsShort'))}
        </Form.Item>
        <Form.Item name="timeZone" label={t('set.timeZone')} extra={t('set.timeZoneHelp')}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            options={zoneOptions}
            style={{ width: '100%', maxWidth: 360 }}
            data-testid="time-zone"
          />
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
