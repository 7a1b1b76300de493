// A blocking "restarting…" dialog that waits for the program and reloads the
// page (on the new port when it changed).
import { App, Button, Modal, Progress, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firstAnswering, healthProbe, urlWithPort, waitForRestart } from './reconnect';

type Phase = { state: 'idle' } | { state: 'waiting'; seconds: number } | { state: 'failed'; target: string };

const TIMEOUT_S = 120;

export function useReconnect() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [phase, setPhase] = useState<Phase>({ state: 'idle' });

  const reconnect = useCallback(
    async (port?: number) => {
      const here = window.location.href;
      const target = urlWithPort(here, port);
      const candidates = firstAnswering([target, here], (href) => healthProbe(href, window.location.origin));
      setPhase({ state: 'waiting', seconds: 0 });
      const ok = await waitForRestart({
        probe: candidates.probe,
        timeoutMs: TIMEOUT_S * 1000,
        onTick: (seconds) => setPhase({ state: 'waiting', seconds }),
      });
      const found = candidates.answered();
      if (ok && found) {
        message.success(t('set.backOnline'));
        if (found === here) window.location.reload();
        else window.location.assign(found);
      } else {
        setPhase({ state: 'failed', target });
      }
    },
    [message, t],
  );

  const dialog = (
    <Modal
      open={phase.state !== 'idle'}
      closable={phase.state === 'failed'}
      mask={{ closable: false }}
      keyboard={false}
      title={t('set.restarting')}
      onCancel={() => setPhase({ state: 'idle' })}
      footer={
        phase.state === 'failed' ? (
          <Button type="primary" onClick={() => window.location.assign(phase.target)}>
            {t('set.openConsole')}
          </Button>
        ) : null
      }
    >
      {phase.state === 'waiting' && (
        <div data-testid="reconnect-waiting">
          <Typography.Paragraph>{t('set.waitingForServer', { seconds: phase.seconds })}</Typography.Paragraph>
          <Progress
            percent={Math.min(99, Math.round((phase.seconds / TIMEOUT_S) * 100))}
            showInfo={false}
            status="active"
          />
        </div>
      )}
      {phase.state === 'failed' && (
        <Typography.Paragraph type="danger">{t('set.serverNotBack', { url: phase.target })}</Typography.Paragraph>
      )}
    </Modal>
  );

  return { reconnect, dialog };
}
