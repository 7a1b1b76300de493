import { Card, Skeleton, Typography } from 'antd';
import { LineChart } from './LineChart';

export interface ChartCardProps {
  title: string;
  value: string;
  sub: string;
  values: (number | null)[];
  max?: number;
  color: string;
  loading: boolean;
}

export function ChartCard({ title, value, sub, values, max, color, loading }: ChartCardProps) {
  return (
    <Card size="small" className="status-chart-card">
      <div className="status-chart-head">
        <Typography.Text type="secondary">{title}</Typography.Text>
        <span className="status-chart-value" style={{ color }}>
          {value}
        </span>
      </div>
      {loading ? (
        <Skeleton.Node active style={{ width: '100%', height: 72 }} />
      ) : (
        <LineChart values={values} max={max} color={color} label={`${title} ${value}`} />
      )}
      <Typography.Text type="secondary" ellipsis className="status-chart-sub">
        {sub}
      </Typography.Text>
    </Card>
  );
}
