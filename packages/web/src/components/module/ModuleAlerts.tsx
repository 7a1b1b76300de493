// The head of a module screen, the same on every screen: the list could not be loaded (and there is
// nothing older to show), the module is switched off (with a button that switches it on, where the
// screen offers one), and the card that stands in while the first answer comes. The texts are the
// module's own (its namespace's keys, translated by the caller); the test ids keep each screen's
// names: `<testId>-load-error`, `<testId>-module-disabled`, `<testId>-module-enable` unless `ids`
// names them otherwise.
import { Alert, Button, Card } from 'antd';
import type { ReactNode } from 'react';

export interface ModuleLoadError {
  title: ReactNode;
  /** The failure in the user's language (the module's errorText); none = only the title. */
  description?: ReactNode;
}

export interface ModuleOffNotice {
  title: ReactNode;
  /** What being off means for the user. */
  help?: ReactNode;
  /** `warning` when the screen can do little while off; `info` where it is only a state. */
  type?: 'warning' | 'info';
  /** A button that switches the module on; absent where the screen has its own switch only. */
  enable?: { text: ReactNode; onClick: () => void };
}

export interface ModuleAlertsProps {
  /** The screen's test-id prefix (`acme`, `pf`, …). */
  testId: string;
  /** Test ids that do not follow `<testId>-load-error` / `-module-disabled` / `-module-enable`. */
  ids?: { loadError?: string; off?: string; enable?: string };
  /** Shown while set: the load failed and no data is on screen. */
  loadError?: ModuleLoadError | false;
  /** Shown while set: the module is switched off. */
  off?: ModuleOffNotice | false;
  /** The loading card while the first answer is awaited. */
  loading?: boolean;
}

export function ModuleAlerts({ testId, ids = {}, loadError, off, loading }: ModuleAlertsProps) {
  return (
    <>
      {loadError && (
        <Alert
          type="error"
          showIcon
          title={loadError.title}
          description={loadError.description}
          data-testid={ids.loadError ?? `${testId}-load-error`}
        />
      )}
      {off && (
        <Alert
          type={off.type ?? 'warning'}
          showIcon
          title={off.title}
          description={off.help}
          data-testid={ids.off ?? `${testId}-module-disabled`}
          action={
            off.enable && (
              <Button type="primary" onClick={off.enable.onClick} data-testid={ids.enable ?? `${testId}-module-enable`}>
                {off.enable.text}
              </Button>
            )
          }
        />
      )}
      {loading && <Card loading />}
    </>
  );
}
