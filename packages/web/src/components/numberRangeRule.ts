// A form rule for a number field: a whole number in [min, max], else the field's range message.
// Number inputs take no min / max of their own (antd's InputNumber would silently move an
// out-of-range entry to the bound on blur and the form would save that): the rule refuses it.
import type { Rule } from 'antd/es/form';

type Translate = (key: string, vars?: Record<string, unknown>) => string;

/** `shown` replaces the numbers in the message (e.g. a speed in MB/s for a value kept in bytes/s). */
export function numberRangeRule(
  t: Translate,
  min: number,
  max: number,
  shown: { min?: string | number; max?: string | number } = {},
): Rule {
  return {
    validator: (_, value) =>
      typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
        ? Promise.resolve()
        : Promise.reject(new Error(t('common.rangeError', { min: shown.min ?? min, max: shown.max ?? max }))),
  };
}
