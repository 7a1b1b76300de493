import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, launchBrowser, newPage, type Program, shot, startProgram, zh } from './harness.js';

let browser: Browser;
let program: Program;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  program = await startProgram();
  ({ page } = await newPage(browser, 1300, 1000));
  await page.goto(`${program.base}/#/login`);
  await page.getByPlaceholder(zh.login.accountPlaceholder).fill('666');
  await page.getByPlaceholder(zh.login.passwordPlaceholder).fill('666');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/#\/status/);
});
afterAll(async () => {
  await browser?.close();
  await program?.stop();
});

async function api(pathname: string, init: RequestInit = {}) {
  const token = await apiLogin(program.base);
  const r = await fetch(program.base + pathname, {
    ...init,
    headers: { authorization: token, 'content-type': 'application/json' },
  });
  return r.json();
}

async function pid(): Promise<number> {
  return (await api('/api/info')).info.PID;
}

describe('settings: maintenance', () => {
  it('backs up the config, then restores it after a change, restarting and reconnecting', async () => {
    await api('/api/baseconfigure', { method: 'PUT', body: JSON.stringify({ logMaxSize: 3333 }) });
    await page.goto(`${program.base}/#/set`);
    await page.getByTestId('set-screen').waitFor();
    await shot(page, 'set-1300-zh');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('backup-button').click()]);
    expect(download.suggestedFilename()).toMatch(/^lucky_\d{14}\.json$/);
    const file = path.join(program.dir, 'downloaded-backup.json');
    await download.saveAs(file);
    const backup = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(backup.base.logMaxSize).toBe(3333);

    await api('/api/baseconfigure', { method: 'PUT', body: JSON.stringify({ logMaxSize: 4444 }) });
    const before = await pid();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('restore-button').click()]);
    await chooser.setFiles(file);
    await page.getByRole('button', { name: zh.set.restoreApply }).click();
    await page.getByTestId('reconnect-waiting').waitFor();
    // The page reloads by itself once the program is back.
    await page.waitForEvent('load', { timeout: 30_000 });
    await page.getByTestId('set-screen').waitFor();
    expect((await api('/api/baseconfigure')).baseconfigure.logMaxSize).toBe(3333);
    expect(await pid()).not.toBe(before);
  });

  it('restarts the program from settings and reconnects', async () => {
    await page.goto(`${program.base}/#/set`);
    const before = await pid();
    await page.getByTestId('restart-button').click();
    await page.getByRole('button', { name: zh.set.restartNow }).last().click();
    await page.getByTestId('reconnect-waiting').waitFor();
    await page.waitForEvent('load', { timeout: 30_000 });
    await page.getByTestId('set-screen').waitFor();
    expect(await pid()).not.toBe(before);
    // The log dialog of the new process has a new starttime and the restart line.
    const logs = await api('/api/logs');
    expect(logs.logs.map((l: { log: string }) => l.log).join('\n')).toMatch(/listening on/);
  });
});
