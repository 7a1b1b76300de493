// Settings, first sections: where the server listens, the passive data ports with the address
// announced to clients (behind NAT: the public one), and TLS with the certificate to present.
import { FTP_TLS_MODES, FTPSERVER_LIMITS as L } from '@lucky/shared';
import { Alert, AutoComplete, Divider, Form, Input, InputNumber, Radio, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../components/time';
import { useCertChoices, useLocalAddresses } from './pickers';
import type { SettingsFormValues } from './settingsForm';
import { numberRules, type SettingsContext, settingRule } from './settingsRules';

const num = (testId: string, suffix?: string) => (
  <InputNumber<number> precision={0} suffix={suffix} style={{ width: 160 }} data-testid={testId} />
);

export function ListenFields({ ctx }: { ctx: SettingsContext }) {
  const { t } = useTranslation();
  const addresses = useLocalAddresses(true);
  return (
    <>
      <Form.Item
        name="enabled"
        label={t('ftpserver.moduleSwitch')}
        valuePropName="checked"
        extra={t('ftpserver.moduleSwitchHelp')}
      >
        <Switch data-testid="ftp-settings-enabled" />
      </Form.Item>
      <Form.Item
        name="port"
        label={t('ftpserver.port')}
        extra={t('ftpserver.portHelp')}
        dependencies={[
          ['passive', 'portMin'],
          ['passive', 'portMax'],
        ]}
        validateFirst
        rules={numberRules(t, ['port'], L.port, ctx)}
      >
        {num('ftp-settings-port')}
      </Form.Item>
      <Form.Item
        name="address"
        label={t('ftpserver.address')}
        extra={t('ftpserver.addressHelp')}
        rules={[settingRule(t, ['address'], ctx)]}
      >
        <AutoComplete
          options={addresses.map((a) => ({ value: a.address, label: `${a.address} (${a.name})` }))}
          placeholder={t('ftpserver.allAddresses')}
          allowClear
          style={{ maxWidth: 360 }}
          className="mono"
          data-testid="ftp-settings-address"
        />
      </Form.Item>
    </>
  );
}

export function PassiveFields({ ctx }: { ctx: SettingsContext }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<SettingsFormValues>();
  const min = Form.useWatch(['passive', 'portMin'], form);
  const max = Form.useWatch(['passive', 'portMax'], form);
  const port = Form.useWatch('port', form);
  return (
    <>
      <Divider titlePlacement="start" className="ftp-section">
        {t('ftpserver.sectionPassive')}
      </Divider>
      <Form.Item
        label={t('ftpserver.passiveRange')}
        required
        extra={t('ftpserver.passiveRangeHelp', { max: L.passiveRangeMax })}
      >
        <Space align="start" wrap>
          <Form.Item
            name={['passive', 'portMin']}
            noStyle
            dependencies={['port', ['passive', 'portMax']]}
            validateFirst
            rules={numberRules(t, ['passive', 'portMin'], L.passivePort, ctx)}
          >
            {num('ftp-settings-passive-min')}
          </Form.Item>
          <span className="ftp-range-dash">–</span>
          <Form.Item
            name={['passive', 'portMax']}
            noStyle
            dependencies={['port', ['passive', 'portMin']]}
            validateFirst
            rules={numberRules(t, ['passive', 'portMax'], L.passivePort, ctx)}
          >
            {num('ftp-settings-passive-max')}
          </Form.Item>
        </Space>
      </Form.Item>
      <Form.Item
        name={['passive', 'announceAddress']}
        label={t('ftpserver.announceAddress')}
        extra={t('ftpserver.announceAddressHelp')}
        rules={[settingRule(t, ['passive', 'announceAddress'], ctx)]}
      >
        <Input
          placeholder={t('ftpserver.announceAddressPlaceholder')}
          allowClear
          className="mono"
          style={{ maxWidth: 360 }}
          data-testid="ftp-settings-announce"
        />
      </Form.Item>
      <Form.Item
        name={['passive', 'announceForLan']}
        label={t('ftpserver.announceForLan')}
        valuePropName="checked"
        extra={t('ftpserver.announceForLanHelp')}
      >
        <Switch />
      </Form.Item>
      <Alert
        type="info"
        showIcon
        className="ftp-dialog-note"
        title={t('ftpserver.natHint', { min: min ?? '?', max: max ?? '?', port: port ?? '?' })}
        data-testid="ftp-settings-nat-hint"
      />
    </>
  );
}

export function TlsFields({ ctx }: { ctx: SettingsContext }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<SettingsFormValues>();
  const mode = Form.useWatch(['tls', 'mode'], form) ?? 'explicit';
  const certs = useCertChoices(true);
  return (
    <>
      <Divider titlePlacement="start" className="ftp-section">
        {t('ftpserver.sectionTls')}
      </Divider>
      <Form.Item name={['tls', 'mode']} label={t('ftpserver.tlsModeLabel')} extra={t(`ftpserver.tlsModeHelp_${mode}`)}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          options={FTP_TLS_MODES.map((m) => ({ value: m, label: t(`ftpserver.tlsMode_${m}`) }))}
          data-testid="ftp-settings-tls-mode"
        />
      </Form.Item>
      <Form.Item
        name={['tls', 'certificate']}
        label={t('ftpserver.certificate')}
        hidden={mode === 'off'}
        extra={t('ftpserver.certificateHelp')}
        rules={[settingRule(t, ['tls', 'certificate'], ctx)]}
      >
        <AutoComplete
          options={certs.list.map((c) => ({
            value: c.name,
            label: (
              <span className="ftp-cert-option">
                <span className="mono">{c.name}</span>
                <Typography.Text type={c.usable ? 'secondary' : 'danger'}>
                  {[
                    c.remark,
                    c.notAfter ? t('ftpserver.certUntil', { date: formatTime(c.notAfter, 'YYYY-MM-DD') }) : '',
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Typography.Text>
              </span>
            ),
          }))}
          placeholder={t('ftpserver.certificatePlaceholder')}
          notFoundContent={certs.loading ? undefined : t('ftpserver.noCertificates')}
          allowClear
          style={{ maxWidth: 360 }}
          data-testid="ftp-settings-certificate"
        />
      </Form.Item>
    </>
  );
}
