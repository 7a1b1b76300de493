// antd form rules of the settings dialog: an item's verdict is the server's check (the whole
// config schema) over the form's current values, in the words a refused save shows.
import type { FtpserverMount, FtpserverUser } from '@lucky/shared';
import type { Rule } from 'antd/es/form';
import type { Translate } from '../../api/callErrors';
import { numberRangeRule } from '../../components/numberRangeRule';
import { failureText } from '../../hooks/useFormErrors';
import { checkSettings, issueOfItem, type SettingsFormValues, valuesToSettings } from './settingsForm';

export interface SettingsContext {
  mounts: readonly FtpserverMount[];
  users: readonly FtpserverUser[];
}

export function settingRule(t: Translate, name: (string | number)[], ctx: SettingsContext): Rule {
  return (form) => ({
    validator: () => {
      const values = form.getFieldsValue(true) as SettingsFormValues;
      const issue = issueOfItem(checkSettings(valuesToSettings(values), ctx.mounts, ctx.users), name);
      return issue ? Promise.reject(new Error(failureText(t, 'ftpserver', issue))) : Promise.resolve();
    },
  });
}

/** A whole number in the range first (an emptied box reads as the range), then the server's check. */
export function numberRules(
  t: Translate,
  name: (string | number)[],
  range: { min: number; max: number },
  ctx: SettingsContext,
): Rule[] {
  return [numberRangeRule(t, range.min, range.max), settingRule(t, name, ctx)];
}
