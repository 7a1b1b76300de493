// antd form rules built on the checks of ruleForm.ts / serviceForm.ts: the
// message is the translation of the check's code, the same text a refused save shows.
import type { Rule } from 'antd/es/form';
import { type Issue, issueText, type Translate } from './errors';

type Getter = (name: (string | number)[] | string) => unknown;

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
