// The dark theme against the built program: the top-bar switch turns it on, the choice is kept
// across a reload (in the one local-storage record), and without a choice the console follows
// the system's colour scheme. Screens in both themes for people to look at.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Program, shot, startProgram, zh } from './harness.js';

let browser: Browser;
let program: Program;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  program = await startProgram();
});
afterAll(async () => {
  await browser?.close();
  await program?.stop();
});
afterEach(async () => {
  for (const c of contexts.splice(0)) await c.close();
});

async function open(colorScheme: 'light' | 'dark'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1300, height: 900 }, colorScheme });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${program.base}/#/login`);
  await page.getByTestId('login-screen').waitFor();
  return page;
}

const themeOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
/** The top bar's background, as the browser paints it. */
const headerBackground = (page: Page) =>
  page.locator('.shell-header').evaluate((el) => getComputedStyle(el).backgroundColor);
const stored = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('lucky') ?? '{}').theme);

async function signIn(page: Page): Promise<void> {
  await page.getByPlaceholder(zh.login.accountPlaceholder).fill('666');
  await page.getByPlaceholder(zh.login.passwordPlaceholder).fill('666');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/#\/status/);
}

describe('dark theme', () => {
  it('turns on from the top bar and stays on across a reload', async () => {
    const page = await open('light');
    expect(await themeOf(page)).toBe('light');
    expect(await headerBackground(page)).toBe('rgb(255, 255, 255)');
    expect(await stored(page)).toBeUndefined();

    await page.getByTestId('theme-switch').click();
    await expect.poll(() => themeOf(page)).toBe('dark');
    expect(await headerBackground(page)).not.toBe('rgb(255, 255, 255)');
    expect(await stored(page)).toBe('dark');
    await page.waitForTimeout(300);
    await shot(page, 'theme-login-dark-1300-zh', { fullPage: false });

    await page.reload();
    await page.getByTestId('login-screen').waitFor();
    expect(await themeOf(page)).toBe('dark');
    expect(await page.getByTestId('theme-switch').getAttribute('aria-pressed')).toBe('true');

    // Dark on the screens behind the login too.
    await signIn(page);
    expect(await themeOf(page)).toBe('dark');
    await page.goto(`${program.base}/#/safe?tab=audit`);
    await page.getByTestId('audit-table').locator('tbody tr.ant-table-row').first().waitFor();
    await page.waitForTimeout(300);
    await shot(page, 'theme-audit-dark-1300-zh');

    // And back to light, kept as well.
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => themeOf(page)).toBe('light');
    await page.reload();
    await page.getByTestId('audit-table').waitFor();
    expect(await themeOf(page)).toBe('light');
    expect(await stored(page)).toBe('light');
  });

  it('follows the system’s dark scheme when nothing was chosen', async () => {
    const page = await open('dark');
    expect(await themeOf(page)).toBe('dark');
    expect(await page.getByTestId('theme-switch').getAttribute('aria-pressed')).toBe('true');
    expect(await stored(page)).toBeUndefined();
  });
});
