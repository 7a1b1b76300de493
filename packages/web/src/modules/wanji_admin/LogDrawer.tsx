// The module's log (consoles answering or not, login links, bulk actions) in the shared service
// log drawer.
import { ServiceLogDrawer } from '../../components/ruleLog/ServiceLogDrawer';
import { fetchLogs, wanjiKeys } from './api';

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
      ns="wanji_admin"
      wordsPrefix="ui_"
      queryKey={wanjiKeys.logs}
      fetchLogs={fetchLogs}
      testIdPrefix="wanji"
    />
  );
}
