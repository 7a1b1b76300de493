// Add or edit a task: name, schedule (visual editor ⇄ expression, next runs), actions in order,
// the missed-run and overlap policies. The shared schema checks each field as it is typed; a
// refusal of the server lands on its field in the user's language.
import { CRON_MISSED_POLICIES, CRON_OVERLAP_POLICIES, type CronTaskInput, type CronTaskView } from '@lucky/shared';
import { App, Form, Input, Radio, Switch } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { failureText, useFormErrors } from '../../hooks/useFormErrors';
import { ActionsEditor } from './ActionsEditor';
import { addTask, saveTask } from './api';
import { taskRule } from './rules';
import { ScheduleEditor } from './ScheduleEditor';
import { checkTask, newTask, taskToInput } from './taskForm';

export interface TaskDialogProps {
  /** The task being edited, 'new', or undefined (closed). */
  task: CronTaskView | 'new' | undefined;
  /** Names of the other tasks (a name is unique). */
  otherNames: readonly string[];
  onClose: () => void;
  onSaved: () => void;
}

export function TaskDialog({ task, otherNames, onClose, onSaved }: TaskDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<CronTaskInput>();
  // The schedule is one item (the editor), whatever part of it the server names.
  const errors = useFormErrors(form, {
    ns: 'cron',
    nameOf: (field) =>
      field.startsWith('schedule') ? ['schedule'] : field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
  });

  // The form is made anew for each opening (destroyOnHidden), from these values.
  const initial = useMemo(
    () => (task === undefined ? undefined : task === 'new' ? newTask() : taskToInput(task)),
    [task],
  );

  const save: SaveHandler = async (saved) => {
    const input = form.getFieldsValue(true) as CronTaskInput;
    // What no field shows (no action at all): said once, in words.
    const [first] = checkTask(input, otherNames);
    if (first) {
      void message.error(failureText(t, 'cron', first));
      return;
    }
    if (task === 'new') await addTask(input);
    else if (task) await saveTask(task.key, input);
    saved(t('cron.ui_saved'));
    onSaved();
  };

  return (
    <FormDialog<CronTaskInput>
      open={task !== undefined}
      title={t(task === 'new' ? 'cron.dialog_addTitle' : 'cron.dialog_editTitle')}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="cron-dialog"
      modalTestId="cron-dialog"
      saveId="cron-dialog-save"
      width={760}
      initialValues={initial}
      formProps={{ className: 'cron-form' }}
    >
      <div className="cron-row">
        <Form.Item
          name="name"
          label={t('cron.col_name')}
          rules={[taskRule(t, ['name'], otherNames)]}
          className="cron-grow"
        >
          <Input data-testid="cron-task-name" maxLength={64} />
        </Form.Item>
        <Form.Item name="enabled" label={t('cron.col_enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </div>
      <Form.Item
        name="schedule"
        label={t('cron.dialog_schedule')}
        rules={[taskRule(t, ['schedule', 'expression']), taskRule(t, ['schedule', 'every'])]}
      >
        <ScheduleEditor />
      </Form.Item>
      <ActionsEditor form={form} />
      <div className="cron-row">
        <Form.Item name="missed" label={t('cron.dialog_missed')} extra={t('cron.dialog_missedHint')}>
          <Radio.Group
            optionType="button"
            size="small"
            options={CRON_MISSED_POLICIES.map((p) => ({ value: p, label: t(`cron.dialog_missed_${p}`) }))}
          />
        </Form.Item>
        <Form.Item name="overlap" label={t('cron.dialog_overlap')} extra={t('cron.dialog_overlapHint')}>
          <Radio.Group
            optionType="button"
            size="small"
            options={CRON_OVERLAP_POLICIES.map((p) => ({ value: p, label: t(`cron.dialog_overlap_${p}`) }))}
          />
        </Form.Item>
      </div>
    </FormDialog>
  );
}
