// Asks for one name: a rename, a new folder or a new text file. The name rules are the server's
// (isFileName); the dialog checks them first so a slip is shown on the field. Enter saves.
import { isFileName } from '@lucky/shared';
import { Form, Input } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog, type SaveHandler } from '../../components/form/FormDialog';
import { useFormErrors } from '../../hooks/useFormErrors';

export interface NameDialogProps {
  title: string;
  initial: string;
  /** Resolves to an error text to show on the field, or undefined when done. */
  onSubmit: (name: string) => Promise<string | undefined>;
  onClose: () => void;
}

interface NameValues {
  name: string;
}

const clean = (v: unknown) =>
  String(v ?? '')
    .trim()
    .normalize('NFC');

export function NameDialog({ title, initial, onSubmit, onClose }: NameDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<NameValues>();
  const errors = useFormErrors(form, { ns: 'filebrowser' });

  const save: SaveHandler = async () => {
    const err = await onSubmit(clean(form.getFieldValue('name')));
    if (err) return [{ field: 'name', msg: err }];
    onClose();
  };

  // Select the stem, not the extension, as desktop file managers do on a rename.
  const selected = useRef(false);
  const selectStem = (el: HTMLInputElement | null) => {
    if (!el || selected.current) return;
    selected.current = true;
    const dot = initial.lastIndexOf('.');
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(0, dot > 0 ? dot : initial.length);
    });
  };
  return (
    <FormDialog<NameValues>
      open
      title={title}
      onClose={onClose}
      form={form}
      errors={errors}
      onSave={save}
      testId="fb-name-dialog"
      modalTestId="fb-name-dialog"
      width={520}
      okText={t('common.ok')}
      initialValues={{ name: initial }}
      submitOnEnter
    >
      <Form.Item
        name="name"
        label={t('filebrowser.browse_name')}
        rules={[
          {
            validator: (_, value) => {
              const n = clean(value);
              if (!n) return Promise.reject(new Error(t('filebrowser.err_nameRequired')));
              if (!isFileName(n)) return Promise.reject(new Error(t('filebrowser.err_nameInvalid')));
              return Promise.resolve();
            },
          },
        ]}
      >
        <Input ref={(r) => selectStem(r?.input ?? null)} data-testid="fb-name-input" />
      </Form.Item>
    </FormDialog>
  );
}
