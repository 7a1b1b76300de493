import type { CodedText } from '@lucky/shared';

/** Where a listener binds: `host` '' or `::` = every address (dual-stack unless ipv6Only). */
export interface BindTarget {
  host: string;
  port: number;
  ipv6Only?: boolean;
}

/** A port that could not be bound because it is taken or the address is missing is tried again this often. */
export const RETRY_BIND_MS = 10_000;

/**
 * Binds as asked; a dual-stack `::` (or '') on a machine without IPv6 falls back to `0.0.0.0`
 * (what a dual-stack bind means there). Returns the target actually bound. The one place every
 * listener of every module binds through.
 */
export async function bindWithFallback(
  target: BindTarget,
  bind: (t: Required<BindTarget>) => Promise<void>,
): Promise<Required<BindTarget>> {
  const t = { host: target.host === '' ? '::' : target.host, port: target.port, ipv6Only: target.ipv6Only ?? false };
  try {
    await bind(t);
    return t;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (t.host !== '::' || t.ipv6Only || (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL')) throw err;
    const v4 = { ...t, host: '0.0.0.0' };
    await bind(v4);
    return v4;
  }
}

const where = (t: BindTarget) => (t.host.includes(':') ? `[${t.host}]:${t.port}` : `${t.host || '*'}:${t.port}`);

/** Why a bind failed, as code + params for the UI and English text for logs and API users. */
export function bindReason(err: unknown, t: BindTarget): CodedText {
  const e = err as NodeJS.ErrnoException;
  const params = { address: where(t), port: t.port, errno: e.code ?? '' };
  switch (e.code) {
    case 'EADDRINUSE':
      return {
        code: 'portInUse',
        params,
        text: `cannot listen on ${params.address}: the port is in use by another program or rule (EADDRINUSE)`,
      };
    case 'EACCES':
    case 'EPERM':
      return {
        code: 'portPermission',
        params,
        text: `cannot listen on ${params.address}: permission denied (${e.code}; ports below 1024 need root or CAP_NET_BIND_SERVICE)`,
      };
    case 'EADDRNOTAVAIL':
      return {
        code: 'addressMissing',
        params,
        text: `cannot listen on ${params.address}: this machine has no such address (EADDRNOTAVAIL)`,
      };
    default:
      return {
        code: 'bindFailed',
        params: { ...params, errno: e.code ?? e.message },
        text: `cannot listen on ${params.address}: ${e.code ?? e.message}`,
      };
  }
}

/** Worth trying again later: the port may be freed, the address may come up. */
export function retryableBind(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL';
}

export type BindState =
  | { state: 'bound'; target: Required<BindTarget> }
  | { state: 'retrying'; reason: CodedText; retryAt: number }
  | { state: 'failed'; reason: CodedText };

/**
 * Keeps a listener bound: binds through `bindWithFallback`, and while the port is taken or the
 * address is missing tries again every `retryMs`, reporting each state with its reason. Every
 * module's listener uses this, so a taken port is retried with a stated reason everywhere.
 */
export class PortBinder {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  current: BindState | undefined;

  constructor(
    private readonly target: BindTarget,
    private readonly bind: (t: Required<BindTarget>) => Promise<void>,
    private readonly onState: (s: BindState) => void = () => {},
    private readonly retryMs = RETRY_BIND_MS,
  ) {}

  /** Resolves after the first attempt (bound or not); later attempts run on their own. */
  async start(): Promise<BindState> {
    this.stopped = false;
    clearTimeout(this.timer);
    let s: BindState;
    try {
      s = { state: 'bound', target: await bindWithFallback(this.target, this.bind) };
    } catch (err) {
      const reason = bindReason(err, this.target);
      if (retryableBind(err) && !this.stopped) {
        s = { state: 'retrying', reason, retryAt: Date.now() + this.retryMs };
        this.timer = setTimeout(() => void this.start(), this.retryMs);
        this.timer.unref?.();
      } else s = { state: 'failed', reason };
    }
    if (this.stopped) return s;
    this.current = s;
    this.onState(s);
    return s;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
