// Every module of THE list (BUILT_MODULES) in the browser, in both languages: its menu entry
// reads the locale's text, its screen loads with no locale key showing as raw text and no
// error, and switching the module off and on again through the module switch call is shown
// on the overview. Derived from the one list, so a new module (npm run new-module) is covered
// the day it is added.
import { BUILT_MODULES, MODULE_ROUTES } from '@lucky/shared';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, callApi, en, launchBrowser, newPage, type Program, shot, startProgram, zh } from './harness.js';

let browser: Browser;
let program: Program;
let token: string;
const pages: Page[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  program = await startProgram();
  token = await apiLogin(program.base);
});
afterAll(async () => {
  await browser?.close();
  await program?.stop();
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.context().close();
});

const LOCALES = { zh_CN: zh, en_US: en } as const;
/** Namespaces of the locale files: a text like `ddns.addTask` on screen is a key that was not found. */
const NAMESPACES = Object.keys(zh).join('|');
const RAW_KEY = new RegExp(`(^|\\s)(${NAMESPACES})\\.[A-Za-z_][\\w.]*($|\\s)`);

async function openSignedIn(lang: 'zh_CN' | 'en_US', hash: string): Promise<Page> {
  const { page } = await newPage(browser, 1300, 900);
  pages.push(page);
  await page.addInitScript(([lang, token]) => localStorage.setItem('lucky', JSON.stringify({ lang, token })), [
    lang,
    token,
  ] as const);
  await page.goto(`${program.base}/#${hash}`);
  return page;
}

const api = (method: string, p: string, body?: unknown) => callApi(program.base, token, method, p, body);

describe('every module screen in both languages', () => {
  for (const key of BUILT_MODULES) {
    for (const lang of ['zh_CN', 'en_US'] as const) {
      it(`${key} (${lang}): menu entry, screen, no raw locale keys`, async () => {
        const t = LOCALES[lang];
        const route = MODULE_ROUTES[key].replace(/^\//, '');
        const page = await openSignedIn(lang, `/${route}`);
        await page.waitForURL(new RegExp(`#/${route}`));
        await page.getByTestId('side-menu').getByText(t.menu[key], { exact: true }).waitFor();
        // The screen is up when its first request has been answered and nothing is loading.
        await page.waitForLoadState('networkidle');
        await page.waitForFunction(() => !document.querySelector('.ant-spin-spinning'));
        const text = await page.locator('body').innerText();
        const raw = text.split('\n').filter((line) => RAW_KEY.test(line));
        expect(raw).toEqual([]);
        expect(await page.locator('.ant-result-error').count()).toBe(0);
        await shot(page, `module-${key}-${lang}`);
      });
    }
    it(`${key}: the module switch turns it off (state disabled) and on again, with the overview open`, async () => {
      const off = await api('PUT', `/api/modules/${key}/enabled`, { enabled: false });
      expect(off).toMatchObject({ ret: 0, status: { state: 'disabled', enabled: false } });
      const page = await openSignedIn('zh_CN', '/status');
      await page.getByTestId('status-screen').waitFor();
      // The overview shows the true state, in the UI language.
      const row = page.locator(`[data-testid="module-${key}"][data-state="disabled"]`);
      await row.waitFor();
      expect(await row.innerText()).toContain(zh.status.state_disabled);
      const on = await api('PUT', `/api/modules/${key}/enabled`, { enabled: true });
      expect(on.ret, JSON.stringify(on)).toBe(0);
      expect(on.status.enabled).toBe(true);
    });
  }
});
