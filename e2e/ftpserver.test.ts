// The FTP server's screen against the built program, with curl as the FTP client on loopback (no
// traffic leaves the box). Storage management's API makes a local storage first and the store gets
// a self-signed certificate; then, in the browser: the settings (a passive range over the control
// port is refused beside the field, then port, address and range are saved), the module switched
// on, a mount and a user added through their dialogs, and the status says it listens. curl logs in
// over plain FTP and FTPS, lists, downloads and uploads; a session held open shows in the sessions
// list and is closed from there; the log shows the logins in Chinese. Screenshots in both
// languages, dark and at phone width.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FtpTestClient } from '../packages/server/test/ftp-client.js';
import { waitFor } from '../packages/server/test/wait.js';
import {
  apiLogin,
  callApi,
  en,
  freePort,
  launchBrowser,
  newPage,
  type Program,
  selfSignedCert,
  shot,
  startProgram,
  zh,
} from './harness.js';

const run = promisify(execFile);

let browser: Browser;
let program: Program;
let token: string;
let dir: string;
let data: string;
let storageKey: string;
let ftpPort: number;
let passive: { min: number; max: number };
const PASSWORD = 'alice-pw-1';
const pages: Page[] = [];

const api = (method: string, p: string, body?: unknown) => callApi(program.base, token, method, p, body);

/** A free TCP port on loopback whose next `count - 1` ports are free too (the passive range). */
async function freeRange(count: number): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
  for (;;) {
    const base = await freePort();
    if (base + count > 65535) continue;
    let ok = true;
    for (let p = base + 1; ok && p < base + count; p++) ok = await free(p);
    if (ok) return base;
  }
}

/** curl with a time limit; the FTP URL on the console's FTP port. */
const curl = async (args: string[]) =>
  (await run('curl', ['-sS', '--max-time', '20', '-u', `alice:${PASSWORD}`, ...args], { encoding: 'utf8' })).stdout;
const ftpUrl = (p = '/') => `ftp://127.0.0.1:${ftpPort}${p}`;

beforeAll(async () => {
  [browser, program] = await Promise.all([launchBrowser(), startProgram()]);
  token = await apiLogin(program.base);
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-e2e-ftp-'));
  data = path.join(dir, 'data');
  await fs.mkdir(data);
  await fs.writeFile(path.join(data, 'hello.txt'), 'hello from the box\n');
  // A certificate in the store: explicit TLS has something to present.
  const pair = selfSignedCert(dir, { cn: 'localhost', san: 'DNS:localhost,IP:127.0.0.1' });
  const b64 = async (f: string) => (await fs.readFile(f)).toString('base64');
  expect(
    (await api('POST', '/api/ssl', { CertBase64: await b64(pair.cert), KeyBase64: await b64(pair.key) })).ret,
  ).toBe(0);
  const made = await api('POST', '/api/storagemanagement/storages', {
    name: 'NAS disk',
    kind: 'local',
    local: { path: data },
  });
  expect(made.ret).toBe(0);
  storageKey = made.storage.key;
  ftpPort = await freePort();
  const base = await freeRange(5);
  passive = { min: base, max: base + 4 };
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await program?.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.context().close();
});

async function open(width = 1300, height = 900): Promise<Page> {
  const { page } = await newPage(browser, width, height);
  pages.push(page);
  await page.goto(`${program.base}/#/login`);
  await page.getByTestId('login-screen').waitFor();
  await page.getByPlaceholder(zh.login.accountPlaceholder).fill('666');
  await page.getByPlaceholder(zh.login.passwordPlaceholder).fill('666');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/#\/status/);
  return page;
}

/** The form item (label, control, message) around a control. */
const itemOf = (page: Page, testId: string) => page.locator('.ant-form-item').filter({ has: page.getByTestId(testId) });

const filled = (text: string, vars: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k) => String(vars[k]));

describe('FTP server screen', () => {
  it('is set up through the screen, and curl logs in, lists, downloads and uploads', { timeout: 150_000 }, async () => {
    const page = await open();
    await page.getByTestId('side-menu').getByText(zh.menu.ftpserver, { exact: true }).click();
    await page.waitForURL(/#\/ftpserver/);
    await page.getByTestId('ftpserver-screen').waitFor();
    // Off by default: a file server listens only when the owner says so.
    await page.getByTestId('ftp-module-disabled').waitFor();

    // Settings: a passive range over the control port is refused beside the range, nothing sent.
    await page.getByTestId('ftp-open-settings').click();
    const form = page.getByTestId('ftp-settings-form');
    await form.waitFor();
    await page.getByTestId('ftp-settings-port').fill(String(passive.min + 2));
    await page.getByTestId('ftp-settings-passive-min').fill(String(passive.min));
    await page.getByTestId('ftp-settings-passive-max').fill(String(passive.max));
    await page.getByTestId('ftp-settings-save').click();
    const refusal = filled(zh.ftpserver.err_passiveHoldsControl, { ...passive, port: passive.min + 2 });
    await itemOf(page, 'ftp-settings-passive-min').getByText(refusal).waitFor();
    await shot(page, 'ftpserver-settings-refused-1300-zh', { fullPage: false });
    await page.getByTestId('ftp-settings-port').fill(String(ftpPort));
    await page.getByTestId('ftp-settings-address').locator('input').fill('127.0.0.1');
    await page.getByTestId('ftp-settings-save').click();
    await form.waitFor({ state: 'detached' });
    const stored = (await api('GET', '/api/ftpserver/settings')).settings;
    expect(stored).toMatchObject({
      enabled: false,
      port: ftpPort,
      address: '127.0.0.1',
      passive: { portMin: passive.min, portMax: passive.max },
      tls: { mode: 'explicit' },
      lanOnly: true,
    });

    // On: it listens where it was told, TLS offered with the stored certificate.
    await page.getByTestId('ftp-module-switch').click();
    await page.getByTestId('ftp-status-listening').getByText(zh.ftpserver.listening).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('ftp-status-listen').textContent()).toContain(`127.0.0.1:${ftpPort}`);
    expect(await page.getByTestId('ftp-status-tls').textContent()).toBe(`TLS${zh.ftpserver.tlsMode_explicit}`);

    // A mount of the local storage, through its dialog.
    await page.getByTestId('ftp-add-mount').click();
    const mountForm = page.getByTestId('ftp-mount-form');
    await mountForm.waitFor();
    await page.getByTestId('ftp-mount-name').fill('share');
    await page.getByTestId('ftp-mount-storage').click();
    await page.locator('.ant-select-item-option[title="NAS disk"]').click();
    await page.getByTestId('ftp-mount-save').click();
    await mountForm.waitFor({ state: 'detached' });
    const mount = (await api('GET', '/api/ftpserver/mounts')).list[0];
    expect(mount).toMatchObject({ name: 'share', storage: storageKey, available: true });
    await page.getByTestId(`ftp-mount-name-${mount.key}`).waitFor();

    // A user with read-write access to it.
    await page.getByTestId('ftp-add-user').click();
    const userForm = page.getByTestId('ftp-user-form');
    await userForm.waitFor();
    await page.getByTestId('ftp-user-name').fill('alice');
    await page.getByTestId('ftp-user-password').fill(PASSWORD);
    await page.getByTestId(`ftp-user-access-${mount.key}`).getByText(zh.ftpserver.access_rw).click();
    await shot(page, 'ftpserver-user-dialog-1300-zh', { fullPage: false });
    await page.getByTestId('ftp-user-save').click();
    await userForm.waitFor({ state: 'detached' });
    const alice = (await api('GET', '/api/ftpserver/users')).list[0];
    expect(alice).toEqual({
      key: alice.key,
      name: 'alice',
      enabled: true,
      password: '******',
      access: { [mount.key]: 'rw' },
    });
    await page.getByTestId(`ftp-user-access-${alice.key}`).getByText(`/share · ${zh.ftpserver.access_rw}`).waitFor();

    // curl: plain FTP lists the root (the mount) and reads the file; FTPS writes one.
    expect(await curl([ftpUrl('/')])).toMatch(/share/);
    expect(await curl([ftpUrl('/share/hello.txt')])).toBe('hello from the box\n');
    const up = path.join(dir, 'up.txt');
    await fs.writeFile(up, 'sent over FTPS\n');
    await curl(['--ssl-reqd', '-k', '-T', up, ftpUrl('/share/up.txt')]);
    expect(await fs.readFile(path.join(data, 'up.txt'), 'utf8')).toBe('sent over FTPS\n');
    // What the help tells curl users is what just worked.
    await page.getByTestId('ftp-help-more').click();
    expect(await page.getByTestId('ftp-help-text-curl').textContent()).toBe(
      `curl --ssl-reqd -u alice ftp://127.0.0.1:${ftpPort}/`,
    );

    // A session held open shows with its user, and is closed from the list.
    const held = await FtpTestClient.connect(ftpPort);
    expect((await held.read()).code).toBe(220);
    expect((await held.login('alice', PASSWORD)).code).toBe(230);
    await page.getByTestId('ftp-refresh').click();
    const row = page.locator('[data-testid^="ftp-session-user-"]', { hasText: 'alice' });
    await row.waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('ftp-status-logins').textContent()).toMatch(/^\D*[3-9]/);
    await shot(page, 'ftpserver-1300-zh');
    const id = (await row.getAttribute('data-testid'))?.replace('ftp-session-user-', '');
    await page.getByTestId(`ftp-session-kick-${id}`).click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: zh.common.confirm }).click();
    await waitFor(() => held.closed, { timeout: 10_000, what: 'the kicked session to close' });
    await page.getByTestId(`ftp-session-${id}`).waitFor({ state: 'detached', timeout: 15_000 });

    // The log, in Chinese.
    await page.getByTestId('ftp-open-logs').click();
    const table = page.getByTestId('ftp-log-table');
    await table
      .getByText(/以 alice 身份登录/)
      .first()
      .waitFor();
    await shot(page, 'ftpserver-log-1300-zh', { fullPage: false });
  });

  it('reads well in English, dark and at phone width', { timeout: 90_000 }, async () => {
    const page = await open();
    await page.goto(`${program.base}/#/ftpserver`);
    await page.getByTestId('ftpserver-screen').waitFor();
    // English through the stored choice (what the language switch writes) and a reload.
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('lucky') ?? '{}');
      localStorage.setItem('lucky', JSON.stringify({ ...stored, lang: 'en_US' }));
    });
    await page.reload();
    await page.getByText(en.ftpserver.title).first().waitFor();
    await page.getByTestId('ftp-status-listening').getByText(en.ftpserver.listening).waitFor();
    await shot(page, 'ftpserver-1300-en');

    await page.getByTestId('ftp-open-settings').click();
    await page.getByTestId('ftp-settings-form').waitFor();
    await shot(page, 'ftpserver-settings-1300-en', { fullPage: false });
    await page.getByRole('button', { name: en.common.cancel }).click();
    await page.getByTestId('ftp-settings-form').waitFor({ state: 'detached' });

    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await shot(page, 'ftpserver-1300-en-dark');

    // Phone width: the help's rows and the tables fit, nothing is cut off sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('ftp-help').waitFor();
    await shot(page, 'ftpserver-390-en-dark');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByTestId('ftp-open-settings').click();
    await page.getByTestId('ftp-settings-form').waitFor();
    await shot(page, 'ftpserver-settings-390-en-dark', { fullPage: false });
  });
});
