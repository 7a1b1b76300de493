// antd form rules of the STUN dialogs. A field's rule runs the shared schema over the whole form
// (the check the server makes) and reports that field's first problem, in the words a refused
// save shows; numbers name their range.
import type { Rule } from 'antd/es/form';
import type { Translate } from '../../api/callErrors';
import { numberRangeRule } from '../../components/numberRangeRule';
import { failureText } from '../../hooks/useFormErrors';
import { checkRule, issueOfField, type RuleFormValues, valuesToInput } from './ruleForm';

/**
 * The schema's verdict on one field. Fields the form does not have (the NAT type dialog holds
 * only the channel) read as the defaults of a new rule, which pass.
 */
export function fieldRule(t: Translate, name: (string | number)[], otherNames: readonly string[] = []): Rule {
  return (form) => ({
    validator: () => {
      const values = form.getFieldsValue(true) as RuleFormValues;
      const issue = issueOfField(checkRule(valuesToInput(values), otherNames), name);
      return issue ? Promise.reject(new Error(failureText(t, 'stun', issue))) : Promise.resolve();
    },
  });
}

export const rangeRule = (t: Translate, r: { min: number; max: number }): Rule => numberRangeRule(t, r.min, r.max);

/** Empty (= the global default) or a whole number in [min, max]. */
export function optionalRangeRule(t: Translate, r: { min: number; max: number }): Rule {
  return {
    validator: (_, value) =>
      value === null ||
      value === undefined ||
      (typeof value === 'number' && Number.isInteger(value) && value >= r.min && value <= r.max)
        ? Promise.resolve()
        : Promise.reject(new Error(t('common.rangeError', { min: r.min, max: r.max }))),
  };
}
