// Which way the rule's sockets leave the box: from an IPv4 address (any when empty) or bound to
// an interface. The address field suggests the box's own addresses; the interface field lists
// the interfaces. Used by the rule dialog and the NAT type dialog.
import { AutoComplete, Form, Radio, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useInterfaces } from './useInterfaces';
import { fieldRule } from './validators';

export function ChannelFields() {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const mode = (Form.useWatch('channelMode', form) as string | undefined) ?? 'ip';
  const current = Form.useWatch('channelInterface', form) as string | undefined;
  const ifs = useInterfaces();
  const names = current && !ifs.names.includes(current) ? [current, ...ifs.names] : ifs.names;
  return (
    <>
      <Form.Item name="channelMode" label={t('stun.channelMode')} extra={t('stun.channelModeHelp')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'ip', label: t('stun.channel_ip') },
            { value: 'interface', label: t('stun.channel_interface') },
          ]}
          data-testid="stun-channel-mode"
        />
      </Form.Item>
      <Form.Item
        name="channelIp"
        label={t('stun.channelIp')}
        hidden={mode !== 'ip'}
        extra={t('stun.channelIpHelp')}
        rules={[fieldRule(t, ['channelIp'])]}
      >
        <AutoComplete
          allowClear
          placeholder={t('stun.anyAddress')}
          className="mono"
          style={{ maxWidth: 360 }}
          options={ifs.addresses.map((a) => ({
            value: a.address,
            label: (
              <span className="stun-option">
                <span className="mono">{a.address}</span>
                <Typography.Text type="secondary">{a.name}</Typography.Text>
              </span>
            ),
          }))}
          filterOption={(input, option) => String(option?.value ?? '').includes(input.trim())}
          data-testid="stun-channel-ip"
        />
      </Form.Item>
      <Form.Item
        name="channelInterface"
        label={t('stun.channelInterface')}
        hidden={mode !== 'interface'}
        required
        dependencies={['channelMode']}
        extra={t('stun.channelInterfaceHelp')}
        rules={[fieldRule(t, ['channelInterface'])]}
      >
        <Select
          showSearch
          allowClear
          loading={ifs.loading}
          placeholder={t('stun.chooseInterface')}
          style={{ maxWidth: 360 }}
          options={names.map((n) => ({ value: n, label: n }))}
          data-testid="stun-channel-interface"
        />
      </Form.Item>
    </>
  );
}
