// How the task gets its IP: URL list, network interface + selection rule (with a "test"
// button), command, or OpenWrt's odhcpd lease file.
import { ExperimentOutlined, ReloadOutlined } from '@ant-design/icons';
import type { DdnsRecordType } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Radio, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ddnsKeys, fetchNetInterfaces, testIpReg } from './api';
import { errorText } from './errors';
import { defaultUrls } from './taskForm';

export function IpSourceFields({ recordType }: { recordType: DdnsRecordType }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const type = Form.useWatch(['ipSource', 'type'], form) as string | undefined;
  const [test, setTest] = useState<{ ok: boolean; text: string } | null>(null);
  const [testing, setTesting] = useState(false);
  const ifaces = useQuery({
    queryKey: ddnsKeys.interfaces,
    queryFn: ({ signal }) => fetchNetInterfaces(signal),
    enabled: type === 'netInterface',
    staleTime: 10_000,
  });
  const list =
    (recordType === 'AAAA' ? ifaces.data?.data.IPv6NewInterfaces : ifaces.data?.data.IPv4NewInterfaces) ?? [];

  const runTest = async () => {
    const netinterface = form.getFieldValue(['ipSource', 'netInterface']) as string;
    const ipreg = form.getFieldValue(['ipSource', 'ipReg']) as string;
    setTesting(true);
    setTest(null);
    try {
      const r = await testIpReg(recordType === 'AAAA' ? 'IPv6' : 'IPv4', netinterface ?? '', ipreg ?? '');
      setTest({ ok: true, text: t('ddns.ipRegResult', { ip: r.ip }) });
    } catch (err) {
      setTest({ ok: false, text: errorText(err, t) ?? '' });
    } finally {
      setTesting(false);
    }
  };

  return (
    <>
      <Form.Item name={['ipSource', 'type']} label={t('ddns.ipSource')}>
        <Radio.Group
          optionType="button"
          options={(['url', 'netInterface', 'command', 'odhcpd'] as const).map((x) => ({
            value: x,
            label: t(`ddns.source_${x}`),
          }))}
          data-testid="ddns-ip-source"
        />
      </Form.Item>
      {type === 'url' && (
        <Form.Item
          name={['ipSource', 'urls']}
          label={t('ddns.urls')}
          required
          extra={
            <span>
              {t('ddns.urlsHelp')}{' '}
              <Typography.Link onClick={() => form.setFieldValue(['ipSource', 'urls'], defaultUrls(recordType))}>
                {t('ddns.urlsReset')}
              </Typography.Link>
            </span>
          }
        >
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} className="mono" data-testid="ddns-urls" />
        </Form.Item>
      )}
      {type === 'netInterface' && (
        <Form.Item label={t('ddns.netInterface')} required>
          <Space.Compact>
            <Form.Item name={['ipSource', 'netInterface']} noStyle>
              <Select
                style={{ width: 360 }}
                loading={ifaces.isFetching}
                placeholder={t('ddns.netInterfacePlaceholder')}
                showSearch
                options={list.map((i) => ({
                  value: i.NetInterfaceName,
                  label: `${i.NetInterfaceName} (${i.AddressList.join(', ')})`,
                }))}
                data-testid="ddns-net-interface"
              />
            </Form.Item>
            <Button icon={<ReloadOutlined />} onClick={() => void ifaces.refetch()} aria-label={t('common.refresh')} />
          </Space.Compact>
        </Form.Item>
      )}
      {type === 'command' && (
        <Form.Item name={['ipSource', 'command']} label={t('ddns.command')} required extra={t('ddns.commandHelp')}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 6 }}
            className="mono"
            placeholder="ip -6 addr show dev eth0 | grep global"
          />
        </Form.Item>
      )}
      {type === 'odhcpd' && (
        <>
          <Form.Item name={['ipSource', 'odhcpdFile']} label={t('ddns.odhcpdFile')} required>
            <Input className="mono" style={{ maxWidth: 360 }} />
          </Form.Item>
          <Form.Item name={['ipSource', 'odhcpdMacs']} label={t('ddns.odhcpdMacs')} extra={t('ddns.odhcpdHelp')}>
            <Input.TextArea autoSize={{ minRows: 1, maxRows: 5 }} className="mono" placeholder="aa:bb:cc:dd:ee:ff" />
          </Form.Item>
          <Form.Item name={['ipSource', 'odhcpdHostnames']} label={t('ddns.odhcpdHostnames')}>
            <Input.TextArea autoSize={{ minRows: 1, maxRows: 5 }} className="mono" placeholder="nas" />
          </Form.Item>
        </>
      )}
      {(type === 'netInterface' || type === 'odhcpd') && (
        <Form.Item label={t('ddns.ipReg')} extra={t('ddns.ipRegHelp')}>
          <Space wrap>
            <Form.Item name={['ipSource', 'ipReg']} noStyle>
              <Input
                className="mono"
                style={{ width: 260 }}
                placeholder={t('ddns.ipRegPlaceholder')}
                data-testid="ddns-ipreg"
              />
            </Form.Item>
            {type === 'netInterface' && (
              <Button
                icon={<ExperimentOutlined />}
                loading={testing}
                onClick={() => void runTest()}
                data-testid="ddns-ipreg-test"
              >
                {t('ddns.ipRegTest')}
              </Button>
            )}
            {test && (
              <Typography.Text type={test.ok ? 'success' : 'danger'} data-testid="ddns-ipreg-result">
                {test.text}
              </Typography.Text>
            )}
          </Space>
        </Form.Item>
      )}
    </>
  );
}
