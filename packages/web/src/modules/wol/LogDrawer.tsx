// The module's log (wakes, online / offline changes, shutdowns, scans, webhook calls) in the
// shared service log drawer.
import { ServiceLogDrawer } from '../../components/ruleLog/ServiceLogDrawer';
import { fetchLogs, wolKeys } from './api';

export interface LogDrawerProps {
  open: boolean;
  intervalMs: number;
  onClose: () => void;
  onClear: () => Promise<boolean>;
}

export function LogDrawer(props: LogDrawerProps) {
  return (
    <ServiceLogDrawer
      {...props}
      ns="wol"
      wordsPrefix="ui_"
      queryKey={wolKeys.logs}
      fetchLogs={fetchLogs}
      testIdPrefix="wol"
    />
  );
}
