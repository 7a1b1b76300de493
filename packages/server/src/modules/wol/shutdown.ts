// Shutting a device down: a command over SSH (the system's OpenSSH client, the stored key in a
// 0600 file made for the call and removed after it, host keys pinned on first use in the
// module's own known_hosts), or a local command run for another console's agent call.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CodedText } from '@lucky/shared';
import { wolReason } from '@lucky/shared';
import { sshPath } from './checks.js';

export interface CommandResult {
  code: number;
  output: string;
  timedOut: boolean;
}

/** Output kept of a command (its end is what says why it failed). */
const OUTPUT_MAX = 4096;
const tail = (s: string) => (s.length > OUTPUT_MAX ? s.slice(-OUTPUT_MAX) : s);

function run(file: string, args: string[], timeoutMs: number, signal?: AbortSignal): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, signal, maxBuffer: 1024 * 1024 }, (err, stdout, stderr) => {
      const e = err as (NodeJS.ErrnoException & { code?: number | string; killed?: boolean }) | null;
      const output = tail(`${stdout}${stderr}`.trim());
      if (!e) return resolve({ code: 0, output, timedOut: false });
      const code = typeof e.code === 'number' ? e.code : -1;
      resolve({ code, output: output || e.message, timedOut: Boolean(e.killed) });
    });
  });
}

/** `sh -c <command>` on this machine (the agent's shutdown command). */
export function runLocal(command: string, timeoutMs: number, signal?: AbortSignal): Promise<CommandResult> {
  return run('/bin/sh', ['-c', command], timeoutMs, signal);
}

export interface SshTarget {
  host: string;
  port: number;
  user: string;
  privateKey: string;
  command: string;
}

/**
 * Runs the command over SSH; answers the result, or a reason when it failed. The key is written to
 * a private temp file per call (ssh reads keys only from files) and removed afterwards.
 */
export async function sshCommand(
  t: SshTarget,
  knownHosts: string,
  timeoutSec: number,
  signal?: AbortSignal,
): Promise<{ ok: true; output: string } | { ok: false; reason: CodedText; output: string }> {
  const ssh = sshPath();
  if (!ssh) return { ok: false, reason: wolReason('sshUnavailable'), output: '' };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-wol-ssh-'));
  const keyFile = path.join(dir, 'key');
  try {
    const key = t.privateKey.endsWith('\n') ? t.privateKey : `${t.privateKey}\n`;
    await fs.writeFile(keyFile, key, { mode: 0o600 });
    await fs.mkdir(path.dirname(knownHosts), { recursive: true });
    const args = [
      '-i',
      keyFile,
      '-p',
      String(t.port),
      '-o',
      'BatchMode=yes',
      '-o',
      'StrictHostKeyChecking=accept-new',
      '-o',
      `UserKnownHostsFile=${knownHosts}`,
      '-o',
      'IdentitiesOnly=yes',
      '-o',
      `ConnectTimeout=${timeoutSec}`,
      '-F',
      '/dev/null',
      '-l',
      t.user,
      '--',
      t.host,
      t.command,
    ];
    const r = await run(ssh, args, (timeoutSec + 5) * 1000, signal);
    if (r.code === 0) return { ok: true, output: r.output };
    const reason = r.timedOut
      ? wolReason('timeout', { seconds: timeoutSec + 5 })
      : wolReason('sshFailed', { code: r.code, detail: r.output });
    return { ok: false, reason, output: r.output };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
