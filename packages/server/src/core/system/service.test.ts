import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceManager, parseShow, quoteExecArg, renderUnitFile } from './service.js';

describe('renderUnitFile', () => {
  it('renders the unit', () => {
    const text = renderUnitFile({
      execStart: ['/usr/bin/node', '/opt/lucky/packages/server/dist/main.js', '-p', '16601', '-cd', '/opt/lucky/data'],
      workingDirectory: '/opt/lucky',
    });
    expect(text).toBe(`[Unit]
Description=Lucky console
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
WorkingDirectory=/opt/lucky
ExecStart=/usr/bin/node /opt/lucky/packages/server/dist/main.js -p 16601 -cd /opt/lucky/data
Restart=on-failure
RestartSec=3
KillMode=control-group
TimeoutStopSec=15

[Install]
WantedBy=multi-user.target
`);
  });
  it('quotes and escapes arguments', () => {
    expect(quoteExecArg('/a b/c')).toBe('"/a b/c"');
    expect(quoteExecArg('50%')).toBe('50%%');
    expect(quoteExecArg('$HOME')).toBe('$$HOME');
    expect(quoteExecArg('say "hi"')).toBe('"say \\"hi\\""');
    expect(quoteExecArg('a\\b')).toBe('"a\\\\b"');
    expect(quoteExecArg('')).toBe('""');
    expect(quoteExecArg(';')).toBe('";"');
    expect(quoteExecArg("it's")).toBe('"it\'s"');
    const text = renderUnitFile({
      execStart: ['/usr/bin/node', '/srv/my lucky/main.js', '-cd', '/srv/100% data'],
      workingDirectory: '/srv/my lucky%',
    });
    expect(text).toContain('ExecStart=/usr/bin/node "/srv/my lucky/main.js" -cd "/srv/100%% data"\n');
    expect(text).toContain('WorkingDirectory=/srv/my lucky%%\n');
    expect(renderUnitFile({ execStart: ['/n'], workingDirectory: '/', killMode: 'mixed' })).toContain(
      'KillMode=mixed\n',
    );
  });
  it('refuses unsafe values', () => {
    expect(() => renderUnitFile({ execStart: ['node', 'main.js'], workingDirectory: '/x' })).toThrow(/absolute/);
    expect(() => renderUnitFile({ execStart: [], workingDirectory: '/x' })).toThrow(/absolute/);
    expect(() => renderUnitFile({ execStart: ['/n'], workingDirectory: 'rel' })).toThrow(/absolute/);
    expect(() => renderUnitFile({ execStart: ['/n', 'a\nExecStartPre=/bin/evil'], workingDirectory: '/x' })).toThrow(
      /line break/,
    );
    expect(() => renderUnitFile({ execStart: ['/n'], workingDirectory: '/x\n[Service]' })).toThrow(/line break/);
  });
  it('parseShow', () => {
    expect(parseShow('LoadState=loaded\nActiveState=active\nUnitFileState=enabled\n')).toEqual({
      LoadState: 'loaded',
      ActiveState: 'active',
      UnitFileState: 'enabled',
    });
  });
});

const noSystemd = !existsSync('/run/systemd/system');

describe('on this machine', () => {
  it.skipIf(!noSystemd)('reports unsupported where systemd is not running', async () => {
    const m = createServiceManager({ execStart: [process.execPath, '/x/main.js'], workingDirectory: '/x' });
    // The status is a state to show, not a failure; every change is refused with the reason.
    expect(await m.control('status')).toEqual({
      ok: true,
      status: 'unsupported',
      msg: 'systemd is not running on this machine; start Lucky with your init system or a container restart policy',
    });
    for (const opt of ['install', 'start', 'uninstall']) {
      const r = await m.control(opt);
      expect(r).toEqual({
        ok: false,
        code: 'unsupported',
        msg: 'systemd is not running on this machine; start Lucky with your init system or a container restart policy',
      });
    }
    expect(existsSync('/etc/systemd/system/lucky.service')).toBe(false);
  });
  it('rejects unknown options first', async () => {
    const m = createServiceManager({ execStart: [process.execPath, '/x/main.js'], workingDirectory: '/x' });
    const r = await m.control('reboot');
    expect(r).toMatchObject({ ok: false, code: 'bad-option' });
  });
});

describe('with a fake systemctl', () => {
  let dir: string;
  let unitDir: string;
  let state: string;
  let marker: string;
  let script: string;
  let log: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lucky-svc-'));
    unitDir = join(dir, 'units');
    state = join(dir, 'state');
    marker = join(dir, 'run-systemd-system');
    log = join(dir, 'calls.log');
    for (const d of [unitDir, state, marker]) mkdirSync(d);
    script = join(dir, 'systemctl');
    writeFileSync(
      script,
      `#!/bin/sh
echo "$*" >> '${log}'
S='${state}'
U='${unitDir}/lucky.service'
if [ -f "$S/fail-$1" ]; then echo "Failed to $1 lucky.service: Access denied" >&2; exit 1; fi
case "$1" in
  show)
    if [ -f "$S/loaded" ]; then echo LoadState=loaded; else echo LoadState=not-found; fi
    if [ -f "$S/active" ]; then echo ActiveState=active; else echo ActiveState=inactive; fi
    if [ -f "$S/enabled" ]; then echo UnitFileState=enabled; else echo UnitFileState=disabled; fi ;;
  daemon-reload) if [ -f "$U" ]; then touch "$S/loaded"; else rm -f "$S/loaded"; fi ;;
  enable) touch "$S/enabled" ;;
  disable) rm -f "$S/enabled" ;;
  start|restart) [ -f "$S/loaded" ] || { echo "Unit lucky.service not found." >&2; exit 5; }; touch "$S/active" ;;
  stop) rm -f "$S/active" ;;
  *) echo "unknown command $1" >&2; exit 1 ;;
esac
`,
    );
    chmodSync(script, 0o755);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const make = (extra: Partial<Parameters<typeof createServiceManager>[0]> = {}) =>
    createServiceManager({
      execStart: [process.execPath, '/opt/lucky/packages/server/dist/main.js', '-p', '16601', '-cd', '/opt/lucky/data'],
      workingDirectory: '/opt/lucky',
      unitDir,
      systemctl: script,
      systemdMarker: marker,
      isRoot: () => true,
      runningInUnit: async () => false,
      ...extra,
    });
  const calls = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);

  it('install → status → start → stop → restart → uninstall', async () => {
    const m = make();
    expect(m.unitPath).toBe(join(unitDir, 'lucky.service'));
    expect(await m.control('status')).toEqual({ ok: true, status: 'not-installed' });

    const inst = await m.control('install');
    expect(inst).toMatchObject({ ok: true, status: 'installed' });
    const unitFile = join(unitDir, 'lucky.service');
    expect(readFileSync(unitFile, 'utf8')).toContain(
      `ExecStart=${process.execPath} /opt/lucky/packages/server/dist/main.js -p 16601 -cd /opt/lucky/data`,
    );
    expect(statSync(unitFile).mode & 0o777).toBe(0o644);
    expect(calls()).toContain('daemon-reload');
    expect(calls()).toContain('enable lucky.service');
    expect(await m.control('status')).toEqual({ ok: true, status: 'stopped' });

    const start = await m.control('start');
    expect(start).toMatchObject({ ok: true, status: 'running', handover: true });
    expect(await m.control('status')).toEqual({ ok: true, status: 'running' });

    expect(await m.control('stop')).toEqual({ ok: true, status: 'stopped' });
    expect(await m.control('restart')).toMatchObject({ ok: true, status: 'running', handover: true });

    // installing again rewrites the file and keeps it running
    expect(await m.control('install')).toMatchObject({ ok: true, status: 'running' });

    const un = await m.control('uninstall');
    expect(un).toMatchObject({ ok: true, status: 'not-installed' });
    expect(existsSync(unitFile)).toBe(false);
    const c = calls();
    const tail = c.slice(c.lastIndexOf('stop lucky.service'));
    expect(tail.filter((x) => !x.startsWith('show'))).toEqual([
      'stop lucky.service',
      'disable lucky.service',
      'daemon-reload',
    ]);
    expect(await m.control('status')).toEqual({ ok: true, status: 'not-installed' });
    // uninstall again is harmless
    expect(await m.control('unstall')).toEqual({ ok: true, status: 'not-installed' });
  });

  it('start before install fails clearly', async () => {
    const r = await make().control('start');
    expect(r).toMatchObject({ ok: false, code: 'failed', msg: 'lucky.service is not installed' });
  });

  it('inside the unit: stop/restart do not wait, uninstall stops last', async () => {
    const m = make({ runningInUnit: async () => true });
    await m.control('install');
    await m.control('start');
    const r = await m.control('restart');
    expect(r).toMatchObject({ ok: true, status: 'running' });
    expect(r.ok && r.handover).toBeFalsy();
    expect(calls()).toContain('restart --no-block lucky.service');
    const un = await m.control('uninstall');
    expect(un).toMatchObject({ ok: true, status: 'not-installed' });
    const c = calls().filter((x) => !x.startsWith('show'));
    expect(c.slice(-3)).toEqual(['disable lucky.service', 'daemon-reload', 'stop --no-block lucky.service']);
  });

  it('systemctl errors surface as failed with the reason', async () => {
    writeFileSync(join(state, 'fail-enable'), '');
    const r = await make().control('install');
    expect(r).toEqual({
      ok: false,
      code: 'failed',
      msg: 'systemctl enable lucky.service failed: Failed to enable lucky.service: Access denied',
    });
  });

  it('a missing systemctl binary is a failure, not a crash', async () => {
    const m = make({ systemctl: join(dir, 'no-such-systemctl') });
    const r = await m.control('install');
    expect(r).toMatchObject({ ok: false, code: 'failed' });
    expect(!r.ok && r.msg).toMatch(/daemon-reload failed: .*ENOENT/);
  });

  it('not root → permission for changes, status still answers', async () => {
    const m = make({ isRoot: () => false });
    for (const opt of ['install', 'uninstall', 'start', 'stop', 'restart']) {
      expect(await m.control(opt)).toMatchObject({ ok: false, code: 'permission' });
    }
    expect(await m.control('status')).toEqual({ ok: true, status: 'not-installed' });
    expect(existsSync(join(unitDir, 'lucky.service'))).toBe(false);
  });

  it('no systemd marker → unsupported', async () => {
    const m = make({ systemdMarker: join(dir, 'absent') });
    expect(await m.control('install')).toMatchObject({ ok: false, code: 'unsupported' });
    expect(await m.control('status')).toMatchObject({ ok: true, status: 'unsupported' });
    expect(calls()).toEqual([]);
  });

  it('custom unit name and bad names', () => {
    expect(make({ unitName: 'lucky-test' }).unitPath).toBe(join(unitDir, 'lucky-test.service'));
    expect(() => make({ unitName: '../evil' })).toThrow(/bad unit name/);
  });
});
