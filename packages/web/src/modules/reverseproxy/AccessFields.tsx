// Advanced: who may use the site — basic auth (user, password, the paths it
// covers), an IP filter and a user-agent filter. A stored password reads as
// the mask (SECRET_MASK); left as it is, the stored one is kept.
import { FILTER_MODES, isCidrOrIp, REVERSEPROXY_LIMITS, SECRET_MASK } from '@lucky/shared';
import { Form, Input, Radio, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { LinesInput } from '../../components/LinesInput';
import { TagListInput } from '../../components/TagListInput';
import { checkBasicAuthUser, checkCidrList, checkListSize, type NamePath } from './serviceForm';
import { issueRule } from './validators';

export function AuthFields({ prefix }: { prefix: NamePath }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const n = (...p: NamePath): NamePath => [...prefix, 'basicAuth', ...p];
  const enabled = Form.useWatch(n('enabled'), form) ?? false;
  const kept = Form.useWatch(n('password'), form) === SECRET_MASK;
  return (
    <>
      <Form.Item
        name={n('enabled')}
        label={t('reverseproxy.basicAuth')}
        valuePropName="checked"
        extra={t('reverseproxy.basicAuthHelp')}
      >
        <Switch data-testid="rp-auth-enable" />
      </Form.Item>
      <Form.Item
        name={n('user')}
        label={t('reverseproxy.authUser')}
        hidden={!enabled}
        required
        dependencies={[n('enabled')]}
        rules={[issueRule(t, (v, get) => checkBasicAuthUser(get(n('enabled')) as boolean, v as string))]}
      >
        <Input autoComplete="off" style={{ maxWidth: 260 }} data-testid="rp-auth-user" />
      </Form.Item>
      <Form.Item
        name={n('password')}
        label={t('reverseproxy.authPassword')}
        hidden={!enabled}
        extra={kept ? t('reverseproxy.passwordKept') : undefined}
      >
        <Input.Password autoComplete="new-password" style={{ maxWidth: 260 }} data-testid="rp-auth-password" />
      </Form.Item>
      <Form.Item
        name={n('paths')}
        label={t('reverseproxy.authPaths')}
        hidden={!enabled}
        extra={t('reverseproxy.authPathsHelp')}
      >
        <LinesInput placeholder="/admin" rows={2} />
      </Form.Item>
    </>
  );
}

export function FilterFields({ prefix }: { prefix: NamePath }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const ip = (...p: NamePath): NamePath => [...prefix, 'ipFilter', ...p];
  const ua = (...p: NamePath): NamePath => [...prefix, 'uaFilter', ...p];
  const ipMode = Form.useWatch(ip('mode'), form) ?? 'off';
  const uaMode = Form.useWatch(ua('mode'), form) ?? 'off';
  const modes = FILTER_MODES.map((m) => ({ value: m, label: t(`reverseproxy.filter_${m}`) }));
  return (
    <>
      <Form.Item name={ip('mode')} label={t('reverseproxy.ipFilter')} extra={t(`reverseproxy.ipFilterHelp_${ipMode}`)}>
        <Radio.Group optionType="button" buttonStyle="solid" options={modes} />
      </Form.Item>
      <Form.Item
        name={ip('list')}
        label={t('reverseproxy.ipList')}
        hidden={ipMode === 'off'}
        dependencies={[ip('mode')]}
        rules={[issueRule(t, (v, get) => (get(ip('mode')) === 'off' ? undefined : checkCidrList(v as string[])))]}
      >
        <TagListInput placeholder={t('reverseproxy.cidrPlaceholder')} isValid={isCidrOrIp} data-testid="rp-ip-list" />
      </Form.Item>
      <Form.Item name={ua('mode')} label={t('reverseproxy.uaFilter')} extra={t(`reverseproxy.uaFilterHelp_${uaMode}`)}>
        <Radio.Group optionType="button" buttonStyle="solid" options={modes} />
      </Form.Item>
      <Form.Item
        name={ua('list')}
        label={t('reverseproxy.uaList')}
        hidden={uaMode === 'off'}
        extra={t('reverseproxy.uaListHelp')}
        rules={[issueRule(t, (v) => checkListSize(v as string[], REVERSEPROXY_LIMITS.list.max))]}
      >
        <LinesInput placeholder="curl" rows={2} />
      </Form.Item>
    </>
  );
}
