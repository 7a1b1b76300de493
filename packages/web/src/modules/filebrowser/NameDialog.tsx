// Asks for one name: a rename, a new folder or a new text file. The name rules are the server's
// (isFileName); the dialog checks them first so a slip is shown on the field.
import { isFileName } from '@lucky/shared';
import { Form, Input, Modal } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface NameDialogProps {
  title: string;
  initial: string;
  /** Resolves to an error text to show on the field, or undefined when done. */
  onSubmit: (name: string) => Promise<string | undefined>;
  onClose: () => void;
}

export function NameDialog({ title, initial, onSubmit, onClose }: NameDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const n = name.trim().normalize('NFC');
    if (!n) return setError(t('filebrowser.err_nameRequired'));
    if (!isFileName(n)) return setError(t('filebrowser.err_nameInvalid'));
    setBusy(true);
    try {
      const err = await onSubmit(n);
      if (err) setError(err);
      else onClose();
    } finally {
      setBusy(false);
    }
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
    <Modal
      open
      title={title}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      destroyOnHidden
      data-testid="fb-name-dialog"
    >
      <Form layout="vertical" onFinish={() => void submit()}>
        <Form.Item label={t('filebrowser.browse_name')} validateStatus={error ? 'error' : undefined} help={error}>
          <Input
            ref={(r) => selectStem(r?.input ?? null)}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setError(undefined);
            }}
            data-testid="fb-name-input"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
