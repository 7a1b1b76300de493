// antd form rules of the task dialog: a field's rule runs the shared schema over the whole form
// (the check the server makes) and reports that field's first problem in the words a refused save
// shows.
import type { CronTaskInput } from '@lucky/shared';
import type { Rule } from 'antd/es/form';
import type { Translate } from '../../api/callErrors';
import { failureText } from '../../hooks/useFormErrors';
import { checkTask, issueOfField } from './taskForm';

export function taskRule(t: Translate, name: (string | number)[], otherNames: readonly string[] = []): Rule {
  return (form) => ({
    validator: () => {
      const values = form.getFieldsValue(true) as CronTaskInput;
      const issue = issueOfField(checkTask(values, otherNames), name);
      return issue ? Promise.reject(new Error(failureText(t, 'cron', issue))) : Promise.resolve();
    },
  });
}
