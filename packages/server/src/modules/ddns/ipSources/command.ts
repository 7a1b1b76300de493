// The address printed by a shell command (pipes allowed), with a time limit. The command runs
// as the program's user; only the administrator can set it.
import { spawn } from 'node:child_process';
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
    const timer = setTimeout(() => {
      kill();
      finish(fail('commandFailed', `no result within ${Math.round(env.timeoutMs / 1000)} s`));
    }, env.timeoutMs);
    const onAbort = () => {
      kill();
      finish(fail('commandFailed', 'stopped'));
    };
    env.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => {
      if (out.length < MAX_OUTPUT) out += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < MAX_OUTPUT) err += d.toString('utf8');
    });
    child.on('error', (e) => finish(fail('commandFailed', e.message)));
    child.on('close', (code, sig) => {
      if (code !== 0) {
        const why = sig ? `killed by ${sig}` : `exit code ${code}`;
        finish(fail('commandFailed', `${why}${err.trim() ? `: ${err.trim().slice(-300)}` : ''}`));
        return;
      }
      const ip = firstIp(out, family);
      finish(ip ? { ok: true, ip, from: 'command' } : fail('commandFailed', `no IPv${family} address in the output`));
    });
  });
}
