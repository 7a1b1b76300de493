import { execFile } from 'node:child_process';
import type { Logger } from '../logs/logger.js';

/**
 * Opens the host firewall for the ports rules listen on (the ancestor's "firewall
 * auto-allow"): one `ACCEPT` rule at the top of the INPUT chain of iptables and of
 * ip6tables per opened port, marked with the comment `lucky:<owner>` so that ours
 * can be told from the operator's and removed again — when the rule stops, moves to
 * another port, or at the next start after a crash (`sweep`).
 *
 * Where this cannot work (no iptables, not root, a platform without it) `open`
 * reports why, and the rule serves anyway: the operator opens the port by hand.
 */
export type Proto = 'tcp' | 'udp';

export interface Opening {
  proto: Proto;
  port: number;
}

export type OpenResult = { ok: true } | { ok: false; reason: string };

const TOOLS = ['iptables', 'ip6tables'] as const;
const MARK = 'lucky:';

interface Run {
  code: number;
  stderr: string;
  missing?: boolean;
}

export class HostFirewall {
  /** Openings per owner (e.g. `reverseproxy:<rule key>`). */
  private open = new Map<string, Opening[]>();
  private swept: Promise<void> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * @param prefix command words put in front of every call; tests pass
   *   `['ip', 'netns', 'exec', <ns>]` to work on a namespace of their own.
   */
  constructor(
    private readonly log: Logger,
    private readonly prefix: string[] = [],
  ) {}

  /** Make `owner`'s openings exactly `want` (none: all closed). Serialised: iptables calls never interleave. */
  set(owner: string, want: Opening[]): Promise<OpenResult> {
    const next = this.queue.then(() => this.apply(owner, want));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Close everything this process opened (at shutdown). */
  async closeAll(): Promise<void> {
    for (const owner of [...this.open.keys()]) await this.set(owner, []);
  }

  private async apply(owner: string, want: Opening[]): Promise<OpenResult> {
    this.swept ??= this.sweep();
    await this.swept;
    const had = this.open.get(owner) ?? [];
    const key = (o: Opening) => `${o.proto}/${o.port}`;
    const wanted = new Set(want.map(key));
    for (const o of had) if (!wanted.has(key(o))) await this.remove(owner, o);
    const kept: Opening[] = had.filter((o) => wanted.has(key(o)));
    let failure: string | undefined;
    for (const o of want) {
      if (kept.some((k) => key(k) === key(o))) continue;
      const reason = await this.insert(owner, o);
      if (reason) failure ??= reason;
      else kept.push(o);
    }
    if (kept.length) this.open.set(owner, kept);
    else this.open.delete(owner);
    return failure ? { ok: false, reason: failure } : { ok: true };
  }

  private spec(owner: string, o: Opening): string[] {
    return [
      'INPUT',
      '-p',
      o.proto,
      '--dport',
      String(o.port),
      '-m',
      'comment',
      '--comment',
      MARK + owner,
      '-j',
      'ACCEPT',
    ];
  }

  /** Insert in both families; undefined when done, else why not. */
  private async insert(owner: string, o: Opening): Promise<string | undefined> {
    for (const tool of TOOLS) {
      const exists = await this.run(tool, ['-w', '-C', ...this.spec(owner, o)]);
      if (exists.missing) return `${tool} not found`;
      if (exists.code === 0) continue;
      const r = await this.run(tool, ['-w', '-I', ...this.spec(owner, o)]);
      if (r.code !== 0) return `${tool}: ${r.stderr.trim().split('\n')[0] || `exit ${r.code}`}`;
    }
    this.log.info(`firewall: opened ${o.proto} port ${o.port} (${owner})`);
    return undefined;
  }

  private async remove(owner: string, o: Opening): Promise<void> {
    for (const tool of TOOLS) {
      // Delete every copy (a crash may have left one behind).
      for (let i = 0; i < 16; i++) {
        const r = await this.run(tool, ['-w', '-D', ...this.spec(owner, o)]);
        if (r.code !== 0) break;
      }
    }
    this.log.info(`firewall: closed ${o.proto} port ${o.port} (${owner})`);
  }

  /** Remove what an earlier run left behind (it did not stop cleanly). */
  private async sweep(): Promise<void> {
    for (const tool of TOOLS) {
      const list = await this.run(tool, ['-w', '-S', 'INPUT']);
      if (list.code !== 0) continue;
      for (const line of (list as Run & { stdout: string }).stdout.split('\n')) {
        if (!line.startsWith('-A INPUT ') || !/--comment "?lucky:/.test(line)) continue;
        const args = splitRule(line.slice(3));
        const r = await this.run(tool, ['-w', '-D', ...args]);
        if (r.code === 0) this.log.info(`firewall: removed a stale rule: ${line}`);
      }
    }
  }

  private run(tool: string, args: string[]): Promise<Run & { stdout: string }> {
    const [cmd, ...rest] = [...this.prefix, tool, ...args];
    return new Promise((resolve) => {
      execFile(cmd, rest, { timeout: 15_000 }, (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: string | number }) | null;
        if (e && e.code === 'ENOENT') return resolve({ code: 127, stderr: '', stdout: '', missing: true });
        // Behind a prefix (`ip netns exec`) a missing tool is an exec failure of the prefix.
        const missing = !!e && /exec of .* failed: No such file or directory/.test(String(stderr));
        resolve({
          code: e ? (typeof e.code === 'number' ? e.code : 1) : 0,
          stderr: String(stderr),
          stdout: String(stdout),
          missing,
        });
      });
    });
  }
}

/** Split an `iptables -S` line into words, honouring double quotes. */
export function splitRule(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)) out.push(m[1] !== undefined ? m[1] : m[2]);
  return out;
}
