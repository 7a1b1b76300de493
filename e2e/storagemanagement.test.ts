// The storage management screen against the built program: add a local folder through the dialog
// (the refusals beside their fields first: a relative path from the form's own check, a missing
// folder from the server), see it online with its space, check it again after its folder went
// away (offline, with the reason), switch it, delete it. Screenshots in both languages, dark and
// at phone width.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, callApi, en, launchBrowser, newPage, type Program, shot, startProgram, zh } from './harness.js';

let browser: Browser;
let program: Program;
let token: string;
let dir: string;
const pages: Page[] = [];

const api = (method: string, p: string, body?: unknown) => callApi(program.base, token, method, p, body);

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-e2e-storage-'));
  [browser, program] = await Promise.all([launchBrowser(), startProgram()]);
  token = await apiLogin(program.base);
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
  await page.goto(`${program.base}/#/storagemanagement`);
  await page.getByTestId('storagemanagement-screen').waitFor();
  return page;
}

/** The form item (label, control, message) around a control. */
const itemOf = (page: Page, testId: string) => page.locator('.ant-form-item').filter({ has: page.getByTestId(testId) });

const filled = (text: string, vars: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k) => String(vars[k]));

async function keyByName(name: string): Promise<string> {
  const r = await api('GET', '/api/storagemanagement/storages');
  const s = r.list.find((x: { name: string }) => x.name === name);
  if (!s) throw new Error(`no storage named ${name}`);
  return s.key;
}

describe('storage management screen', () => {
  it('adds a local folder through the dialog and shows its space; offline with its reason; deletes it', async () => {
    const folder = path.join(dir, 'photos');
    await fs.mkdir(folder);
    const page = await open('zh_CN');
    await page.getByText(zh.storagemanagement.empty).waitFor();

    // Empty form: the messages beside their fields, nothing sent.
    await page.getByTestId('storagemanagement-add').click();
    await page.getByTestId('sm-dialog-save').click();
    await itemOf(page, 'sm-dialog-name').getByText(zh.storagemanagement.err_nameRequired).waitFor();
    await itemOf(page, 'sm-dialog-path').getByText(zh.storagemanagement.err_pathRequired).waitFor();

    // A relative path: the form's own check (the shared schema).
    await page.getByTestId('sm-dialog-name').fill('照片');
    await page.getByTestId('sm-dialog-path').fill('photos');
    await page.getByTestId('sm-dialog-save').click();
    await itemOf(page, 'sm-dialog-path').getByText(zh.storagemanagement.err_pathNotAbsolute).waitFor();

    // A folder that does not exist: the server's refusal, beside the same field.
    const missing = path.join(dir, 'nope');
    await page.getByTestId('sm-dialog-path').fill(missing);
    await page.getByTestId('sm-dialog-save').click();
    await itemOf(page, 'sm-dialog-path')
      .getByText(filled(zh.storagemanagement.err_pathNotFound, { path: missing }))
      .waitFor();
    await shot(page, 'storagemanagement-dialog-refused-1300-zh', { fullPage: false });

    await page.getByTestId('sm-dialog-path').fill(folder);
    await page.getByTestId('sm-dialog-readonly').click();
    await page.getByTestId('sm-dialog-save').click();
    await page.getByTestId('sm-dialog-form').waitFor({ state: 'detached' });
    const key = await keyByName('照片');

    // Listed: online, with its space in spec §9 sizes, read-only tag, nobody using it.
    await page.locator(`[data-testid="sm-storage-state-${key}"][data-state="online"]`).waitFor();
    const space = page.getByTestId(`sm-storage-space-${key}`);
    await expect.poll(() => space.innerText()).toMatch(/可用 [\d.]+ [KMGTP]?B，共 [\d.]+ [KMGTP]?B/);
    expect(Number(await space.getAttribute('data-percent'))).toBeGreaterThanOrEqual(0);
    await page.getByTestId(`sm-storage-readonly-${key}`).waitFor();
    expect(await page.getByTestId(`sm-storage-where-${key}`).innerText()).toContain(folder);
    expect(await page.getByTestId(`sm-storage-mounts-${key}`).innerText()).toContain(zh.storagemanagement.usedByNone);
    await shot(page, 'storagemanagement-list-1300-zh');

    // The folder goes away: "check now" says offline, and why.
    await fs.rm(folder, { recursive: true });
    await page.getByTestId(`sm-storage-probe-${key}`).click();
    await page.locator(`[data-testid="sm-storage-state-${key}"][data-state="offline"]`).waitFor();
    expect(await page.getByTestId(`sm-storage-reason-${key}`).innerText()).toContain(
      zh.storagemanagement.reason_unreachable,
    );
    await shot(page, 'storagemanagement-offline-1300-zh');

    // Switched off, then deleted through its confirmation.
    await page.getByTestId(`sm-storage-switch-${key}`).click();
    await page.locator(`[data-testid="sm-storage-state-${key}"][data-state="disabled"]`).waitFor();
    await page.getByTestId(`sm-storage-delete-${key}`).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: zh.storagemanagement.delete }).click();
    await page.getByTestId(`sm-storage-${key}`).waitFor({ state: 'detached' });
    expect((await api('GET', '/api/storagemanagement/storages')).list).toEqual([]);
  });

  it('reads well in English, dark and at phone width: list with both kinds, dialog', async () => {
    const music = path.join(dir, 'music');
    await fs.mkdir(music);
    const a = await api('POST', '/api/storagemanagement/storages', {
      name: 'Music',
      kind: 'local',
      local: { path: music },
    });
    expect(a.ret).toBe(0);
    // A remote server nobody answers for (a port from the loopback range that is closed).
    const b = await api('POST', '/api/storagemanagement/storages', {
      name: 'Office NAS',
      kind: 'webdav',
      readOnly: true,
      webdav: { url: 'http://127.0.0.1:9/dav/', user: 'me', password: 'pw' },
    });
    expect(b.ret).toBe(0);
    expect(b.warnings).toEqual([{ code: 'plainHttp', params: { host: '127.0.0.1:9' } }]);
    await api('POST', `/api/storagemanagement/storages/${b.storage.key}/probe`);

    const page = await open('en_US');
    await page.locator(`[data-testid="sm-storage-state-${a.storage.key}"][data-state="online"]`).waitFor();
    await page.locator(`[data-testid="sm-storage-state-${b.storage.key}"][data-state="offline"]`).waitFor();
    expect(await page.getByTestId(`sm-storage-reason-${b.storage.key}`).innerText()).toContain(
      en.storagemanagement.reason_unreachable,
    );
    await shot(page, 'storagemanagement-list-1300-en');

    await page.getByTestId(`sm-storage-edit-${b.storage.key}`).click();
    await page.getByTestId('sm-dialog-form').waitFor();
    expect(await page.getByTestId('sm-dialog-password').inputValue()).toBe('******');
    await shot(page, 'storagemanagement-dialog-webdav-1300-en', { fullPage: false });
    await page.getByTestId('sm-dialog-form').getByText(en.storagemanagement.kind_local, { exact: true }).click();
    await page.getByTestId('sm-dialog-path').fill('/');
    await page.getByTestId('sm-dialog-root-warning').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('sm-dialog-form').waitFor({ state: 'detached' });

    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await shot(page, 'storagemanagement-list-1300-en-dark');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId(`sm-storage-${a.storage.key}`).waitFor();
    await shot(page, 'storagemanagement-list-390-en-dark');
    await page.getByTestId('storagemanagement-add').click();
    await page.getByTestId('sm-dialog-form').waitFor();
    await shot(page, 'storagemanagement-dialog-390-en-dark', { fullPage: false });
  });

  it('says when the module is off', async () => {
    expect((await api('PUT', '/api/modules/storagemanagement/enabled', { enabled: false })).ret).toBe(0);
    const page = await open('zh_CN', 390, 844);
    await page.getByTestId('storagemanagement-module-disabled').waitFor();
    await shot(page, 'storagemanagement-off-390-zh');
    await page.getByTestId('storagemanagement-module-switch').click();
    await page.getByTestId('storagemanagement-module-disabled').waitFor({ state: 'detached' });
    expect((await api('GET', '/api/storagemanagement/storages')).enabled).toBe(true);
  });
});
