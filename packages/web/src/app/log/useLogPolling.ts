// Polls `GET api/logs?pre=<last timestamp>` every second while the dialog is
// open (spec §4). The next poll is scheduled when the previous one settles, so
// a slow server never gets overlapping requests.
import { LOG_POLL_MS, type LogsResponse } from '@lucky/shared';
import { App } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, get } from '../../api/client';
import { localizeLogLine, useDisplayTimeZone } from '../../components/time';
import { applyLogReply, EMPTY_LOG_BUFFER, type LogBuffer } from './logBuffer';

export interface LogPolling {
  buffer: LogBuffer;
  /** False until the first reply: the dialog shows a loading indicator. */
  loaded: boolean;
}

export function useLogPolling(open: boolean): LogPolling {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [buffer, setBuffer] = useState<LogBuffer>(EMPTY_LOG_BUFFER);
  const [loaded, setLoaded] = useState(false);
  // The loop reads the latest buffer without restarting on every reply.
  const bufferRef = useRef(buffer);
  // Lines are kept with their time in the display zone: a new zone fetches them all again.
  const zone = useDisplayTimeZone();
  const zoneRef = useRef(zone);

  useEffect(() => {
    if (!open) return;
    if (zoneRef.current !== zone) {
      zoneRef.current = zone;
      bufferRef.current = EMPTY_LOG_BUFFER;
      setBuffer(EMPTY_LOG_BUFFER);
    }
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    // One "error getting log" notice per outage, not one per second.
    let errorShown = false;

    const tick = async () => {
      try {
        const reply = await get<LogsResponse>('api/logs', {
          query: { pre: bufferRef.current.pre },
          silent: true,
          signal: controller.signal,
        });
        if (stopped) return;
        const next = applyLogReply(bufferRef.current, reply, (line) => localizeLogLine(line, zone));
        bufferRef.current = next;
        setBuffer(next);
        setLoaded(true);
        errorShown = false;
      } catch (err) {
        if (stopped) return;
        const kind = err instanceof ApiError ? err.kind : 'network';
        if (kind !== 'aborted' && kind !== 'session' && !errorShown) {
          errorShown = true;
          message.error({ content: t('logs.fetchError'), key: 'logs.fetchError' });
        }
        if (kind === 'session') return;
      }
      if (!stopped) timer = setTimeout(tick, LOG_POLL_MS);
    };
    void tick();

    return () => {
      stopped = true;
      clearTimeout(timer);
      controller.abort();
    };
  }, [open, message, t, zone]);

  return { buffer, loaded };
}
