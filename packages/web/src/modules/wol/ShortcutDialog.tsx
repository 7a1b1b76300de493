// The call a phone shortcut (iOS Shortcuts, Tasker, a home-screen script) makes to wake a device:
// one curl line with an API token in place of YOUR_TOKEN, to copy. Tokens are made on the
// security screen; the line names this console as the browser reached it.
import type { WolDeviceView } from '@lucky/shared';
import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CopyButton } from '../../components/CopyButton';
import { useDialogLayout } from '../../hooks/useDialogLayout';
import { consoleBase, wakeCurl } from './format';

export const TOKEN_PLACEHOLDER = 'lkt_YOUR_TOKEN';

export interface ShortcutDialogProps {
  device: WolDeviceView | null;
  onClose: () => void;
}

export function ShortcutDialog({ device, onClose }: ShortcutDialogProps) {
  const { t } = useTranslation();
  const layout = useDialogLayout(720);
  const line = device ? wakeCurl(consoleBase(window.location.href), device.key, TOKEN_PLACEHOLDER) : '';
  return (
    <Modal
      open={device !== null}
      title={t('wol.dialog_shortcutTitle', { name: device?.name ?? '' })}
      onCancel={onClose}
      footer={null}
      width={layout.width}
      style={layout.style}
      className={layout.className}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('wol.dialog_shortcutHelp', { token: TOKEN_PLACEHOLDER })}</Typography.Paragraph>
      <pre className="mono wol-curl" data-testid="wol-shortcut-line">
        {line}
      </pre>
      <CopyButton text={line} data-testid="wol-shortcut-copy" />
      <Typography.Paragraph type="secondary" className="wol-shortcut-token">
        <Link to="/safe?tab=tokens" onClick={onClose}>
          {t('wol.dialog_shortcutTokens')}
        </Link>
      </Typography.Paragraph>
    </Modal>
  );
}
