// A listener's live figures (the web service shows them as a rule's status.traffic): totals as
// the listener and the handlers count them (helper processes included, where they serve), and
// rates over the time between two samples (the owner samples once a second). A total that went
// down (a helper that had not reported its last bytes before it exited, a listener that was
// bound anew) gives a rate of 0, never a negative one.

export interface TrafficTotals {
  connections: number;
  requests: number;
  bytesIn: number;
  bytesOut: number;
}

/** The totals and their rates per second over the last sample (ReverseproxyTraffic has this shape). */
export interface TrafficFigures extends TrafficTotals {
  requestRate: number;
  rateIn: number;
  rateOut: number;
}

/** Milliseconds from a monotonic clock; injectable for unit tests. */
export type Clock = () => number;

export class TrafficMeter {
  figures: TrafficFigures = {
    connections: 0,
    requests: 0,
    bytesIn: 0,
    bytesOut: 0,
    requestRate: 0,
    rateIn: 0,
    rateOut: 0,
  };
  private last?: TrafficTotals;
  private lastAt = 0;

  constructor(private readonly now: Clock = () => performance.now()) {}

  sample(totals: TrafficTotals): void {
    const at = this.now();
    const last = this.last;
    const seconds = (at - this.lastAt) / 1000;
    const per = (now: number, before: number | undefined) =>
      last && seconds > 0 && before !== undefined ? Math.max(0, Math.round((now - before) / seconds)) : 0;
    this.figures = {
      ...totals,
      requestRate: per(totals.requests, last?.requests),
      rateIn: per(totals.bytesIn, last?.bytesIn),
      rateOut: per(totals.bytesOut, last?.bytesOut),
    };
    this.last = totals;
    this.lastAt = at;
  }
}
