// The WebDAV screen against the built program: a storage from storage management, then in the
// screen a port, a mount and a user (their refusals beside the fields first), the module switched
// on, and a real WebDAV client request with those credentials. Screenshots in both languages,
// dark and at phone width.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiLogin,
  callApi,
  chooseOption,
  freePort,
  launchBrowser,
  newPage,
  type Program,
  shot,
  startProgram,
  zh,
} from './harness.js';

let browser: Browser;
let program: Program;
let token: string;
let dir: string;
let davPort: number;
const pages: Page[] = [];

const api = (method: string, p: string, body?: unknown) => callApi(program.base, token, method, p, body);

/** A WebDAV request as a client sends it, with Basic auth. */
const dav = (method: string, p: string, auth: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${davPort}${p}`, {
    method,
    headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}`, ...headers },
  });

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-e2e-webdav-'));
  await fs.writeFile(path.join(dir, 'hello.txt'), '你好 WebDAV');
  [browser, program] = await Promise.all([launchBrowser(), startProgram()]);
  token = await apiLogin(program.base);
  const s = await api('POST', '/api/storagemanagement/storages', {
    name: '家庭照片',
    kind: 'local',
    local: { path: dir },
  });
  expect(s.ret).toBe(0);
  davPort = await freePort();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await program?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.context().close();
});

async function open(lang: 'zh_CN' | 'en_US', width = 1300, height = 900): Promise<Page> {
  const { page } = await newPage(browser, width, height);
  pages.push(page);
  await page.addInitScript(([lang, token]) => localStorage.setItem('lucky', JSON.stringify({ lang, token })), [
    lang,
    token,
  ] as const);
  await page.goto(`${program.base}/#/webdav`);
  await page.getByTestId('webdav-screen').waitFor();
  return page;
}

const itemOf = (page: Page, testId: string) => page.locator('.ant-form-item').filter({ has: page.getByTestId(testId) });

describe('WebDAV screen', () => {
  it('a port, a mount and a user set in the screen; switched on, a real WebDAV request with those credentials works', async () => {
    const page = await open('zh_CN');
    await page.getByTestId('webdav-module-disabled').waitFor();

    // The port, in the settings card.
    await page.getByTestId('webdav-port').fill(String(davPort));
    await page.getByTestId('webdav-settings-save').click();
    await page.getByText(zh.webdav.saved).first().waitFor();

    // A mount: a bad name is refused beside its field, then saved.
    await page.getByTestId('webdav-add-mount').click();
    await page.getByTestId('webdav-mount-name').fill('..');
    await page.getByTestId('webdav-mount-save').click();
    await itemOf(page, 'webdav-mount-name').getByText(zh.webdav.err_mountNameInvalid).waitFor();
    await page.getByTestId('webdav-mount-name').fill('photos');
    await page.getByTestId('webdav-mount-save').click();
    await page.getByTestId('webdav-mount-name').waitFor({ state: 'detached' });
    await page.getByTestId('webdav-mounts').getByText('/photos').waitFor();
    await page.getByTestId('webdav-mounts').getByText('家庭照片').waitFor();

    // A user with read-write access to it: the password's length is checked beside its field.
    await page.getByTestId('webdav-add-user').click();
    await page.getByTestId('webdav-user-name').fill('alice');
    await page.getByTestId('webdav-user-password').fill('123');
    await page.getByTestId('webdav-user-save').click();
    await itemOf(page, 'webdav-user-password').getByText('密码至少需要 6 个字符').waitFor();
    await page.getByTestId('webdav-user-password').fill('alice-password');
    await chooseOption(page, 'webdav-access-photos', zh.webdav.access_rw);
    await shot(page, 'webdav-user-dialog-1300-zh', { fullPage: false });
    await page.getByTestId('webdav-user-save').click();
    await page.getByTestId('webdav-user-name').waitFor({ state: 'detached' });
    await page.getByTestId('webdav-users').getByText(`/photos ${zh.webdav.accessShort_rw}`).waitFor();

    // On: listening, with the warning that passwords cross plain HTTP.
    await page.getByTestId('webdav-module-switch').click();
    await page.locator('[data-testid="webdav-state"][data-state="running"]').waitFor();
    await page.getByTestId('webdav-plain-http').waitFor();
    expect(await page.getByTestId('webdav-help-windows').innerText()).toBe(`\\\\127.0.0.1@${davPort}\\DavWWWRoot`);
    await shot(page, 'webdav-running-1300-zh');

    // A real client with those credentials.
    const listing = await dav('PROPFIND', '/photos/', 'alice:alice-password', { depth: '1' });
    expect(listing.status).toBe(207);
    expect(await listing.text()).toContain('hello.txt');
    const file = await dav('GET', '/photos/hello.txt', 'alice:alice-password');
    expect(await file.text()).toBe('你好 WebDAV');
    expect((await dav('GET', '/photos/hello.txt', 'alice:wrong-password')).status).toBe(401);
    const put = await fetch(`http://127.0.0.1:${davPort}/photos/new.txt`, {
      method: 'PUT',
      headers: { authorization: `Basic ${Buffer.from('alice:alice-password').toString('base64')}` },
      body: 'from a client',
    });
    expect(put.status).toBe(201);
    expect(await fs.readFile(path.join(dir, 'new.txt'), 'utf8')).toBe('from a client');

    // The log drawer shows the write and the failed sign-in, in Chinese.
    await page.getByTestId('webdav-open-logs').click();
    const table = page.getByTestId('webdav-log-table');
    await table.getByText(/PUT \/photos\/new\.txt → 201/).waitFor();
    await table.getByText(/用户 alice 的用户名或密码错误/).waitFor();
    await shot(page, 'webdav-log-1300-zh', { fullPage: false });
  });

  it('reads well in English, dark and at phone width', async () => {
    const page = await open('en_US');
    await page.locator('[data-testid="webdav-state"][data-state="running"]').waitFor();
    await shot(page, 'webdav-running-1300-en');
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await shot(page, 'webdav-running-1300-en-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('webdav-status').waitFor();
    await shot(page, 'webdav-running-390-en-dark');
    await page.getByTestId('webdav-help').scrollIntoViewIfNeeded();
    await shot(page, 'webdav-help-390-en-dark', { fullPage: false });
    await page.getByTestId('webdav-add-user').click();
    await page.getByTestId('webdav-user-name').waitFor();
    await shot(page, 'webdav-user-dialog-390-en-dark', { fullPage: false });
  });

  it('zh at phone width', async () => {
    const page = await open('zh_CN', 390, 844);
    await page.locator('[data-testid="webdav-state"][data-state="running"]').waitFor();
    await shot(page, 'webdav-running-390-zh');
  });
});
