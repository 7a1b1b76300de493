// The real FTP clients of the tests (Debian lftp and curl), run as child processes with a time
// limit, their output and exit code returned whatever happened.
import { execFile, spawn } from 'node:child_process';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function runTool(cmd: string, args: string[], opts: { timeoutMs?: number; input?: string } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      cmd,
      args,
      { timeout: opts.timeoutMs ?? 60_000, maxBuffer: 64 << 20, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : -1
          : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

export interface LftpOptions {
  port: number;
  user: string;
  password: string;
  /** FTPS: AUTH TLS and PROT P required, the server checked against this CA file. */
  caFile?: string;
  /** `set` lines before the commands. */
  settings?: string[];
}

/** lftp with the given commands (`;`-joined), failing on the first command that fails. */
export function lftp(o: LftpOptions, commands: string[], timeoutMs = 60_000): Promise<Run> {
  const tls = o.caFile
    ? [
        'set ftp:ssl-force true',
        'set ftp:ssl-protect-data true',
        'set ftp:ssl-protect-list true',
        `set ssl:ca-file ${o.caFile}`,
        'set ssl:verify-certificate true',
      ]
    : ['set ftp:ssl-allow false'];
  const script = [
    'set cmd:fail-exit true',
    'set net:max-retries 1',
    'set net:reconnect-interval-base 1',
    'set net:timeout 15',
    'set xfer:clobber true',
    ...tls,
    ...(o.settings ?? []),
    `open -u ${o.user},${o.password} -p ${o.port} 127.0.0.1`,
    ...commands,
  ].join('; ');
  return runTool('lftp', ['-c', script], { timeoutMs });
}

/** curl with FTP options; the URL is built from the path (`/files/a.txt`). */
export function curl(
  o: { port: number; user: string; password: string; caFile?: string },
  path: string,
  args: string[] = [],
  timeoutMs = 60_000,
): Promise<Run> {
  const tls = o.caFile ? ['--ssl-reqd', '--cacert', o.caFile] : [];
  const url = `ftp://127.0.0.1:${o.port}${path}`;
  return runTool('curl', ['-sS', '--user', `${o.user}:${o.password}`, ...tls, ...args, url], { timeoutMs });
}

/** A child process to kill part-way (an interrupted transfer). */
export function spawnTool(cmd: string, args: string[]) {
  const child = spawn(cmd, args, { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    stderr += d;
  });
  const done = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return { child, done, stderr: () => stderr };
}
