// Every module of THE list (BUILT_MODULES) in the browser, in both languages: its menu entry
// reads the locale's text, its screen loads with no locale key showing as raw text and no
// error, and switching the module off and on again through the module switch call is shown
// on the overview. Derived from the one list, so a new module (npm run new-module) is covered
// the day it is added.
//
// One signed-in page per language walks every screen in the app's own navigation (a hash
// change, as the menu does): a fresh browser context and a cold start of the app per screen
// cost about three seconds each and proved nothing more about the screen itself.
import { BUILT_MODULES, MODULE_ROUTES } from '@lucky/shared';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staysFalse, waitFor } from '../packages/server/test/wait.js';
import { apiLogin, callApi, en, launchBrowser, newPage, type Program, shot, startProgram, zh } from './harness.js';

let browser: Browser;
let program: Program;
let token: string;

beforeAll(async () => {
  browser = await launchBrowser();
  program = await startProgram();
  token = await apiLogin(program.base);
});
afterAll(async () => {
  await browser?.close();
  await program?.stop();
});

const LOCALES = { zh_CN: zh, en_US: en } as const;
/** Namespaces of the locale files: a text like `ddns.addTask` on screen is a key that was not found. */
const NAMESPACES = Object.keys(zh).join('|');
const RAW_KEY = new RegExp(`(^|\\s)(${NAMESPACES})\\.[A-Za-z_][\\w.]*($|\\s)`);

type Lang = 'zh_CN' | 'en_US';

/** A signed-in page and the requests it has in flight (what the screen is still waiting for). */
interface Tab {
  page: Page;
  inFlight: Set<Request>;
}
const tabs = new Map<Lang, Tab>();

/**
 * Shows `hash` in the language's page: the first time a cold start of the app, signed in;
 * after that the app's own navigation, and the screen that was showing has left the page
 * before this returns (so what is checked next is the new screen, never the old one).
 */
async function show(lang: Lang, hash: string): Promise<Page> {
  const known = tabs.get(lang);
  if (!known) {
    const { page } = await newPage(browser, 1300, 900);
    const tab: Tab = { page, inFlight: new Set() };
    page.on('request', (r) => tab.inFlight.add(r));
    page.on('requestfinished', (r) => tab.inFlight.delete(r));
    page.on('requestfailed', (r) => tab.inFlight.delete(r));
    tabs.set(lang, tab);
    await page.addInitScript(([lang, token]) => localStorage.setItem('lucky', JSON.stringify({ lang, token })), [
      lang,
      token,
    ] as const);
    await page.goto(`${program.base}/#${hash}`);
    return page;
  }
  const { page } = known;
  const before = await page.locator('.shell-content > *').first().elementHandle();
  await page.goto(`${program.base}/#${hash}`);
  if (before) await page.waitForFunction((el) => !el.isConnected, before);
  return page;
}

/**
 * The screen is up when its requests have been answered and nothing is loading (no lazy screen
 * still arriving, no spinner), and that stays so for a moment: a screen starts its first
 * requests just after it is drawn.
 */
async function settled(lang: Lang): Promise<void> {
  const { page, inFlight } = tabs.get(lang) as Tab;
  const busy = async () =>
    inFlight.size > 0 ||
    (await page.evaluate(() => Boolean(document.querySelector('.ant-spin-spinning, .shell-screen-loading'))));
  for (let attempt = 1; ; attempt++) {
    await waitFor(async () => !(await busy()), { timeout: 15_000, interval: 50, what: 'the screen at rest' });
    if (await staysFalse(busy, 500)) return;
    if (attempt >= 20) throw new Error('the screen never stayed at rest for half a second');
  }
}

const api = (method: string, p: string, body?: unknown) => callApi(program.base, token, method, p, body);

describe('every module screen in both languages', () => {
  for (const key of BUILT_MODULES) {
    for (const lang of ['zh_CN', 'en_US'] as const) {
      it(`${key} (${lang}): menu entry, screen, no raw locale keys`, async () => {
        const t = LOCALES[lang];
        const route = MODULE_ROUTES[key].replace(/^\//, '');
        const page = await show(lang, `/${route}`);
        await page.waitForURL(new RegExp(`#/${route}`));
        await page.getByTestId('side-menu').getByText(t.menu[key], { exact: true }).waitFor();
        await settled(lang);
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
      // The overview opened after the switch (the Chinese page leaves the module's screen for it).
      const page = await show('zh_CN', '/status');
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
