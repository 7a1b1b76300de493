import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Clipboard API where the page is a secure context; otherwise the old textarea trick (plain-HTTP LAN access). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

export interface CopyButtonProps {
  text: string;
  label?: string;
  /** Just the icon (the label becomes the tooltip and the accessible name), e.g. inside a table cell. */
  iconOnly?: boolean;
  size?: 'small' | 'middle' | 'large';
  'data-testid'?: string;
}

export function CopyButton({ text, label, iconOnly, size, 'data-testid': testId }: CopyButtonProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [copied, setCopied] = useState(false);
  const name = label ?? t('common.copy');
  return (
    <Button
      size={size}
      type={iconOnly ? 'text' : undefined}
      title={iconOnly ? name : undefined}
      aria-label={iconOnly ? name : undefined}
      data-testid={testId}
      icon={copied ? <CheckOutlined /> : <CopyOutlined />}
      onClick={async () => {
        if (await copyText(text)) {
          setCopied(true);
          message.success(t('common.copied'));
          setTimeout(() => setCopied(false), 2000);
        } else {
          message.error(t('common.copyFailed'));
        }
      }}
    >
      {iconOnly ? null : name}
    </Button>
  );
}
