// After a restart, restore or update the program goes away and comes back,
// possibly on another port. We first wait to see it go down (or give up on
// noticing that after a few seconds: a fast restart may be missed), then poll
// `api/health` until it answers, and only then reload.

export interface WaitDeps {
  /** True when the server answered the health probe. Never throws. */
  probe: () => Promise<boolean>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  intervalMs?: number;
  /** How long to look for the down phase before assuming it was missed. */
  downWindowMs?: number;
  timeoutMs?: number;
  /** Called with the seconds waited so far, for the progress text. */
  onTick?: (elapsedSeconds: number) => void;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Resolves true once the server is back, false on time-out. */
export async function waitForRestart(deps: WaitDeps): Promise<boolean> {
  const sleep = deps.sleep ?? defaultSleep;
  const now = deps.now ?? Date.now;
  const interval = deps.intervalMs ?? 1000;
  const downWindow = deps.downWindowMs ?? 5000;
  const timeout = deps.timeoutMs ?? 120_000;
  const start = now();
  const elapsed = () => now() - start;

  // Phase 1: see it go down.
  while (elapsed() < downWindow) {
    await sleep(interval);
    deps.onTick?.(Math.round(elapsed() / 1000));
    if (!(await deps.probe())) break;
  }
  // Phase 2: wait until it answers again.
  while (elapsed() < timeout) {
    if (await deps.probe()) return true;
    await sleep(interval);
    deps.onTick?.(Math.round(elapsed() / 1000));
  }
  return false;
}

/** The page address with another port (restore may move the console). */
export function urlWithPort(href: string, port?: number): string {
  const u = new URL(href);
  if (port && Number.isInteger(port) && port > 0 && port < 65536) u.port = String(port);
  return u.toString();
}

/** `api/health` next to the page at `pageHref` (keeps the security entrance / path prefix). */
export function healthUrl(pageHref: string): string {
  const u = new URL('api/health', pageHref);
  u.searchParams.set('_', String(Date.now()));
  return u.toString();
}

/**
 * Probe for the health endpoint. Same origin: a real read of `{ret:0}`.
 * Another origin (new port): an opaque no-cors request, which resolves when
 * anything answers and rejects when nothing listens — enough to know it is up.
 */
export function healthProbe(pageHref: string, currentOrigin: string): () => Promise<boolean> {
  return async () => {
    const url = healthUrl(pageHref);
    const sameOrigin = new URL(url).origin === currentOrigin;
    try {
      const res = await fetch(url, {
        cache: 'no-store',
        mode: sameOrigin ? 'same-origin' : 'no-cors',
        signal: AbortSignal.timeout(3000),
      });
      if (!sameOrigin) return true;
      if (!res.ok) return false;
      const body = (await res.json()) as { ret?: unknown };
      return body?.ret === 0;
    } catch {
      return false;
    }
  };
}

/**
 * Probes several page addresses at once (the announced port first, then the
 * current one, in case the port was pinned on the command line) and remembers
 * which answered, so the reload goes where the console really is.
 */
export function firstAnswering(candidates: readonly string[], probeFor: (href: string) => () => Promise<boolean>) {
  const unique = [...new Set(candidates)];
  const probes = unique.map((href) => probeFor(href));
  let answered: string | null = null;
  return {
    probe: async (): Promise<boolean> => {
      const results = await Promise.all(probes.map((p) => p()));
      const index = results.indexOf(true);
      answered = index >= 0 ? unique[index] : null;
      return index >= 0;
    },
    answered: () => answered,
  };
}

/**
 * Where the console lives after changing the security entrance: the page path
 * ends with `<old>/` (or is the root); swap that part for `<new>/`.
 */
export function entranceUrl(href: string, oldEntrance: string, newEntrance: string): string {
  const u = new URL(href);
  let base = u.pathname.endsWith('/') ? u.pathname : u.pathname.replace(/[^/]*$/, '');
  if (oldEntrance && base.endsWith(`/${oldEntrance}/`)) base = base.slice(0, base.length - oldEntrance.length - 1);
  u.pathname = newEntrance ? `${base}${newEntrance}/` : base;
  return u.toString();
}
