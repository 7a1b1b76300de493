// antd form rules built on the checks of ruleForm.ts: the message is the
// translation of the check's code, the same text a refused save shows.
import { PORTFORWARD_LIMITS } from '@lucky/shared';
import type { Rule } from 'antd/es/form';
import { numberRangeRule } from '../../components/numberRangeRule';
import { type Issue, issueText, type Translate } from './errors';

type Getter = (name: string) => unknown;

/** A rule from a check that may read other fields (re-run them with `dependencies`). */
export function issueRule(t: Translate, check: (value: unknown, get: Getter) => Issue | undefined): Rule {
  return ({ getFieldValue }) => ({
    validator: (_, value) => {
      const issue = check(value, getFieldValue as Getter);
      return issue ? Promise.reject(new Error(issueText(t, issue))) : Promise.resolve();
    },
  });
}

/** A whole number in [min, max]; the message names the range. */
export function rangeRule(t: Translate, min: number, max: number): Rule {
  return {
    validator: (_, value) =>
      typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
        ? Promise.resolve()
        : Promise.reject(new Error(t('common.rangeError', { min, max }))),
  };
}

/** A speed limit (bytes/s) from 0 (none) to the schema's largest, named in MB/s. */
export const speedRule = (t: Translate): Rule =>
  numberRangeRule(t, 0, PORTFORWARD_LIMITS.speedLimit.max, {
    max: `${PORTFORWARD_LIMITS.speedLimit.max / 1_000_000} MB/s`,
  });
