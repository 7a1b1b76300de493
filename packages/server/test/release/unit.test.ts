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
// refuses what it cannot do safely before touching anything.
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
