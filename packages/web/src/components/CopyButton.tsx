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

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [copied, setCopied] = useState(false);
  return (
    <Button
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
      {label ?? t('common.copy')}
    </Button>
  );
}
