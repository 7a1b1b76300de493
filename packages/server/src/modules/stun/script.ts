import { spawn } from 'node:child_process';

/** Output kept from a script (the rest is cut): enough for the log line. */
const OUTPUT_MAX = 4096;
const SCRIPT_TIMEOUT_MS = 30_000;

export interface ScriptRun {
  code: number | null;
  output: string;
  timedOut: boolean;
}

/**
 * Runs the rule's "on change" command with `sh -c`, the addresses in the environment and as
 * arguments (natmap's order: outer ip, outer port, protocol, inner port, inner ip), bounded in
 * time and output. Never through a shell string built from the addresses.
 */
export function runScript(
  command: string,
  vars: { rule: string; protocol: string; innerIp: string; innerPort: number; outerIp: string; outerPort: number },
  signal: AbortSignal,
): Promise<ScriptRun> {
  return new Promise((resolve) => {
    const child = spawn(
      '/bin/sh',
      [
        '-c',
        command,
        'lucky-stun',
        vars.outerIp,
        String(vars.outerPort),
        vars.protocol,
        String(vars.innerPort),
        vars.innerIp,
      ],
      {
        env: {
          ...process.env,
          LUCKY_STUN_RULE: vars.rule,
          LUCKY_STUN_PROTOCOL: vars.protocol,
          LUCKY_STUN_INNER_IP: vars.innerIp,
          LUCKY_STUN_INNER_PORT: String(vars.innerPort),
          LUCKY_STUN_OUTER_IP: vars.outerIp,
          LUCKY_STUN_OUTER_PORT: String(vars.outerPort),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        signal,
        timeout: SCRIPT_TIMEOUT_MS,
        killSignal: 'SIGKILL',
      },
    );
    let output = '';
    const take = (b: Buffer) => {
      if (output.length < OUTPUT_MAX) output += b.toString('utf8').slice(0, OUTPUT_MAX - output.length);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const started = Date.now();
    child.on('error', (err) => {
      if (err.name !== 'AbortError') take(Buffer.from(err.message));
    });
    child.on('close', (code) => {
      resolve({
        code,
        output: output.trim(),
        timedOut: code === null && Date.now() - started >= SCRIPT_TIMEOUT_MS - 50,
      });
    });
  });
}
