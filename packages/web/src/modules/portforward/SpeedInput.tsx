// A speed limit typed in KB/s or MB/s and kept (and sent) in bytes/s; 0 = none.
import { InputNumber, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SPEED_UNITS, type SpeedUnit, speedUnitFor, toBytesPerSecond } from './ruleForm';

export interface SpeedInputProps {
  value?: number;
  onChange?: (bytesPerSecond: number) => void;
  id?: string;
  'data-testid'?: string;
}

export function SpeedInput({ value = 0, onChange, id, ...rest }: SpeedInputProps) {
  const { t } = useTranslation();
  const [unit, setUnit] = useState<SpeedUnit>(() => speedUnitFor(value));
  const amount = value / SPEED_UNITS[unit];
  return (
    <Space.Compact data-testid={rest['data-testid']}>
      <InputNumber<number>
        id={id}
        value={amount}
        placeholder={t('portforward.unlimited')}
        style={{ width: 150 }}
        onChange={(n) => onChange?.(toBytesPerSecond(n, unit))}
      />
      <Select<SpeedUnit>
        value={unit}
        aria-label={t('portforward.speedUnit')}
        style={{ width: 90 }}
        options={[
          { value: 'kb', label: 'KB/s' },
          { value: 'mb', label: 'MB/s' },
        ]}
        onChange={(u) => {
          setUnit(u);
          // The number stays; its unit changes.
          onChange?.(toBytesPerSecond(amount, u));
        }}
      />
    </Space.Compact>
  );
}
