// The module's log (accounts registered, orders, challenges, issues, renewals, failures) in the
// shared service log drawer; it follows new lines quickly while an order may be running.
import { ServiceLogDrawer } from '../../components/ruleLog/ServiceLogDrawer';
import { acmeKeys, fetchLogs } from './api';

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
      ns="acme"
      wordsPrefix="ui_"
      queryKey={acmeKeys.logs}
      fetchLogs={fetchLogs}
      testIdPrefix="acme"
    />
  );
}
