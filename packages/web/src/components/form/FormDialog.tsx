// The frame every settings and item dialog of the modules shares: a Modal sized by the one dialog
// rule (whole window on a phone), destroyed on close so each opening starts from its initial
// values, a Form wired to the one form-error hook, and the save flow — the form's own checks, the
// dialog's save, a refusal beside its field (the dialog stays open), a success as a message.
// The dialog keeps what is its own: the fields, the values it sends, its whole-form check and what
// happens after a success (close, hand the saved item up).
//
// Test ids: `<testId>-form` on the form, `<testId>-save` on the save button (and the older ids a
// dialog had before it moved onto the frame: `modalTestId`, `saveId`).
import { Alert, App, Button, Form, type FormInstance, type FormProps, Modal, Skeleton } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Failure } from '../../api/callErrors';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import type { FormErrors } from '../../hooks/useFormErrors';

/** Called by a save that went through: clears the last refusal and shows `text` as a success. */
export type SavedNotice = (text: string) => void;

/**
 * The dialog's save, run after the form's own checks passed. Returns the problems its whole-form
 * check found (shown like a refusal, nothing sent) or nothing; a thrown error (the call's
 * ApiError) is shown beside the field it names. On success it calls `saved(text)` before it hands
 * the result up, so the message stands before any the caller adds.
 */
export type SaveHandler = (saved: SavedNotice) => Promise<Failure[] | undefined>;

/** Values fetched when the dialog opens: a skeleton while they come, the failure instead of the form. */
export interface FormDialogLoad {
  /** The values are here: the form shows and may be saved. */
  ready: boolean;
  pending: boolean;
  /** Set when the values could not be read (shown while they are not here). */
  error?: { title: ReactNode; description?: ReactNode };
}

/** The `load` of values a query fetches when the dialog opens; `error` words its failure. */
export function queryLoad(
  query: { data?: unknown; isPending: boolean; isError: boolean; error: unknown },
  error: (err: unknown) => NonNullable<FormDialogLoad['error']>,
): FormDialogLoad {
  return {
    ready: query.data !== undefined,
    pending: query.isPending,
    error: query.isError ? error(query.error) : undefined,
  };
}

export interface FormDialogProps<V> {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  form: FormInstance<V>;
  errors: FormErrors;
  onSave: SaveHandler;
  /** Test-id prefix: `<testId>-form`, `<testId>-save`. */
  testId: string;
  /** The dialog's width on a wide window. */
  width: number;
  /** Label column width on a wide window (labels beside the fields); absent = labels above. */
  labelWidth?: number;
  className?: string;
  /** The form's `name` (prefixes the fields' ids). */
  name?: string;
  initialValues?: FormProps<V>['initialValues'];
  /** More form props (requiredMark, className …); its onValuesChange runs after the error hook's. */
  formProps?: Omit<FormProps<V>, 'form' | 'name' | 'initialValues' | 'layout' | 'labelCol'>;
  /** The save button's text; default common.save. */
  okText?: ReactNode;
  /** Values still to be fetched: the form shows once they are here. */
  load?: FormDialogLoad;
  /** Rendered below the form, inside the dialog (a result modal of a test button …). */
  after?: ReactNode;
  afterClose?: () => void;
  /**
   * false: the save runs without the form's own field rules first — for a dialog whose save checks
   * the whole input with the server's schema itself (the rules then only guide while typing).
   */
  formChecks?: boolean;
  /** Enter in a field saves (a one-field prompt); off by default, as Enter in a long form should not. */
  submitOnEnter?: boolean;
  /** `data-testid` on the dialog itself. */
  modalTestId?: string;
  /** An `id` on the save button (besides its test id). */
  saveId?: string;
  children: ReactNode;
}

export function FormDialog<V>(props: FormDialogProps<V>) {
  const { open, title, onClose, form, errors, testId, width, labelWidth, load } = props;
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const layout = useDialogLayout(width);
  const ready = load?.ready ?? true;
  const labelled = labelWidth !== undefined;
  const beside = labelled && !layout.fullScreen;
  const { onValuesChange, ...formProps } = props.formProps ?? {};

  const submit = async () => {
    if (props.formChecks !== false && !(await errors.validate())) return;
    setSaving(true);
    try {
      const problems = await props.onSave((text) => {
        errors.clear();
        void message.success(text);
      });
      if (problems && problems.length > 0) errors.show(problems);
    } catch (err) {
      errors.show(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      width={layout.width}
      style={layout.style}
      className={[props.className, layout.className].filter(Boolean).join(' ')}
      mask={{ closable: false }}
      destroyOnHidden
      afterClose={props.afterClose}
      data-testid={props.modalTestId}
      footer={[
        <Button key="cancel" onClick={onClose} disabled={saving}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="save"
          type="primary"
          loading={saving}
          disabled={!ready}
          onClick={() => void submit()}
          id={props.saveId}
          data-testid={`${testId}-save`}
        >
          {props.okText ?? t('common.save')}
        </Button>,
      ]}
    >
      {load?.pending && <Skeleton active paragraph={{ rows: 6 }} />}
      {load?.error && !ready && (
        <Alert type="error" showIcon title={load.error.title} description={load.error.description} />
      )}
      {ready && (
        <Form<V>
          {...formProps}
          form={form}
          name={props.name}
          initialValues={props.initialValues}
          layout={beside ? 'horizontal' : 'vertical'}
          labelCol={beside ? { flex: `${labelWidth}px` } : undefined}
          labelWrap={labelled || undefined}
          colon={labelled ? false : undefined}
          onValuesChange={(changed, all) => {
            errors.onValuesChange(changed);
            onValuesChange?.(changed, all);
          }}
          {...(props.submitOnEnter && { onFinish: () => void submit(), onFinishFailed: () => void submit() })}
          data-testid={`${testId}-form`}
        >
          {props.children}
        </Form>
      )}
      {props.after}
    </Modal>
  );
}
