// A scriptable fetch: each call takes the next planned answer. Answers honour
// the request's AbortSignal, so time-outs behave as with a real network.
import { vi } from 'vitest';

export type Planned =
  | { status?: number; body: unknown; headers?: Record<string, string> }
  | { hang: true }
  | { networkError: true };

export interface FakeFetch {
  fn: ReturnType<typeof vi.fn>;
  plan(...answers: Planned[]): void;
  /** A standing answer for every call to this path (the part before `?`); wins over the queue. */
  route(path: string, answer: Planned | ((url: string, init: RequestInit) => Planned)): void;
  /** URL and init of the n-th call. */
  call(n: number): { url: string; init: RequestInit };
}

export function installFakeFetch(): FakeFetch {
  const queue: Planned[] = [];
  const routes = new Map<string, Planned | ((url: string, init: RequestInit) => Planned)>();
  const fn = vi.fn((input: string, init: RequestInit = {}) => {
    const routed = routes.get(String(input).split('?')[0]);
    const next = (typeof routed === 'function' ? routed(input, init) : routed) ??
      queue.shift() ?? { networkError: true };
    return new Promise<Response>((resolve, reject) => {
      const signal = init.signal;
      const abort = () => reject(new DOMException('The operation was aborted.', 'AbortError'));
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort);
      if ('hang' in next) return;
      if ('networkError' in next) return reject(new TypeError('Failed to fetch'));
      const text = typeof next.body === 'string' ? next.body : JSON.stringify(next.body);
      resolve(
        new Response(text, {
          status: next.status ?? 200,
          headers: { 'Content-Type': 'application/json', ...next.headers },
        }),
      );
    });
  });
  vi.stubGlobal('fetch', fn);
  return {
    fn,
    plan: (...answers) => queue.push(...answers),
    route: (path, answer) => routes.set(path, answer),
    call: (n) => {
      const [url, init] = fn.mock.calls[n] as [string, RequestInit];
      return { url, init };
    },
  };
}
