// The everyday part of the rule form: name, switch, forward types, where it
// listens and where it forwards to.
import { type ForwardType, isTargetAddress, PORTFORWARD_LIMITS, parsePortList, proxyCount } from '@lucky/shared';
import { Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { TagListInput } from '../../components/TagListInput';
import { ForwardTypesInput } from './ForwardTypesInput';
import {
  checkForwardLoop,
  checkForwardTypes,
  checkListenAddress,
  checkListenPorts,
  checkTargetAddresses,
  checkTargetPorts,
  type RuleFormValues,
} from './ruleForm';
import { issueRule } from './validators';

const unbracket = (s: string) => s.replace(/^\[(.*)\]$/, '$1');

/** "3 ports × 2 types = 6 listeners" under the listen ports, once they parse. */
function ListenSummary() {
  const { t } = useTranslation();
  const form = Form.useFormInstance<RuleFormValues>();
  const types = Form.useWatch('forwardTypes', form) ?? [];
  const ports = Form.useWatch('listenPorts', form) ?? '';
  const parsed = parsePortList(ports);
  if (!parsed.ok || types.length === 0) return <span>{t('portforward.listenPortsHelp')}</span>;
  const proxies = proxyCount({ forwardTypes: types, listenAddress: '', listenPorts: ports, targetPorts: '' });
  return (
    <span data-testid="pf-listen-summary">
      {t('portforward.listenSummary', { ports: parsed.ports.length, types: types.length, proxies })}
    </span>
  );
}

export function RuleBasicFields() {
  const { t } = useTranslation();
  const types = (get: (n: string) => unknown) => get('forwardTypes') as ForwardType[] | undefined;
  return (
    <>
      <Form.Item
        name="name"
        label={t('portforward.name')}
        rules={[{ max: PORTFORWARD_LIMITS.name.max, message: t('portforward.nameTooLong', { max: 64 }) }]}
      >
        <Input
          placeholder={t('portforward.namePlaceholder')}
          maxLength={PORTFORWARD_LIMITS.name.max}
          allowClear
          style={{ maxWidth: 360 }}
        />
      </Form.Item>
      <Form.Item name="enabled" label={t('portforward.ruleSwitch')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name="forwardTypes"
        label={t('portforward.forwardTypes')}
        required
        rules={[issueRule(t, (v) => checkForwardTypes(v as ForwardType[]))]}
      >
        <ForwardTypesInput />
      </Form.Item>
      <Form.Item
        name="listenAddress"
        label={t('portforward.listenAddress')}
        dependencies={['forwardTypes']}
        extra={t('portforward.listenAddressHelp')}
        rules={[issueRule(t, (v, get) => checkListenAddress(v as string, types(get)))]}
        normalize={(v: string) => unbracket(v.trim())}
      >
        <Input placeholder={t('portforward.anyAddress')} allowClear className="mono" style={{ maxWidth: 360 }} />
      </Form.Item>
      <Form.Item
        name="listenPorts"
        label={t('portforward.listenPorts')}
        required
        extra={<ListenSummary />}
        rules={[issueRule(t, (v) => checkListenPorts(v as string))]}
      >
        <Input placeholder="80,8080-8090" className="mono" style={{ maxWidth: 360 }} data-testid="pf-listen-ports" />
      </Form.Item>
      <Form.Item
        name="targetAddresses"
        label={t('portforward.targetAddresses')}
        required
        extra={t('portforward.targetAddressesHelp')}
        rules={[issueRule(t, (v) => checkTargetAddresses(v as string[]))]}
      >
        <TagListInput
          placeholder={t('portforward.targetAddressesPlaceholder')}
          isValid={(a) => isTargetAddress(unbracket(a))}
          data-testid="pf-target-addresses"
        />
      </Form.Item>
      <Form.Item
        name="targetPorts"
        label={t('portforward.targetPorts')}
        required
        dependencies={['listenPorts', 'forwardTypes', 'listenAddress', 'targetAddresses']}
        extra={t('portforward.targetPortsHelp')}
        rules={[
          issueRule(t, (v, get) => checkTargetPorts(v as string, get('listenPorts') as string)),
          issueRule(t, (v, get) =>
            checkForwardLoop({
              forwardTypes: types(get) ?? [],
              listenAddress: (get('listenAddress') as string) ?? '',
              listenPorts: (get('listenPorts') as string) ?? '',
              targetAddresses: (get('targetAddresses') as string[]) ?? [],
              targetPorts: (v as string) ?? '',
            }),
          ),
        ]}
      >
        <Input placeholder="80,8080-8090" className="mono" style={{ maxWidth: 360 }} data-testid="pf-target-ports" />
      </Form.Item>
    </>
  );
}
