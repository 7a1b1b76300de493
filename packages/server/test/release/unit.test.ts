import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderUnitFile } from '../../src/core/system/service.js';
import { INSTALL_ROOT } from '../../src/core/version.js';
import { tempDir } from '../harness.js';

// install.sh without a built archive: the systemd unit it writes is the one the console's own
// service control renders for the same command line (so either can rewrite the other's), and it
// refuses what it cannot do safely before touching anything. Its systemd branch runs against a
// recording `systemctl` first in PATH, with the "systemd is running" directory and the unit
// directory moved into temp dirs by the script's two test variables (nothing else is faked: the
// script decides, writes and calls exactly as on a systemd machine).
const run = promisify(execFile);
const SCRIPT = path.join(INSTALL_ROOT, 'scripts/release/install.sh');
const ARCH = process.arch === 'arm64' ? 'arm64' : 'x64';
let tmp: string;

const sh = (script: string, ...args: string[]) =>
  run('sh', [script, ...args], { env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' } });
/** The failure's stderr, or a failure of the test when the script succeeded. */
const refusal = (script: string, ...args: string[]) =>
  sh(script, ...args).then(
    (r) => {
      throw new Error(`install.sh ${args.join(' ')} succeeded: ${r.stdout}`);
    },
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );

/** A stand-in release beside a copy of install.sh: the files it checks for, no real program. */
async function fakeRelease(): Promise<string> {
  const dir = path.join(tmp, 'release');
  await fs.mkdir(path.join(dir, 'app/packages/server/dist'), { recursive: true });
  await fs.mkdir(path.join(dir, 'node/bin'), { recursive: true });
  await fs.mkdir(path.join(dir, 'bin'), { recursive: true });
  await fs.writeFile(path.join(dir, 'app/packages/server/dist/main.js'), '');
  await fs.writeFile(path.join(dir, 'node/bin/node'), '#!/bin/sh\n', { mode: 0o755 });
  await fs.writeFile(path.join(dir, 'bin/lucky'), '#!/bin/sh\n', { mode: 0o755 });
  await fs.writeFile(path.join(dir, 'README.txt'), 'readme\n');
  await fs.writeFile(path.join(dir, 'release.txt'), `version=9.9.9\narch=${ARCH}\nnode=24.21.0\n`);
  await fs.copyFile(SCRIPT, path.join(dir, 'install.sh'));
  return path.join(dir, 'install.sh');
}

beforeAll(async () => {
  tmp = await tempDir('lucky-install-sh-');
});
afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

describe('install.sh', () => {
  it('writes the systemd unit service.ts renders for the same command line', async () => {
    for (const port of [undefined, '18000']) {
      const prefix = '/opt/lucky-console';
      const configDir = '/var/lib/lucky-console';
      const portArgs = port ? ['--port', port] : [];
      const { stdout } = await sh(SCRIPT, '--print-unit', '--prefix', prefix, ...portArgs);
      const expected = renderUnitFile({
        execStart: [
          `${prefix}/node/bin/node`,
          `${prefix}/app/packages/server/dist/main.js`,
          ...(port ? ['-p', port] : []),
          '-cd',
          configDir,
        ],
        workingDirectory: `${prefix}/app`,
      });
      expect(stdout).toBe(expected);
    }
  });

  it('refuses bad options and paths a unit line would need quoting for', async () => {
    expect((await refusal(SCRIPT, '--purge')).stderr).toContain('--purge goes with --uninstall');
    expect((await refusal(SCRIPT, '--port', '70000', '--print-unit')).stderr).toContain('is not a port');
    expect((await refusal(SCRIPT, '--frobnicate')).stderr).toContain('unknown option --frobnicate');
    const spaced = await refusal(SCRIPT, '--prefix', '/opt/my lucky', '--print-unit');
    expect(spaced.stderr).toContain('--prefix "/opt/my lucky"');
    expect((await refusal(SCRIPT, '--config-dir', '/var/lib/$x', '--print-unit')).stderr).toContain('--config-dir');
  });

  it('never installs over, nor uninstalls, a folder it did not install', async () => {
    const script = await fakeRelease();
    const foreign = path.join(tmp, 'foreign');
    await fs.mkdir(foreign);
    await fs.writeFile(path.join(foreign, 'mine.txt'), 'keep');
    const over = await refusal(script, '--prefix', foreign, '--config-dir', path.join(tmp, 'cfg'), '--no-systemd');
    expect(over.stderr).toContain('is not empty and holds no Lucky console install');
    const away = await refusal(script, '--uninstall', '--prefix', foreign);
    expect(away.stderr).toContain('holds no Lucky console installed by this script');
    expect(await fs.readdir(foreign)).toEqual(['mine.txt']);
    await expect(fs.stat(path.join(tmp, 'cfg'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('an archive for another CPU is refused', async () => {
    const script = await fakeRelease();
    const other = ARCH === 'x64' ? 'arm64' : 'x64';
    await fs.writeFile(path.join(path.dirname(script), 'release.txt'), `version=9.9.9\narch=${other}\nnode=24.21.0\n`);
    const r = await refusal(
      script,
      '--prefix',
      path.join(tmp, 'p'),
      '--config-dir',
      path.join(tmp, 'c'),
      '--no-systemd',
    );
    expect(r.stderr).toContain(`this archive is for linux-${other}`);
    await expect(fs.stat(path.join(tmp, 'p'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('--uninstall --purge removes the program and the config dir it recorded', async () => {
    const script = await fakeRelease();
    const prefix = path.join(tmp, 'purge-prefix');
    const configDir = path.join(tmp, 'purge-config');
    await sh(script, '--prefix', prefix, '--config-dir', configDir, '--no-systemd');
    await fs.writeFile(path.join(configDir, 'lucky.json'), '{}');
    const { stdout } = await sh(path.join(prefix, 'install.sh'), '--uninstall', '--purge', '--prefix', prefix);
    expect(stdout).toContain(`removed the config dir ${configDir}`);
    await expect(fs.stat(prefix)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.stat(configDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

/**
 * A machine with systemd for install.sh: a temp "systemd is running" directory and unit directory,
 * and a `systemctl` that records each call (with whether the unit file existed at that moment) and
 * fails the verb named in SYSTEMCTL_FAIL.
 */
async function systemdMachine(name: string) {
  const root = path.join(tmp, name);
  const runDir = path.join(root, 'run-systemd-system');
  const unitDir = path.join(root, 'etc-systemd-system');
  const bin = path.join(root, 'bin');
  const log = path.join(root, 'systemctl.log');
  for (const d of [runDir, unitDir, bin]) await fs.mkdir(d, { recursive: true });
  const unitFile = path.join(unitDir, 'lucky.service');
  await fs.writeFile(
    path.join(bin, 'systemctl'),
    [
      '#!/bin/sh',
      `if [ -f '${unitFile}' ]; then unit=unit; else unit=no-unit; fi`,
      `printf '%s [%s]\\n' "$*" "$unit" >>'${log}'`,
      'if [ "$1" = "$SYSTEMCTL_FAIL" ]; then echo "systemctl: $1 refused" >&2; exit 1; fi',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const env = (fail?: string) => ({
    PATH: `${bin}:/usr/sbin:/usr/bin:/sbin:/bin`,
    LC_ALL: 'C',
    LUCKY_INSTALL_SYSTEMD_RUN_DIR: runDir,
    LUCKY_INSTALL_UNIT_DIR: unitDir,
    ...(fail ? { SYSTEMCTL_FAIL: fail } : {}),
  });
  return {
    runDir,
    unitFile,
    run: (script: string, args: string[], fail?: string) => run('sh', [script, ...args], { env: env(fail) }),
    /** The calls since the last look, one line each: the arguments and [unit] / [no-unit]. */
    calls: async () => {
      const text = await fs.readFile(log, 'utf8').catch(() => '');
      await fs.rm(log, { force: true });
      return text.split('\n').filter(Boolean);
    },
  };
}

describe('install.sh with systemd', () => {
  it('writes the unit, then daemon-reload, enable, restart; again gives the same; uninstall stops, disables, removes, reloads', async () => {
    const script = await fakeRelease();
    const m = await systemdMachine('sd');
    const prefix = path.join(tmp, 'sd-prefix');
    const configDir = path.join(tmp, 'sd-config');
    const args = ['--prefix', prefix, '--config-dir', configDir, '--port', '18000'];
    const expected = renderUnitFile({
      execStart: [
        `${prefix}/node/bin/node`,
        `${prefix}/app/packages/server/dist/main.js`,
        '-p',
        '18000',
        '-cd',
        configDir,
      ],
      workingDirectory: `${prefix}/app`,
    });
    const installCalls = ['daemon-reload [unit]', 'enable lucky.service [unit]', 'restart lucky.service [unit]'];

    const first = await m.run(script, args);
    expect(await fs.readFile(m.unitFile, 'utf8')).toBe(expected);
    expect(await m.calls()).toEqual(installCalls);
    expect(first.stdout).toContain('started the systemd service lucky.service');
    expect(await fs.readFile(path.join(prefix, '.lucky-console'), 'utf8')).toContain('systemd=yes\n');
    expect(await fs.readdir(path.dirname(m.unitFile))).toEqual(['lucky.service']);

    // The same archive installed again with the same options: the same unit, the same calls.
    const again = await m.run(script, args);
    expect(again.stdout).toContain('installed the Lucky console 9.9.9');
    expect(await fs.readFile(m.unitFile, 'utf8')).toBe(expected);
    expect(await m.calls()).toEqual(installCalls);
    expect(await fs.readdir(path.dirname(m.unitFile))).toEqual(['lucky.service']);

    // `disable --now` is the stop and the disable in one call.
    const gone = await m.run(path.join(prefix, 'install.sh'), ['--uninstall', '--prefix', prefix]);
    expect(await m.calls()).toEqual(['disable --now lucky.service [unit]', 'daemon-reload [no-unit]']);
    expect(gone.stdout).toContain(`removed the systemd unit ${m.unitFile}`);
    await expect(fs.stat(m.unitFile)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fs.stat(prefix)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await fs.stat(configDir)).isDirectory()).toBe(true);
  });

  it('without the "systemd is running" directory, or with --no-systemd, no unit and no systemctl call', async () => {
    const script = await fakeRelease();
    const m = await systemdMachine('no-sd');
    const withNo = await m.run(script, [
      '--prefix',
      path.join(tmp, 'no-sd-1'),
      '--config-dir',
      path.join(tmp, 'no-sd-c1'),
      '--no-systemd',
    ]);
    expect(withNo.stdout).toContain('start it with:');
    await fs.rmdir(m.runDir);
    const notBooted = await m.run(script, [
      '--prefix',
      path.join(tmp, 'no-sd-2'),
      '--config-dir',
      path.join(tmp, 'no-sd-c2'),
    ]);
    expect(notBooted.stdout).toContain('start it with:');
    expect(await fs.readFile(path.join(tmp, 'no-sd-2/.lucky-console'), 'utf8')).toContain('systemd=no\n');
    expect(await m.calls()).toEqual([]);
    await expect(fs.stat(m.unitFile)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a failing systemctl is named and the script exits non-zero', async () => {
    const script = await fakeRelease();
    const m = await systemdMachine('sd-fail');
    const cases = [
      { verb: 'daemon-reload', says: 'systemctl daemon-reload failed', calls: ['daemon-reload [unit]'] },
      {
        verb: 'enable',
        says: 'systemctl enable lucky.service failed',
        calls: ['daemon-reload [unit]', 'enable lucky.service [unit]'],
      },
      {
        verb: 'restart',
        says: 'systemctl restart lucky.service failed (see: journalctl -u lucky)',
        calls: ['daemon-reload [unit]', 'enable lucky.service [unit]', 'restart lucky.service [unit]'],
      },
    ];
    for (const c of cases) {
      const args = ['--prefix', path.join(tmp, `fail-${c.verb}`), '--config-dir', path.join(tmp, `fail-c-${c.verb}`)];
      const r = await m.run(script, args, c.verb).then(
        (ok) => {
          throw new Error(`install.sh succeeded with a failing systemctl ${c.verb}: ${ok.stdout}`);
        },
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`install.sh: ${c.says}`);
      expect(r.stdout).not.toContain('started the systemd service');
      expect(await m.calls()).toEqual(c.calls);
    }
  });
});
