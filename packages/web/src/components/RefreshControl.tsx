// Refresh interval picker (spec §9): 1, 5, 10 s; 1, 2, 10, 30 min; 1 h; custom.
import { REFRESH_CHOICES_MS } from '@lucky/shared';
import { InputNumber, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const CUSTOM = 0;

export function intervalLabel(ms: number, t: (k: string, o?: Record<string, unknown>) => string): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return t('common.everyHours', { count: ms / 3_600_000 });
  if (ms >= 60_000 && ms % 60_000 === 0) return t('common.everyMinutes', { count: ms / 60_000 });
  return t('common.everySeconds', { count: ms / 1000 });
}

export interface RefreshControlProps {
  value: number;
  onChange: (ms: number) => void;
}

export function RefreshControl({ value, onChange }: RefreshControlProps) {
  const { t } = useTranslation();
  const preset = (REFRESH_CHOICES_MS as readonly number[]).includes(value);
  const [custom, setCustom] = useState(!preset);
  const options = [
    ...REFRESH_CHOICES_MS.map((ms) => ({ value: ms as number, label: intervalLabel(ms, t) })),
    { value: CUSTOM, label: t('common.customInterval') },
  ];
  return (
    <Space size={4}>
      <Select<number>
        value={custom ? CUSTOM : value}
        options={options}
        style={{ minWidth: 110 }}
        aria-label={t('common.refreshInterval')}
        data-testid="refresh-select"
        onChange={(v) => {
          setCustom(v === CUSTOM);
          if (v !== CUSTOM) onChange(v);
        }}
      />
      {custom && (
        <InputNumber<number>
          min={1}
          max={86400}
          value={Math.round(value / 1000)}
          suffix={t('common.secondsShort')}
          style={{ width: 110 }}
          aria-label={t('common.customInterval')}
          onChange={(s) => {
            if (typeof s === 'number' && s >= 1) onChange(Math.round(s * 1000));
          }}
        />
      )}
    </Space>
  );
}
