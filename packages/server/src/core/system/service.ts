// systemd service control for PUT /api/lucky/service?option=…
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

export const SERVICE_OPTIONS = ['install', 'uninstall', 'start', 'stop', 'restart', 'status'] as const;
export type ServiceOption = (typeof SERVICE_OPTIONS)[number];
/** `unsupported`: systemd is not running on this machine (a container, another init): a state, not a failure. */
export type ServiceStatus = 'not-installed' | 'running' | 'stopped' | 'installed' | 'unsupported';
export type ServiceErrorCode = 'unsupported' | 'permission' | 'failed' | 'bad-option';

export type ServiceResult =
  | {
      ok: true;
      status: ServiceStatus;
      msg?: string;
      /**
       * Set after start/restart when this process does not run inside the unit: the unit's
       * instance needs our port, so the caller should answer, then exit this process (not with
       * the restart code) and let systemd's instance take over.
       */
      handover?: boolean;
    }
  | { ok: false; code: ServiceErrorCode; msg: string };

export interface SystemctlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export type SystemctlRunner = (args: string[]) => Promise<SystemctlResult>;

export interface ServiceManagerOptions {
  /** Unit name without `.service`. Default 'lucky'. */
  unitName?: string;
  /** Absolute node binary, entry script and flags, e.g. [process.execPath, '/opt/lucky/packages/server/dist/main.js', '-p', '16601', '-cd', '/opt/lucky/data']. */
  execStart: string[];
  workingDirectory: string;
  /** Default '/etc/systemd/system'. */
  unitDir?: string;
  /** systemctl binary. Default 'systemctl'. */
  systemctl?: string;
  /** Replaces the systemctl runner entirely (tests). */
  runSystemctl?: SystemctlRunner;
  /** sd_booted(3): systemd is PID 1 when this directory exists. Default '/run/systemd/system'. */
  systemdMarker?: string;
  /** Default: effective uid is 0. */
  isRoot?: () => boolean;
  /** Default: /proc/self/cgroup names `<unitName>.service`. */
  runningInUnit?: () => Promise<boolean>;
}

export interface ServiceManager {
  readonly unitPath: string;
  control(option: string): Promise<ServiceResult>;
}

export interface UnitFileOptions {
  description?: string;
  execStart: string[];
  workingDirectory: string;
  /** Default 'control-group' (see the comment in renderUnitFile). */
  killMode?: 'control-group' | 'mixed';
}

/** Rejects characters a unit file line can't carry. */
function checkValue(what: string, v: string): void {
  if (typeof v !== 'string' || /[\0\r\n]/.test(v)) throw new Error(`${what} contains a line break or NUL`);
}

/**
 * One ExecStart word (systemd.service "Command lines"): `%` is a specifier and `$` an
 * environment expansion in every word, so both are doubled; words with spaces, quotes or
 * backslashes are double-quoted with C-style escapes.
 */
export function quoteExecArg(arg: string): string {
  checkValue('ExecStart argument', arg);
  const s = arg.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  if (s !== '' && !/[\s"'\\;]/.test(s)) return s;
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\t/g, '\\t')}"`;
}

/** The lucky.service unit file. Pure; throws on values that can't be written safely. */
export function renderUnitFile(o: UnitFileOptions): string {
  if (o.execStart.length === 0 || !isAbsolute(o.execStart[0])) {
    throw new Error('ExecStart needs an absolute program path first');
  }
  if (!isAbsolute(o.workingDirectory)) throw new Error('WorkingDirectory must be absolute');
  checkValue('WorkingDirectory', o.workingDirectory);
  const description = o.description ?? 'Lucky console';
  checkValue('Description', description);
  // WorkingDirectory takes a plain path (no quoting) but resolves specifiers.
  const wd = o.workingDirectory.replace(/%/g, '%%');
  // The entry process supervises a worker (restarts it on exit code 100, forwards SIGTERM).
  // KillMode=control-group (systemd's default) signals both at once; the supervisor must treat
  // a worker exit during its own shutdown, and worker exit code 0, as "stop", not as a crash.
  return [
    '[Unit]',
    `Description=${description}`,
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `WorkingDirectory=${wd}`,
    `ExecStart=${o.execStart.map(quoteExecArg).join(' ')}`,
    'Restart=on-failure',
    'RestartSec=3',
    `KillMode=${o.killMode ?? 'control-group'}`,
    'TimeoutStopSec=15',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}

function defaultRunner(bin: string): SystemctlRunner {
  return (args) =>
    new Promise((resolve) => {
      execFile(bin, args, { timeout: 60_000, maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: number | string }) | null;
        let code = 0;
        if (e) code = typeof e.code === 'number' ? e.code : -1;
        resolve({ code, stdout: String(stdout), stderr: e && code === -1 ? `${stderr}${e.message}` : String(stderr) });
      });
    });
}

/** Parses `systemctl show -p A -p B` output (KEY=value lines). */
export function parseShow(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1).trim();
  }
  return out;
}

const UNSUPPORTED_MSG =
  'systemd is not running on this machine; start Lucky with your init system or a container restart policy';

export function createServiceManager(options: ServiceManagerOptions): ServiceManager {
  const unitName = options.unitName ?? 'lucky';
  if (!/^[A-Za-z0-9:_.\\-]+$/.test(unitName)) throw new Error(`bad unit name "${unitName}"`);
  const unit = `${unitName}.service`;
  const unitDir = options.unitDir ?? '/etc/systemd/system';
  const unitPath = join(unitDir, unit);
  const run = options.runSystemctl ?? defaultRunner(options.systemctl ?? 'systemctl');
  const marker = options.systemdMarker ?? '/run/systemd/system';
  const isRoot = options.isRoot ?? (() => process.geteuid?.() === 0);
  const runningInUnit =
    options.runningInUnit ??
    (async () => {
      try {
        const cg = await readFile('/proc/self/cgroup', 'utf8');
        return cg.split('\n').some((l) => l.split('/').includes(unit));
      } catch {
        return false;
      }
    });

  const fail = (code: ServiceErrorCode, msg: string): ServiceResult => ({ ok: false, code, msg });
  const why = (r: SystemctlResult) => (r.stderr.trim() || r.stdout.trim() || `exit code ${r.code}`).slice(0, 500);

  async function systemctl(args: string[]): Promise<SystemctlResult & { ok: boolean }> {
    const r = await run(args);
    return { ...r, ok: r.code === 0 };
  }

  async function status(): Promise<ServiceStatus> {
    const r = await run(['show', unit, '-p', 'LoadState', '-p', 'ActiveState', '-p', 'UnitFileState']);
    const p = parseShow(r.stdout);
    if (r.code !== 0 || p.LoadState === undefined) return existsSync(unitPath) ? 'stopped' : 'not-installed';
    if (p.LoadState === 'not-found' && !existsSync(unitPath)) return 'not-installed';
    if (['active', 'activating', 'reloading'].includes(p.ActiveState)) return 'running';
    return 'stopped';
  }

  async function install(): Promise<ServiceResult> {
    let text: string;
    try {
      text = renderUnitFile({ execStart: options.execStart, workingDirectory: options.workingDirectory });
    } catch (e) {
      return fail('failed', `cannot write the unit file: ${(e as Error).message}`);
    }
    const tmp = `${unitPath}.tmp-${process.pid}`;
    try {
      await writeFile(tmp, text, { mode: 0o644 });
      await rename(tmp, unitPath);
    } catch (e) {
      await rm(tmp, { force: true });
      return fail('failed', `cannot write ${unitPath}: ${(e as Error).message}`);
    }
    const reload = await systemctl(['daemon-reload']);
    if (!reload.ok) return fail('failed', `systemctl daemon-reload failed: ${why(reload)}`);
    const enable = await systemctl(['enable', unit]);
    if (!enable.ok) return fail('failed', `systemctl enable ${unit} failed: ${why(enable)}`);
    const st = await status();
    return st === 'running'
      ? { ok: true, status: st, msg: `${unit} updated and enabled` }
      : { ok: true, status: 'installed', msg: `${unit} installed and enabled; it starts at boot, or now with "start"` };
  }

  async function uninstall(): Promise<ServiceResult> {
    if ((await status()) === 'not-installed') return { ok: true, status: 'not-installed' };
    const inUnit = await runningInUnit();
    // Stopping the unit we run in kills us, so do it last and without waiting.
    if (!inUnit) {
      const stop = await systemctl(['stop', unit]);
      if (!stop.ok) return fail('failed', `systemctl stop ${unit} failed: ${why(stop)}`);
    }
    const disable = await systemctl(['disable', unit]);
    if (!disable.ok) return fail('failed', `systemctl disable ${unit} failed: ${why(disable)}`);
    try {
      await rm(unitPath, { force: true });
    } catch (e) {
      return fail('failed', `cannot remove ${unitPath}: ${(e as Error).message}`);
    }
    const reload = await systemctl(['daemon-reload']);
    if (!reload.ok) return fail('failed', `systemctl daemon-reload failed: ${why(reload)}`);
    if (inUnit) {
      await systemctl(['stop', '--no-block', unit]);
      return { ok: true, status: 'not-installed', msg: `${unit} removed; this process stops now` };
    }
    return { ok: true, status: 'not-installed', msg: `${unit} stopped and removed` };
  }

  async function startStop(option: 'start' | 'stop' | 'restart'): Promise<ServiceResult> {
    if ((await status()) === 'not-installed') return fail('failed', `${unit} is not installed`);
    const inUnit = await runningInUnit();
    // Inside the unit, stop/restart terminate this very process: queue the job and return so the
    // caller can still answer the request.
    const args = inUnit && option !== 'start' ? [option, '--no-block', unit] : [option, unit];
    const r = await systemctl(args);
    if (!r.ok) return fail('failed', `systemctl ${option} ${unit} failed: ${why(r)}`);
    if (inUnit && option !== 'start') {
      return { ok: true, status: 'running', msg: `${option} of ${unit} queued; this process stops now` };
    }
    const st = await status();
    if (option !== 'stop' && !inUnit) {
      return {
        ok: true,
        status: st,
        handover: true,
        msg: `${unit} started; this instance must exit so the service can use the port`,
      };
    }
    return { ok: true, status: st };
  }

  return {
    unitPath,
    async control(option: string): Promise<ServiceResult> {
      const opt = option === 'unstall' ? 'uninstall' : option; // the ancestor's spelling
      if (!(SERVICE_OPTIONS as readonly string[]).includes(opt)) {
        return fail('bad-option', `unknown option "${option}"; use ${SERVICE_OPTIONS.join(', ')}`);
      }
      if (!existsSync(marker)) {
        // Asking is not an error: the settings page shows the state quietly; changing it is refused.
        return opt === 'status'
          ? { ok: true, status: 'unsupported', msg: UNSUPPORTED_MSG }
          : fail('unsupported', UNSUPPORTED_MSG);
      }
      if (opt !== 'status' && !isRoot()) {
        return fail(
          'permission',
          'installing and controlling the system service needs root; run Lucky as root or use systemctl yourself',
        );
      }
      try {
        switch (opt as ServiceOption) {
          case 'status':
            return { ok: true, status: await status() };
          case 'install':
            return await install();
          case 'uninstall':
            return await uninstall();
          default:
            return await startStop(opt as 'start' | 'stop' | 'restart');
        }
      } catch (e) {
        return fail('failed', (e as Error).message);
      }
    },
  };
}
