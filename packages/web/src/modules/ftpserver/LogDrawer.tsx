// The FTP server's log (connections, logins, transfers, refusals) in the shared service log drawer.
import { ServiceLogDrawer } from '../../components/ruleLog/ServiceLogDrawer';
import { fetchLogs, ftpKeys } from './api';

export interface LogDrawerProps {
  open: boolean;
  intervalMs: number;
  onClose: () => void;
  onClear: () => Promise<boolean>;
}

export function LogDrawer(props: LogDrawerProps) {
  return (
    <ServiceLogDrawer {...props} ns="ftpserver" queryKey={ftpKeys.logs} fetchLogs={fetchLogs} testIdPrefix="ftp" />
  );
}
