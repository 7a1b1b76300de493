// Add or edit a device. The form checks what it can as the user types (the MAC list line by line,
// unique names, the whole device through the shared schema the server parses with, so both
// answer with the same codes); a refusal from the server lands beside the field it names and the
// dialog stays open. Secrets (SecureOn password, SSH key, tokens) are masked and, when stored,
// read as the mask: sent back unchanged, the server keeps them.
import {
  WOL_LIMITS as L,
  SECRET_MASK,
  WOL_PORTS,
  WOL_SHUTDOWN_METHODS,
  type WolDeviceView,
  type WolInterfaceView,
} from '@lucky/shared';
import { Checkbox, Divider, Form, Input, InputNumber, Radio, Select, Switch, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { LinesInput } from '../../components/LinesInput';
import { numberRangeRule } from '../../components/numberRangeRule';
import { failureText, useFormErrors } from '../../hooks/useFormErrors';
import { createDevice, updateDevice } from './api';
import {
  checkDevice,
  type DeviceFormValues,
  deviceToValues,
  formFieldOf,
  macProblems,
  newDeviceValues,
  valuesToInput,
} from './deviceForm';

export interface DeviceDialogProps {
  open: boolean;
  /** The device to edit (as listed when the dialog opened); absent = add. */
  device?: WolDeviceView;
  /** A new device's values found by a scan. */
  prefill?: Partial<DeviceFormValues>;
  /** Names of the other devices (a name is unique). */
  otherNames: readonly string[];
  interfaces: readonly WolInterfaceView[];
  sshAvailable: boolean;
  pingAvailable: boolean;
  onClose: () => void;
  onSaved: (d: WolDeviceView) => void;
}

const secretHelp = (t: (k: string, o?: Record<string, unknown>) => string, stored: boolean) =>
  stored ? t('wol.dialog_secretKept') : undefined;

export function DeviceDialog(props: DeviceDialogProps) {
  const { open, device, prefill, otherNames, interfaces } = props;
  const { t } = useTranslation();
  const [form] = Form.useForm<DeviceFormValues>();
  const [showKey, setShowKey] = useState(false);
  const errors = useFormErrors(form, { ns: 'wol', nameOf: formFieldOf });
  const initial: DeviceFormValues = device ? deviceToValues(device) : { ...newDeviceValues(), ...prefill };
  const iface = Form.useWatch('interface', form) ?? initial.interface;
  const method = Form.useWatch(['shutdown', 'method'], form) ?? initial.shutdown.method;
  const relayOn = Form.useWatch(['relay', 'enabled'], form) ?? initial.relay.enabled;
  const stored = (v: string | undefined) => v === SECRET_MASK;

  const current = (): DeviceFormValues => ({ ...initial, ...form.getFieldsValue(true) });

  /** The whole device through the shared check, answering only for the items named. */
  const deviceRule = (...items: string[]): Rule => ({
    validator: () => {
      const issue = checkDevice(valuesToInput(current()), otherNames).find((f) => {
        const at = f.field ? formFieldOf(f.field)?.join('.') : undefined;
        return at !== undefined && items.includes(at);
      });
      return issue ? Promise.reject(new Error(failureText(t, 'wol', issue))) : Promise.resolve();
    },
  });
  const macRule: Rule = {
    validator: (_, value: string[] | undefined) => {
      const [issue] = macProblems(value);
      return issue ? Promise.reject(new Error(failureText(t, 'wol', issue))) : Promise.resolve();
    },
  };

  // The check port may stay empty (no TCP check); a number must be a port.
  const optionalPortRule: Rule = {
    validator: (_, v: number | null | undefined) =>
      v === null || v === undefined || (Number.isInteger(v) && v >= 1 && v <= 65535)
        ? Promise.resolve()
        : Promise.reject(new Error(t('common.rangeError', { min: 1, max: 65535 }))),
  };

  const save: SaveHandler = async (saved) => {
    const input = valuesToInput(current());
    const local = checkDevice(input, otherNames);
    if (local.length > 0) return local;
    const reply = device ? await updateDevice(device.key, input) : await createDevice(input);
    saved(t(device ? 'wol.ui_saved' : 'wol.ui_added', { name: input.name }));
    props.onSaved(reply.device);
  };

  const portInput = <InputNumber<number> precision={0} style={{ width: 160 }} />;

  return (
    <FormDialog<DeviceFormValues>
      open={open}
      title={device ? t('wol.dialog_editTitle', { name: device.name }) : t('wol.dialog_addTitle')}
      onClose={props.onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="wol-device"
      width={820}
      labelWidth={170}
      className="wol-device-dialog"
      name="wolDevice"
      initialValues={initial}
    >
      <Form.Item name="name" label={t('wol.dialog_name')} required rules={[deviceRule('name')]}>
        <Input maxLength={L.name.max} data-testid="wol-device-name" />
      </Form.Item>
      <Form.Item
        name="macs"
        label={t('wol.dialog_macs')}
        required
        extra={t('wol.dialog_macsHelp', { max: L.macs.max })}
        rules={[macRule]}
      >
        <LinesInput rows={2} placeholder="aa:bb:cc:dd:ee:ff" data-testid="wol-device-macs" />
      </Form.Item>
      <Form.Item name="interface" label={t('wol.dialog_sendVia')} extra={t('wol.dialog_sendViaHelp')}>
        <Select<string>
          style={{ maxWidth: 360 }}
          options={[
            { value: '', label: t('wol.dialog_viaBroadcast') },
            ...interfaces.map((i) => ({ value: i.name, label: `${i.name} · ${i.broadcast}` })),
            // An interface this machine does not have (any more) stays choosable as it is.
            ...(iface && !interfaces.some((i) => i.name === iface) ? [{ value: iface, label: iface }] : []),
          ]}
          data-testid="wol-device-interface"
        />
      </Form.Item>
      {!iface && (
        <Form.Item name="broadcast" label={t('wol.dialog_broadcast')} rules={[deviceRule('broadcast')]}>
          <Input className="mono" style={{ maxWidth: 240 }} data-testid="wol-device-broadcast" />
        </Form.Item>
      )}

      <Divider titlePlacement="start" className="wol-section">
        {t('wol.dialog_sectionPacket')}
      </Divider>
      <Form.Item name="port" label={t('wol.dialog_port')} extra={t('wol.dialog_portHelp')}>
        <Radio.Group
          optionType="button"
          options={WOL_PORTS.map((p) => ({ value: p, label: String(p) }))}
          data-testid="wol-device-port"
        />
      </Form.Item>
      <Form.Item
        name="repeat"
        label={t('wol.dialog_repeat')}
        extra={t('wol.dialog_repeatHelp')}
        rules={[numberRangeRule(t, L.repeat.min, L.repeat.max)]}
      >
        <InputNumber<number> precision={0} style={{ width: 160 }} data-testid="wol-device-repeat" />
      </Form.Item>
      <Form.Item
        name="intervalMs"
        label={t('wol.dialog_interval')}
        rules={[numberRangeRule(t, L.intervalMs.min, L.intervalMs.max)]}
      >
        <InputNumber<number> precision={0} suffix="ms" style={{ width: 160 }} />
      </Form.Item>
      <Form.Item
        name="secureOn"
        label={t('wol.dialog_secureOn')}
        extra={secretHelp(t, stored(initial.secureOn)) ?? t('wol.dialog_secureOnHelp')}
        rules={[deviceRule('secureOn')]}
      >
        <Input.Password
          className="mono"
          autoComplete="new-password"
          style={{ maxWidth: 280 }}
          placeholder="aa:bb:cc:dd:ee:ff"
          data-testid="wol-device-secureon"
        />
      </Form.Item>

      <Divider titlePlacement="start" className="wol-section">
        {t('wol.dialog_sectionCheck')}
      </Divider>
      <Form.Item
        name={['check', 'host']}
        label={t('wol.dialog_checkHost')}
        extra={t('wol.dialog_checkHostHelp')}
        rules={[deviceRule('check.host')]}
      >
        <Input className="mono" style={{ maxWidth: 360 }} data-testid="wol-device-host" />
      </Form.Item>
      <Form.Item
        name={['check', 'tcpPort']}
        label={t('wol.dialog_checkPort')}
        extra={t('wol.dialog_checkPortHelp')}
        rules={[optionalPortRule]}
      >
        <InputNumber<number> precision={0} style={{ width: 160 }} placeholder="22" data-testid="wol-device-tcpport" />
      </Form.Item>
      <Form.Item
        name={['check', 'ping']}
        label={t('wol.dialog_checkPing')}
        valuePropName="checked"
        extra={props.pingAvailable ? undefined : t('wol.dialog_pingMissing')}
      >
        <Switch data-testid="wol-device-ping" />
      </Form.Item>

      <Divider titlePlacement="start" className="wol-section">
        {t('wol.dialog_sectionShutdown')}
      </Divider>
      <Form.Item name={['shutdown', 'method']} label={t('wol.dialog_shutdownMethod')}>
        <Radio.Group
          optionType="button"
          options={WOL_SHUTDOWN_METHODS.map((m) => ({ value: m, label: t(`wol.dialog_method_${m}`) }))}
          data-testid="wol-device-method"
        />
      </Form.Item>
      {method === 'ssh' && (
        <>
          {!props.sshAvailable && (
            <Typography.Paragraph type="warning" className="wol-dialog-note">
              {t('wol.dialog_sshMissing')}
            </Typography.Paragraph>
          )}
          <Form.Item
            name={['shutdown', 'ssh', 'host']}
            label={t('wol.dialog_sshHost')}
            extra={t('wol.dialog_sshHostHelp')}
            rules={[deviceRule('shutdown.ssh.host')]}
          >
            <Input className="mono" style={{ maxWidth: 360 }} data-testid="wol-device-ssh-host" />
          </Form.Item>
          <Form.Item
            name={['shutdown', 'ssh', 'port']}
            label={t('wol.dialog_sshPort')}
            rules={[numberRangeRule(t, 1, 65535)]}
          >
            {portInput}
          </Form.Item>
          <Form.Item
            name={['shutdown', 'ssh', 'user']}
            label={t('wol.dialog_sshUser')}
            required
            rules={[deviceRule('shutdown.ssh.user')]}
          >
            <Input style={{ maxWidth: 240 }} autoComplete="off" data-testid="wol-device-ssh-user" />
          </Form.Item>
          <Form.Item
            label={t('wol.dialog_sshKey')}
            required
            extra={secretHelp(t, stored(initial.shutdown.ssh.privateKey)) ?? t('wol.dialog_sshKeyHelp')}
          >
            <Form.Item name={['shutdown', 'ssh', 'privateKey']} noStyle rules={[deviceRule('shutdown.ssh.privateKey')]}>
              <Input.TextArea
                className={`mono ${showKey ? '' : 'wol-masked'}`}
                autoSize={{ minRows: 3, maxRows: 10 }}
                spellCheck={false}
                autoComplete="off"
                placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
                data-testid="wol-device-ssh-key"
              />
            </Form.Item>
            <Checkbox checked={showKey} onChange={(e) => setShowKey(e.target.checked)} className="wol-show-key">
              {t('wol.dialog_showKey')}
            </Checkbox>
          </Form.Item>
          <Form.Item name={['shutdown', 'ssh', 'command']} label={t('wol.dialog_sshCommand')}>
            <Input className="mono" data-testid="wol-device-ssh-command" />
          </Form.Item>
        </>
      )}
      {method === 'agent' && (
        <>
          <Form.Item
            name={['shutdown', 'agent', 'url']}
            label={t('wol.dialog_agentUrl')}
            extra={t('wol.dialog_agentUrlHelp')}
            rules={[deviceRule('shutdown.agent.url')]}
          >
            <Input className="mono" placeholder="http://192.168.1.20:16601" data-testid="wol-device-agent-url" />
          </Form.Item>
          <Form.Item
            name={['shutdown', 'agent', 'token']}
            label={t('wol.dialog_token')}
            extra={secretHelp(t, stored(initial.shutdown.agent.token))}
            rules={[deviceRule('shutdown.agent.token')]}
          >
            <Input.Password autoComplete="new-password" className="mono" data-testid="wol-device-agent-token" />
          </Form.Item>
        </>
      )}

      <Divider titlePlacement="start" className="wol-section">
        {t('wol.dialog_sectionRelay')}
      </Divider>
      <Form.Item
        name={['relay', 'enabled']}
        label={t('wol.dialog_relay')}
        valuePropName="checked"
        extra={t('wol.dialog_relayHelp')}
      >
        <Switch data-testid="wol-device-relay" />
      </Form.Item>
      {relayOn && (
        <>
          <Form.Item name={['relay', 'url']} label={t('wol.dialog_relayUrl')} rules={[deviceRule('relay.url')]}>
            <Input className="mono" placeholder="http://10.1.0.2:16601" data-testid="wol-device-relay-url" />
          </Form.Item>
          <Form.Item
            name={['relay', 'token']}
            label={t('wol.dialog_token')}
            extra={secretHelp(t, stored(initial.relay.token))}
            rules={[deviceRule('relay.token')]}
          >
            <Input.Password autoComplete="new-password" className="mono" data-testid="wol-device-relay-token" />
          </Form.Item>
        </>
      )}
    </FormDialog>
  );
}
