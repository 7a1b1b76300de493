// One field of the visual schedule editor: every / specific values / a range / a step. It keeps
// itself sane (a value list never empty, a range never backwards), so every state it can be in is
// an expression the parser reads back to the same state.
import { InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { FIELD_LIMITS, type FieldMode, type FieldName, type FieldSpec } from './cronFields';

const MODES: FieldMode[] = ['every', 'values', 'range', 'step'];

export interface FieldPickerProps {
  name: FieldName;
  spec: FieldSpec;
  /** A value's label (a month or weekday name, else the number). */
  label: (n: number) => string;
  onChange: (spec: FieldSpec) => void;
}

export function FieldPicker({ name, spec, label, onChange }: FieldPickerProps) {
  const { t } = useTranslation();
  const { min, max } = FIELD_LIMITS[name];
  const options = Array.from({ length: max - min + 1 }, (_, i) => ({ value: min + i, label: label(min + i) }));
  const valueSelect = (value: number, set: (n: number) => void, testId: string) => (
    <Select<number>
      size="small"
      value={value}
      options={options}
      onChange={set}
      popupMatchSelectWidth={false}
      data-testid={testId}
      className="cron-picker-number"
    />
  );
  const id = `cron-field-${name}`;
  return (
    <div className="cron-picker" data-testid={id}>
      <span className="cron-picker-label">{t(`cron.ui_field_${name}`)}</span>
      <Space wrap size={4}>
        <Select<FieldMode>
          size="small"
          value={spec.mode}
          data-testid={`${id}-mode`}
          popupMatchSelectWidth={false}
          options={MODES.map((m) => ({ value: m, label: t(`cron.ui_mode_${m}`) }))}
          onChange={(mode) => onChange({ ...spec, mode, values: spec.values.length ? spec.values : [min] })}
        />
        {spec.mode === 'values' && (
          <Select<number[]>
            size="small"
            mode="multiple"
            value={spec.values}
            options={options}
            data-testid={`${id}-values`}
            className="cron-picker-values"
            maxTagCount="responsive"
            // The last value stays: a field with no value is no schedule.
            onChange={(values) => values.length && onChange({ ...spec, values: [...values].sort((a, b) => a - b) })}
          />
        )}
        {(spec.mode === 'range' || spec.mode === 'step') && (
          <>
            {valueSelect(spec.from, (from) => onChange({ ...spec, from, to: Math.max(from, spec.to) }), `${id}-from`)}
            <span>{t('cron.ui_rangeTo')}</span>
            {valueSelect(spec.to, (to) => onChange({ ...spec, to, from: Math.min(spec.from, to) }), `${id}-to`)}
          </>
        )}
        {spec.mode === 'step' && (
          <>
            <span>{t('cron.ui_stepEvery')}</span>
            <InputNumber
              size="small"
              // No min / max props (they clamp silently): a step outside 1…the field's span is ignored.
              precision={0}
              value={spec.step}
              data-testid={`${id}-step`}
              className="cron-picker-number"
              onChange={(step) =>
                typeof step === 'number' && step >= 1 && step <= max - min + 1 && onChange({ ...spec, step })
              }
            />
          </>
        )}
      </Space>
    </div>
  );
}
