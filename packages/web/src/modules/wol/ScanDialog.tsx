// "Scan LAN": the interface's own subnet (neighbour table plus a bounded TCP probe, done by the
// server), listed with MAC, name, open ports; "add" opens the device dialog filled with the host.
import { PlusOutlined, RadarChartOutlined } from '@ant-design/icons';
import type { WolInterfaceView, WolScanCandidate, WolScanResponse } from '@lucky/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import { fetchInterfaces, scanLan, wolKeys } from './api';
import { errorText } from './errors';

export interface ScanDialogProps {
  open: boolean;
  onClose: () => void;
  /** Opens the add dialog with what the scan found. */
  onAdd: (c: WolScanCandidate, iface: WolInterfaceView | undefined) => void;
}

export function ScanDialog({ open, onClose, onAdd }: ScanDialogProps) {
  const { t } = useTranslation();
  const layout = useDialogLayout(860);
  const interfaces = useQuery({
    queryKey: wolKeys.interfaces,
    queryFn: ({ signal }) => fetchInterfaces(signal),
    enabled: open,
  });
  const [iface, setIface] = useState('');
  const [scanning, setScanning] = useState(false);
  const [result, setResult] = useState<WolScanResponse>();
  const [failure, setFailure] = useState<string>();
  const list = interfaces.data?.list ?? [];

  const scan = async () => {
    setScanning(true);
    setFailure(undefined);
    try {
      setResult(await scanLan(iface));
    } catch (err) {
      setFailure(errorText(err, t));
    } finally {
      setScanning(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('wol.dialog_scanTitle')}
      onCancel={onClose}
      footer={null}
      width={layout.width}
      style={layout.style}
      className={layout.className}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('wol.dialog_scanHelp')}</Typography.Paragraph>
      <Space wrap className="wol-scan-bar">
        <Select<string>
          value={iface}
          onChange={setIface}
          style={{ minWidth: 240 }}
          loading={interfaces.isPending}
          options={[
            { value: '', label: t('wol.dialog_scanFirstInterface') },
            ...list.map((i) => ({ value: i.name, label: `${i.name} · ${i.cidr}` })),
          ]}
          data-testid="wol-scan-interface"
        />
        <Button
          type="primary"
          icon={<RadarChartOutlined />}
          loading={scanning}
          onClick={() => void scan()}
          data-testid="wol-scan-start"
        >
          {t('wol.dialog_scanStart')}
        </Button>
      </Space>
      {failure && <Alert type="error" showIcon title={failure} className="wol-scan-alert" />}
      {result && (
        <>
          <Typography.Paragraph type="secondary" className="wol-scan-summary">
            {t('wol.dialog_scanSummary', {
              subnet: result.subnet,
              interface: result.interface,
              count: result.candidates.length,
              seconds: (result.ms / 1000).toFixed(1),
            })}
          </Typography.Paragraph>
          <Table<WolScanCandidate>
            rowKey="ip"
            size="small"
            pagination={false}
            dataSource={result.candidates}
            scroll={{ x: 560, y: 420 }}
            locale={{ emptyText: t('wol.dialog_scanNone') }}
            data-testid="wol-scan-table"
            columns={[
              {
                title: t('wol.col_ip'),
                dataIndex: 'ip',
                width: 130,
                render: (v: string) => <span className="mono">{v}</span>,
              },
              {
                title: t('wol.col_mac'),
                dataIndex: 'mac',
                width: 160,
                render: (v: string) =>
                  v ? <span className="mono">{v}</span> : <Typography.Text type="secondary">—</Typography.Text>,
              },
              { title: t('wol.col_hostname'), dataIndex: 'hostname', render: (v: string) => v || '—' },
              {
                title: t('wol.col_ports'),
                dataIndex: 'openPorts',
                render: (ports: number[]) => ports.map((p) => <Tag key={p}>{p}</Tag>),
              },
              {
                title: '',
                width: 110,
                render: (_v, c) =>
                  c.known ? (
                    <Tag>{t('wol.dialog_scanKnown')}</Tag>
                  ) : (
                    <Button
                      size="small"
                      icon={<PlusOutlined />}
                      disabled={!c.mac}
                      onClick={() =>
                        onAdd(
                          c,
                          list.find((i) => i.name === result.interface),
                        )
                      }
                      data-testid={`wol-scan-add-${c.ip}`}
                    >
                      {t('wol.ui_add')}
                    </Button>
                  ),
              },
            ]}
          />
        </>
      )}
    </Modal>
  );
}
