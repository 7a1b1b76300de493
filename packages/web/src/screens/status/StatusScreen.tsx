// Overview (/status): host and process health, network interfaces, module
// states, with small live charts kept in the browser.
import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Row, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RefreshControl } from '../../components/RefreshControl';
import { ChartCard } from './ChartCard';
import { percent, rate, size } from './format';
import { InterfacesCard } from './InterfacesCard';
import { ModulesCard } from './ModulesCard';
import { SystemCard } from './SystemCard';
import { useStatus } from './useStatus';
import './status.css';
import { formatTime } from '../../components/time';

const DEFAULT_INTERVAL_MS = 5000;

export default function StatusScreen() {
  const { t } = useTranslation();
  const [intervalMs, setIntervalMs] = useState(DEFAULT_INTERVAL_MS);
  const status = useStatus(intervalMs);
  const { data, history } = status;
  const last = history[history.length - 1];

  return (
    <div className="screen" data-testid="status-screen">
      <div className="status-toolbar">
        <Typography.Title level={4} className="screen-title">
          {t('status.title')}
        </Typography.Title>
        <Space wrap>
          {status.dataUpdatedAt > 0 && (
            <Typography.Text type="secondary">
              {t('status.updatedAt', { time: formatTime(status.dataUpdatedAt, 'HH:mm:ss') })}
            </Typography.Text>
          )}
          <RefreshControl value={intervalMs} onChange={setIntervalMs} />
          <Button icon={<ReloadOutlined />} loading={status.isFetching} onClick={() => void status.refetch()}>
            {t('common.refresh')}
          </Button>
        </Space>
      </div>

      {status.isError && !data && <Alert type="error" showIcon title={t('status.loadError')} />}

      <Row gutter={[12, 12]}>
        <Col xs={24} md={8}>
          <ChartCard
            title={t('status.cpu')}
            value={percent(data?.cpu.percent)}
            sub={data ? t('status.cpuCores', { cores: data.cpu.cores ?? '-', model: data.cpu.model || '-' }) : ''}
            values={history.map((s) => s.cpu)}
            max={100}
            color="#1677ff"
            loading={!data}
          />
        </Col>
        <Col xs={24} md={8}>
          <ChartCard
            title={t('status.memory')}
            value={percent(data?.memory.percent)}
            sub={data ? t('status.memoryUsed', { used: size(data.memory.used), total: size(data.memory.total) }) : ''}
            values={history.map((s) => s.memory)}
            max={100}
            color="#2f9e44"
            loading={!data}
          />
        </Col>
        <Col xs={24} md={8}>
          <ChartCard
            title={t('status.network')}
            value={rate(last?.netRate)}
            sub={t('status.networkSplit', { rx: rate(last?.rxRate), tx: rate(last?.txRate) })}
            values={history.map((s) => s.netRate)}
            color="#d9480f"
            loading={!data}
          />
        </Col>
      </Row>

      {data && (
        <>
          <SystemCard data={data} />
          <InterfacesCard data={data} last={last} />
          <ModulesCard data={data} />
        </>
      )}
      {!data && status.isPending && <Card loading />}
    </div>
  );
}
