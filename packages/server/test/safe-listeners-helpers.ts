// Helpers for the tests of the security lists at every module's listeners (safe-listeners.*.test.ts):
// a real server with a clock the test moves (bans end, refusal logs repeat without waiting), the
// `safe` config slice set as the admin would save it, an outside client (a network namespace with a
// non-LAN address and a network agent running in it), and the program log's refusal lines.
import { spawn } from 'node:child_process';
import { type SafeConfig, safeConfigSchema, safeEntrySchema } from '@lucky/shared';
import { startTestServer, type TestServer } from './harness.js';
import { type Agent, startAgent } from './natlab/agentClient.js';
import { type OutsideNamespace, outsideNamespace } from './outsideNamespace.js';
import { waitFor } from './wait.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field in the tests
type Json = any;

export interface SafeConsole {
  s: TestServer;
  port: number;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }>;
  /** The server's clock (epoch ms): only the security lists read it. */
  advance(ms: number): void;
  /** Replace parts of the `safe` slice (lists, exempt scopes, auto-ban), saved like any config change. */
  setSafe(patch: Partial<SafeConfig>): Promise<void>;
  /** A block-list entry for `value` (address, CIDR or range). */
  block(value: string): Promise<void>;
  /** Waits for the lists' log line `<ip> refused by <scope> (<rule>)` newer than the last mark. */
  refusalLogged(ip: string, scope: string, rule: string): Promise<void>;
  /** Forget the refusal lines seen so far, and move the clock past the lists' once-a-minute log limit. */
  mark(): Promise<void>;
  close(): Promise<void>;
}

/** A console on every address (an outside client reaches the admin listener too), its clock ours. */
export async function startSafeConsole(): Promise<SafeConsole> {
  let now = Date.now();
  const s = await startTestServer({ host: '0.0.0.0', clock: () => now });
  const token = await s.login();
  const call: SafeConsole['call'] = (method, p, body) => s.call(method, p, { token, body });
  let pre: string | undefined;
  const setSafe: SafeConsole['setSafe'] = async (patch) => {
    await s.server.core.store.update((d) => {
      d.safe = safeConfigSchema.parse({ ...d.safe, ...patch });
      return d;
    });
  };
  return {
    s,
    port: s.server.port,
    call,
    advance: (ms) => {
      now += ms;
    },
    setSafe,
    block: (value) =>
      setSafe({
        block: [safeEntrySchema.parse({ key: 'B1', value, comment: 'test', addedAt: new Date().toISOString() })],
      }),
    async refusalLogged(ip, scope, rule) {
      const line = `${ip} refused by ${scope} (${rule})`;
      await waitFor(
        async () => ((await call('GET', `/api/logs${pre ? `?pre=${pre}` : ''}`)).body.logs as { log: string }[]) ?? [],
        (logs) => logs.some((l) => l.log.includes(line)),
        { what: `the log line "${line}"` },
      );
    },
    async mark() {
      const logs = (await call('GET', '/api/logs')).body.logs as { timestamp: string }[];
      pre = logs.at(-1)?.timestamp ?? pre;
      now += 61_000;
    },
    close: () => s.close(),
  };
}

export interface Outside {
  ns: OutsideNamespace;
  agent: Agent;
  close(): void;
}

/** A namespace on `net` with a network agent in it (TCP and UDP probes from the outside address). */
export async function outsideClient(tag: string, net: `198.18.${number}`): Promise<Outside> {
  const ns = outsideNamespace(tag, net);
  try {
    const agent = await startAgent(
      {
        spawn: (where, cmd, args, opts) =>
          spawn('ip', ['netns', 'exec', where, cmd, ...args], { stdio: 'pipe', ...opts }),
      },
      ns.name,
    );
    return {
      ns,
      agent,
      close() {
        agent.stop();
        ns.remove();
      },
    };
  } catch (err) {
    ns.remove();
    throw err;
  }
}
