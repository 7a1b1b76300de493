// The module switch's call with its spinner: the header's switch and the "switch on" button of
// the module-off notice run the same call, so both show it running.
import { useState } from 'react';

export function useModuleSwitch(setEnabled: (on: boolean) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  const toggle = async (on: boolean) => {
    setBusy(true);
    try {
      await setEnabled(on);
    } finally {
      setBusy(false);
    }
  };
  return { busy, toggle };
}
