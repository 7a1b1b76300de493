// Settings, last sections: time-outs and connection caps, who may connect (LAN only, allow and
// block lists of addresses / CIDRs), the anonymous login (read-only, chosen mounts) and the log.
import { type FtpserverMountView, isCidrOrIp, FTPSERVER_LIMITS as L } from '@lucky/shared';
import { Divider, Form, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { levelKey, RULE_LOG_LEVELS } from '../../components/ruleLog/levels';
import { TagListInput } from '../../components/TagListInput';
import type { SettingsFormValues } from './settingsForm';
import { numberRules, type SettingsContext, settingRule } from './settingsRules';

type NumberField = 'idleTimeoutSec' | 'loginTimeoutSec' | 'maxConnections' | 'perAddressMaxConnections';
const LIMIT_FIELDS: { name: NumberField; seconds: boolean }[] = [
  { name: 'idleTimeoutSec', seconds: true },
  { name: 'loginTimeoutSec', seconds: true },
  { name: 'maxConnections', seconds: false },
  { name: 'perAddressMaxConnections', seconds: false },
];

export function LimitsFields({ ctx }: { ctx: SettingsContext }) {
  const { t } = useTranslation();
  return (
    <>
      <Divider titlePlacement="start" className="ftp-section">
        {t('ftpserver.sectionLimits')}
      </Divider>
      {LIMIT_FIELDS.map(({ name, seconds }) => (
        <Form.Item
          key={name}
          name={name}
          label={t(`ftpserver.${name}`)}
          extra={t(`ftpserver.${name}Help`)}
          validateFirst
          rules={numberRules(t, [name], L[name], ctx)}
        >
          <InputNumber<number>
            precision={0}
            suffix={seconds ? t('common.secondsShort') : undefined}
            style={{ width: 160 }}
            data-testid={`ftp-settings-${name}`}
          />
        </Form.Item>
      ))}
    </>
  );
}

export function ClientFields({ ctx, mounts }: { ctx: SettingsContext; mounts: readonly FtpserverMountView[] }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<SettingsFormValues>();
  const anonymous = Form.useWatch(['anonymous', 'enabled'], form) ?? false;
  return (
    <>
      <Divider titlePlacement="start" className="ftp-section">
        {t('ftpserver.sectionClients')}
      </Divider>
      <Form.Item
        name="lanOnly"
        label={t('ftpserver.lanOnly')}
        valuePropName="checked"
        extra={t('ftpserver.lanOnlyHelp')}
      >
        <Switch data-testid="ftp-settings-lan-only" />
      </Form.Item>
      <Form.Item
        name="allowList"
        label={t('ftpserver.allowList')}
        extra={t('ftpserver.allowListHelp')}
        rules={[settingRule(t, ['allowList'], ctx)]}
      >
        <TagListInput
          placeholder={t('ftpserver.cidrPlaceholder')}
          isValid={isCidrOrIp}
          data-testid="ftp-settings-allow"
        />
      </Form.Item>
      <Form.Item
        name="blockList"
        label={t('ftpserver.blockList')}
        extra={t('ftpserver.blockListHelp')}
        rules={[settingRule(t, ['blockList'], ctx)]}
      >
        <TagListInput
          placeholder={t('ftpserver.cidrPlaceholder')}
          isValid={isCidrOrIp}
          data-testid="ftp-settings-block"
        />
      </Form.Item>
      <Form.Item
        name={['anonymous', 'enabled']}
        label={t('ftpserver.anonymous')}
        valuePropName="checked"
        extra={t('ftpserver.anonymousHelp')}
      >
        <Switch data-testid="ftp-settings-anonymous" />
      </Form.Item>
      <Form.Item
        name={['anonymous', 'mounts']}
        label={t('ftpserver.anonymousMounts')}
        hidden={!anonymous}
        extra={t('ftpserver.anonymousMountsHelp')}
        rules={[settingRule(t, ['anonymous', 'mounts'], ctx)]}
      >
        <Select
          mode="multiple"
          options={mounts.map((m) => ({ value: m.key, label: `/${m.name}` }))}
          placeholder={t('ftpserver.anonymousMountsPlaceholder')}
          notFoundContent={t('ftpserver.noMounts')}
          style={{ maxWidth: 360 }}
          data-testid="ftp-settings-anonymous-mounts"
        />
      </Form.Item>
    </>
  );
}

export function LogFields({ ctx }: { ctx: SettingsContext }) {
  const { t } = useTranslation();
  return (
    <>
      <Divider titlePlacement="start" className="ftp-section">
        {t('ftpserver.sectionLog')}
      </Divider>
      <Form.Item name="logLevel" label={t('ftpserver.logLevel')} extra={t('ftpserver.logLevelHelp')}>
        <Select<number>
          style={{ width: 160 }}
          options={RULE_LOG_LEVELS.map((n) => ({ value: n, label: `${n} · ${t(levelKey(n))}` }))}
        />
      </Form.Item>
      <Form.Item
        name="logCapacity"
        label={t('ftpserver.logCapacity')}
        extra={t('ftpserver.logCapacityHelp')}
        validateFirst
        rules={numberRules(t, ['logCapacity'], L.logCapacity, ctx)}
      >
        <InputNumber<number> precision={0} suffix={t('common.unitLines')} style={{ width: 160 }} />
      </Form.Item>
    </>
  );
}
