// Chart history kept in the browser: the last N samples of CPU %, memory % and
// the total network rate (bytes/s over all interfaces, received + sent).
import type { StatusData } from './statusData';

export const HISTORY_LENGTH = 60;

export interface Sample {
  at: number;
  cpu: number | null;
  memory: number | null;
  /** Bytes per second since the previous sample; null for the first one or after a counter reset. */
  netRate: number | null;
  rxRate: number | null;
  txRate: number | null;
  rxTotal: number;
  txTotal: number;
}

export function totals(data: StatusData): { rx: number; tx: number } {
  let rx = 0;
  let tx = 0;
  for (const i of data.interfaces) {
    rx += i.rxBytes;
    tx += i.txBytes;
  }
  return { rx, tx };
}

export function pushSample(history: readonly Sample[], data: StatusData, at: number, max = HISTORY_LENGTH): Sample[] {
  const { rx, tx } = totals(data);
  const prev = history[history.length - 1];
  let rxRate: number | null = null;
  let txRate: number | null = null;
  if (prev && at > prev.at) {
    const dt = (at - prev.at) / 1000;
    // Counters drop when an interface goes away or the host reboots: no rate for that step.
    if (rx >= prev.rxTotal && tx >= prev.txTotal) {
      rxRate = (rx - prev.rxTotal) / dt;
      txRate = (tx - prev.txTotal) / dt;
    }
  }
  const sample: Sample = {
    at,
    cpu: data.cpu.percent,
    memory: data.memory.percent,
    netRate: rxRate === null || txRate === null ? null : rxRate + txRate,
    rxRate,
    txRate,
    rxTotal: rx,
    txTotal: tx,
  };
  const next = [...history, sample];
  return next.length > max ? next.slice(next.length - max) : next;
}
