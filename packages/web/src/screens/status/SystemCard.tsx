import { ClearOutlined } from '@ant-design/icons';
import { App, Button, Card, Descriptions } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { get } from '../../api/client';
import { duration, size } from './format';
import type { StatusData } from './statusData';

const fixed = (v: number | null) => (v === null ? '-' : v.toFixed(2));
const count = (v: number | null) => (v === null ? '-' : String(v));

export function SystemCard({ data }: { data: StatusData }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [collecting, setCollecting] = useState(false);
  const units = {
    d: t('common.unitDay'),
    h: t('common.unitHour'),
    m: t('common.unitMinute'),
    s: t('common.unitSecond'),
  };

  const runGc = async () => {
    setCollecting(true);
    try {
      const r = await get<{ ret: number; before?: number; after?: number }>('api/execgc');
      message.success(t('status.gcDone', { before: size(r.before), after: size(r.after) }));
    } catch {
      // the client already showed why
    } finally {
      setCollecting(false);
    }
  };

  return (
    <Card
      title={t('status.system')}
      extra={
        <Button icon={<ClearOutlined />} loading={collecting} onClick={runGc}>
          {t('status.runGc')}
        </Button>
      }
    >
      <Descriptions
        column={{ xs: 1, sm: 2, lg: 3 }}
        size="small"
        className="status-kv"
        items={[
          { key: 'load', label: t('status.load'), children: data.load.map(fixed).join(' / ') },
          { key: 'sysUp', label: t('status.systemUptime'), children: duration(data.uptime.system, units) },
          { key: 'procUp', label: t('status.processUptime'), children: duration(data.uptime.process, units) },
          { key: 'rss', label: t('status.processMemory'), children: size(data.process.rss) },
          {
            key: 'heap',
            label: t('status.heap'),
            children: `${size(data.process.heapUsed)} / ${size(data.process.heapTotal)}`,
          },
          { key: 'pid', label: t('status.pid'), children: count(data.process.pid) },
          { key: 'node', label: t('status.nodeVersion'), children: data.process.nodeVersion || '-' },
          { key: 'tcp', label: t('status.tcpConnections'), children: count(data.connections.tcp) },
          { key: 'udp', label: t('status.udpSessions'), children: count(data.connections.udp) },
          { key: 'admin', label: t('status.adminConnections'), children: count(data.connections.adminHttp) },
          { key: 'free', label: t('status.memoryFree'), children: size(data.memory.free) },
        ]}
      />
    </Card>
  );
}
