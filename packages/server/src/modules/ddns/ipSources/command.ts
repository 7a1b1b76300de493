// The address printed by a shell command (pipes allowed), with a time limit. The command runs
// as the program's user; only the administrator can set it.
import { spawn } from 'node:child_process';
import { ddnsReason } from '@lucky/shared';
import { firstIp } from './extract.js';
import { fail, type IpResult, type IpSourceEnv } from './types.js';

const MAX_OUTPUT = 64 * 1024;

export function ipFromCommand(command: string, family: 4 | 6, env: IpSourceEnv): Promise<IpResult> {
  return new Promise((resolve) => {
    // Own process group, so a time-out also ends what the shell started.
    const child = spawn('/bin/sh', ['-c', command], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let done = false;
    const finish = (r: IpResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      env.signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const failed = (cause: ReturnType<typeof ddnsReason>) => finish(fail('commandFailed', { cause }));
    const timer = setTimeout(() => {
      kill();
      failed(ddnsReason('commandTimeout', { seconds: Math.round(env.timeoutMs / 1000) }));
    }, env.timeoutMs);
    const onAbort = () => {
      kill();
      failed(ddnsReason('checkStopped'));
    };
    env.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => {
      if (out.length < MAX_OUTPUT) out += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < MAX_OUTPUT) err += d.toString('utf8');
    });
    child.on('error', (e) => failed(ddnsReason('commandStartFailed', { detail: e.message })));
    child.on('close', (code, sig) => {
      if (code !== 0) {
        // The end of what the command wrote to stderr says why, in its own words.
        const detail = err.trim().slice(-300);
        const extra = detail ? { detail } : {};
        failed(
          sig
            ? ddnsReason('commandSignal', { signal: sig, ...extra })
            : ddnsReason('commandExit', { exitCode: code, ...extra }),
        );
        return;
      }
      const ip = firstIp(out, family);
      if (ip) finish({ ok: true, ip, from: 'command' });
      else failed(ddnsReason('commandNoAddress', { family }));
    });
  });
}
