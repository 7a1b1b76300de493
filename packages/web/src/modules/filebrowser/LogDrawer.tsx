// The file manager's log (uploads, deletes, moves, saves, share links opened and refused) in the
// shared service log drawer.
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { ServiceLogDrawer } from '../../components/ruleLog/ServiceLogDrawer';
import { clearLogs, fetchLogs, filebrowserKeys } from './api';
import { errorText } from './errors';

/** Page 1 follows new lines this often while the drawer is open. */
const LOG_INTERVAL_MS = 5000;

export function LogDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const onClear = async () => {
    try {
      await clearLogs();
      return true;
    } catch (err) {
      const text = errorText(err, t);
      if (text) void message.error(text);
      return false;
    }
  };
  return (
    <ServiceLogDrawer
      open={open}
      onClose={onClose}
      onClear={onClear}
      ns="filebrowser"
      queryKey={filebrowserKeys.logs}
      fetchLogs={fetchLogs}
      intervalMs={LOG_INTERVAL_MS}
      testIdPrefix="fb"
    />
  );
}
