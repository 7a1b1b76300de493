import { type ChildProcess, fork } from 'node:child_process';

export const EXIT_RESTART = 100;
export const WORKER_V8_FLAGS = (process.env.LUCKY_V8_FLAGS ?? '--max-semi-space-size=2 --v8-pool-size=1')
  .split(' ')
  .filter(Boolean);
/** The worker could not start for a reason a retry will not fix (port taken, bad flags). */
export const EXIT_FATAL = 3;

export interface SuperviseOptions {
  entry: string;
  args: string[];
  /** Called when a worker dies before saying "ready": the update roll-back hook. */
  onEarlyCrash?: () => Promise<boolean>;
}

/**
 * The parent process: forks the real server and starts a new one when it
 * exits with code 100 (restart from the UI) or crashes (with back-off). The
 * PID the service manager sees stays the same, so it coexists with systemd.
 */
export function supervise(opts: SuperviseOptions): void {
  let child: ChildProcess | undefined;
  let stopping = false;
  let failures = 0;
  let readyTimer: NodeJS.Timeout | undefined;

  const start = () => {
    let ready = false;
    child = fork(opts.entry, opts.args, {
      // Two malloc arenas instead of one per thread: the libuv and V8 helper threads otherwise each
      // keep an arena of freed memory resident (several MB of idle RSS on glibc).
      env: { MALLOC_ARENA_MAX: '2', ...process.env, LUCKY_WORKER: '1' },
      // A small young generation and one V8 helper thread: a home router or NAS
      // has little RAM, and the data planes stream buffers that die young anyway.
      // (Measured: 16 MB would make HTTP/2 through the web service ~+35 % faster but leaves
      // idle RSS at 86 MB, over the 80 MB budget; bench/reverseproxy.mjs runs with these flags.)
      execArgv: [...WORKER_V8_FLAGS, ...process.execArgv],
      stdio: 'inherit',
    });
    child.on('message', (m: { type?: string }) => {
      if (m?.type !== 'ready') return;
      ready = true;
      // A worker that stays up a minute resets the crash back-off.
      readyTimer = setTimeout(() => {
        failures = 0;
      }, 60_000);
    });
    child.on('exit', async (code, signal) => {
      clearTimeout(readyTimer);
      child = undefined;
      if (stopping) return process.exit(0);
      if (code === EXIT_RESTART) return start();
      if (code === EXIT_FATAL) return process.exit(EXIT_FATAL);
      if (code === 0 && !signal) return process.exit(0);
      if (!ready && opts.onEarlyCrash && (await opts.onEarlyCrash())) return start();
      failures++;
      const delay = Math.min(30_000, 1000 * 2 ** Math.min(failures - 1, 5));
      process.stderr.write(`lucky: server exited (${signal ?? `code ${code}`}); starting again in ${delay / 1000} s\n`);
      setTimeout(start, delay);
    });
  };

  const stop = (sig: NodeJS.Signals) => {
    stopping = true;
    if (!child) process.exit(0);
    child.kill(sig);
    // Never hang a service manager: give the worker 10 s.
    setTimeout(() => {
      child?.kill('SIGKILL');
      process.exit(1);
    }, 10_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  start();
}
