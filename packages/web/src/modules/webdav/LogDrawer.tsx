// The WebDAV server's log (sign-ins, refusals, changes) in the shared service log drawer.
import { ServiceLogDrawer } from '../../components/ruleLog/ServiceLogDrawer';
import { fetchLogs, webdavKeys } from './api';
import { STATUS_INTERVAL_MS } from './useWebdav';

export interface LogDrawerProps {
  open: boolean;
  onClose: () => void;
  onClear: () => Promise<boolean>;
}

export function LogDrawer(props: LogDrawerProps) {
  return (
    <ServiceLogDrawer
      {...props}
      ns="webdav"
      queryKey={webdavKeys.logs}
      fetchLogs={fetchLogs}
      intervalMs={STATUS_INTERVAL_MS}
      testIdPrefix="webdav"
    />
  );
}
