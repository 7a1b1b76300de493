// PEM text (certificate, key, CA): pasted, or read from a file through
// `POST api/getfilebase64` (the server hands the bytes back in base64).
// Used by the certificate store (/safe) and the port-forwarding TLS fields.
import { UploadOutlined } from '@ant-design/icons';
import { Button, Input } from 'antd';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { upload } from '../api/client';

export interface PemInputProps {
  value?: string;
  onChange?: (pem: string) => void;
  id?: string;
  placeholder?: string;
  /** File types the picker offers (default: the usual PEM extensions). */
  accept?: string;
  minRows?: number;
  maxRows?: number;
  /** On the text box; the hidden file input gets `<id>-file`. */
  'data-testid'?: string;
  'aria-invalid'?: boolean;
}

/** base64 → UTF-8 text (PEM is ASCII; anything else still decodes without throwing). */
export function decodeBase64Text(b64: string): string {
  const bin = atob(b64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

export function PemInput({
  value,
  onChange,
  id,
  placeholder,
  accept = '.pem,.crt,.cer,.key,.txt',
  minRows = 3,
  maxRows = 8,
  ...rest
}: PemInputProps) {
  const { t } = useTranslation();
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const testId = rest['data-testid'];

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setBusy(true);
    try {
      const r = await upload<{ ret: number; base64: string }>('api/getfilebase64', file);
      onChange?.(decodeBase64Text(r.base64).trim());
    } catch {
      // The client showed why (too large, …).
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="pem-input">
      <Input.TextArea
        id={id}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        placeholder={placeholder ?? '-----BEGIN …-----'}
        autoSize={{ minRows, maxRows }}
        spellCheck={false}
        className="mono pem-input-text"
        data-testid={testId}
        aria-invalid={rest['aria-invalid']}
      />
      <input
        ref={fileRef}
        type="file"
        accept={accept}
        style={{ display: 'none' }}
        data-testid={testId ? `${testId}-file` : undefined}
        onChange={(e) => void onFile(e)}
      />
      <Button icon={<UploadOutlined />} loading={busy} onClick={() => fileRef.current?.click()}>
        {t('common.pemFromFile')}
      </Button>
    </div>
  );
}
