import { Card, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { size } from './format';
import type { Sample } from './history';
import type { InterfaceStatus, StatusData } from './statusData';

export function InterfacesCard({ data, last }: { data: StatusData; last?: Sample }) {
  const { t } = useTranslation();
  return (
    <Card
      title={t('status.interfaces')}
      extra={
        last && (
          <Typography.Text type="secondary">
            {t('status.trafficTotal', { rx: size(last.rxTotal), tx: size(last.txTotal) })}
          </Typography.Text>
        )
      }
    >
      <Table<InterfaceStatus>
        rowKey="name"
        dataSource={data.interfaces}
        pagination={false}
        scroll={{ x: 720 }}
        columns={[
          { title: t('status.ifName'), dataIndex: 'name', width: 140 },
          {
            title: t('status.ifMac'),
            dataIndex: 'mac',
            width: 160,
            render: (v: string) => <span className="mono">{v || '-'}</span>,
          },
          {
            title: t('status.ifAddresses'),
            dataIndex: 'addresses',
            render: (addrs: InterfaceStatus['addresses']) =>
              addrs.length === 0 ? (
                '-'
              ) : (
                <Space size={[4, 4]} wrap>
                  {addrs.map((a) => (
                    <Tag
                      key={`${a.address}-${a.cidr}`}
                      color={a.family === 'IPv6' || a.address.includes(':') ? 'purple' : 'blue'}
                      className="mono"
                    >
                      {a.cidr || a.address}
                    </Tag>
                  ))}
                </Space>
              ),
          },
          {
            title: t('status.ifReceived'),
            dataIndex: 'rxBytes',
            width: 110,
            align: 'right',
            render: (v: number) => size(v),
          },
          {
            title: t('status.ifSent'),
            dataIndex: 'txBytes',
            width: 110,
            align: 'right',
            render: (v: number) => size(v),
          },
        ]}
      />
    </Card>
  );
}
