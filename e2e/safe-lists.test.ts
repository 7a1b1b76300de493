// The IP lists, knock and auto-ban tabs of the security screen against the built program: a block
// entry added through the dialog is listed and the test button says that entry refuses the
// address, while blocking the admin's own address is refused naming it; the knock URL shows once knocking is on, copies, and knocking puts the caller on the
// allow list; failed logins from a second loopback address (127.0.0.2, so the browser on
// 127.0.0.1 stays in) ban it, the bans tab lists it and unban removes it.
import http from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../packages/server/test/wait.js';
import { apiLogin, callApi, en, launchBrowser, newPage, type Program, shot, startProgram, zh } from './harness.js';

let browser: Browser;
let program: Program;
/** One admin session for the test's own API calls and the pages. */
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

type Locale = typeof zh;
const fill = (text: string, vars: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k) => String(vars[k]));

async function open(lang: 'zh' | 'en'): Promise<Page> {
  const { context, page } = await newPage(browser, 1300, 900);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: program.base });
  pages.push(page);
  // The session and language as the console stores them (one localStorage record), before the
  // first load only: `restyle` changes them later.
  await page.addInitScript(
    ([language, tok]) => {
      if (!localStorage.getItem('lucky')) localStorage.setItem('lucky', JSON.stringify({ lang: language, token: tok }));
    },
    [lang === 'zh' ? 'zh_CN' : 'en_US', token] as const,
  );
  return page;
}

/** Another language / theme, as the shell's switches store them, and the page loaded again. */
async function restyle(page: Page, change: { lang?: 'en_US' | 'zh_CN'; theme?: 'dark' | 'light' }, mark: string) {
  await page.evaluate((c) => {
    const stored = JSON.parse(localStorage.getItem('lucky') ?? '{}');
    localStorage.setItem('lucky', JSON.stringify({ ...stored, ...c }));
  }, change);
  await page.reload();
  await page.getByTestId(mark).waitFor();
}

const TAB_MARK = { lists: 'safe-lists-tab', knock: 'safe-knock-card', bans: 'safe-bans-tab' } as const;

async function openTab(page: Page, tab: keyof typeof TAB_MARK): Promise<void> {
  await page.goto(`${program.base}/#/safe?tab=${tab}`);
  await page.getByTestId(TAB_MARK[tab]).waitFor();
}

const safeState = () => callApi(program.base, token, 'GET', '/api/safe');

/** POST /api/login with a wrong password from 127.0.0.2: another loopback address than the browser's. */
function failLogin(base: string): Promise<number> {
  const url = new URL('/api/login', base);
  const body = JSON.stringify({ Account: '666', Password: 'not-the-password' });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: '127.0.0.2',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    // A banned address is refused at accept: the connection is reset, which is an answer too.
    req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? resolve(0) : reject(e)));
    req.end(body);
  });
}

describe('IP lists', () => {
  it('adds a block entry through the dialog, lists it, and the test says that entry refuses the address', async () => {
    const page = await open('zh');
    await openTab(page, 'lists');
    const L: Locale = zh;
    await page.getByTestId('safe-you').filter({ hasText: '127.0.0.1' }).waitFor();

    await page.getByTestId('safe-block-add').click();
    const form = page.getByTestId('safe-entry-form');
    await form.waitFor();
    // The shared check refuses a bad value in the browser.
    await page.getByTestId('safe-entry-value').fill('198.51.100.300');
    await page.getByTestId('safe-entry-save').click();
    await form.getByText(fill(L.safe.err_entryInvalid, { value: '198.51.100.300' })).waitFor();
    await page.getByTestId('safe-entry-value').fill('198.51.100.23');
    await page.getByTestId('safe-entry-comment').fill('scanner');
    await page.getByTestId('safe-entry-save').click();
    await form.waitFor({ state: 'detached' });

    const row = page.getByTestId('safe-block-row-198.51.100.23');
    await row.waitFor();
    expect(await row.innerText()).toContain('scanner');
    expect(await row.innerText()).toContain(L.safe.lists_source_manual);
    const stored = await safeState();
    expect(stored.block.map((e: { value: string; comment: string }) => [e.value, e.comment])).toEqual([
      ['198.51.100.23', 'scanner'],
    ]);

    // The test: refused at the admin console by that block entry, in words.
    await page.getByTestId('safe-test-ip').fill('198.51.100.23');
    await page.getByTestId('safe-test-run').click();
    const result = page.getByTestId('safe-test-result');
    await result.waitFor();
    const text = await result.innerText();
    expect(text).toContain(
      fill(L.safe.test_refused, {
        ip: '198.51.100.23',
        scope: L.safe.lists_scopeAdmin,
        rule: L.safe.test_rule_block,
      }),
    );
    expect(text).toContain(fill(L.safe.test_why_block, { value: '198.51.100.23' }));
    // And an address on no list is let in by the default rule.
    await page.getByTestId('safe-test-ip').fill('192.0.2.8');
    await page.getByTestId('safe-test-run').click();
    await page
      .getByTestId('safe-test-result')
      .filter({ hasText: fill(L.safe.test_why_default, {}) })
      .waitFor();
    await shot(page, 'safe-lists-1300-zh');

    // Blocking the admin's own address is refused, naming it, and nothing is stored.
    await page.getByTestId('safe-block-add').click();
    await form.waitFor();
    await page.getByTestId('safe-entry-value').fill('127.0.0.0/8');
    await page.getByTestId('safe-entry-save').click();
    const lockOut = form.getByTestId('safe-lockout');
    await lockOut.waitFor();
    expect(await lockOut.innerText()).toContain(
      fill(L.safe.err_wouldLockOut, { ip: '127.0.0.1', rule: L.safe.test_rule_block }),
    );
    await shot(page, 'safe-lists-lockout-1300-zh', { fullPage: false });
    expect((await safeState()).block).toHaveLength(1);
    await page.getByTestId('safe-entry-cancel').click();
    await form.waitFor({ state: 'detached' });

    // English, dark, at phone width (knock and auto-ban are shot in English at full width).
    await page.setViewportSize({ width: 390, height: 900 });
    await restyle(page, { lang: 'en_US', theme: 'dark' }, 'safe-lists-tab');
    await page.getByText(en.safe.lists_modeTitle).first().waitFor();
    await page.getByTestId('safe-block-row-198.51.100.23').waitFor();
    await shot(page, 'safe-lists-390-en-dark');
  });
});

describe('knock', () => {
  it('switching knocking on shows the URL, which copies and puts its caller on the allow list', async () => {
    const page = await open('zh');
    await openTab(page, 'knock');
    await page.getByTestId('safe-knock-no-url').waitFor();
    await page.getByTestId('safe-knock-enabled').click();
    await page.getByTestId('safe-knock-save').click();
    const urlText = page.getByTestId('safe-knock-url');
    await urlText.waitFor();
    const url = (await urlText.innerText()).trim();
    const { settings } = await safeState();
    expect(settings.knock.enabled).toBe(true);
    expect(settings.knock.path.length).toBeGreaterThanOrEqual(16);
    expect(url).toBe(`${program.base}/knock/${settings.knock.path}`);

    await page.getByTestId('safe-knock-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await shot(page, 'safe-knock-1300-zh');

    // Knocking from here (loopback, no password set) puts 127.0.0.1 on the allow list as a knock.
    const knocked = await fetch(url);
    expect(knocked.status).toBe(200);
    await waitFor(
      async () =>
        (await safeState()).allow.some(
          (e: { value: string; source: string }) => e.value === '127.0.0.1' && e.source === 'knock',
        ),
      { timeout: 5000, what: 'the knock entry' },
    );
    await openTab(page, 'lists');
    const row = page.getByTestId('safe-allow-row-127.0.0.1');
    await row.waitFor();
    expect(await row.innerText()).toContain(zh.safe.lists_source_knock);

    // A new path: the old URL stops working.
    await openTab(page, 'knock');
    await page.getByTestId('safe-knock-new-path').click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: zh.common.confirm }).click();
    await expect.poll(async () => (await urlText.innerText()).trim()).not.toBe(url);
    expect((await fetch(url)).status).toBe(404);
    await restyle(page, { lang: 'en_US' }, 'safe-knock-url');
    await shot(page, 'safe-knock-1300-en');
  });
});

describe('auto-ban', () => {
  it('failed logins from 127.0.0.2 ban it; the bans tab lists it and unban removes it', async () => {
    const set = await callApi(program.base, token, 'PUT', '/api/safe/settings', {
      autoBan: { enabled: true, failures: 3, windowMinutes: 10, banMinutes: 60, banLan: true },
    });
    expect(set.ret).toBe(0);
    const page = await open('zh');
    await openTab(page, 'bans');
    await page.getByTestId('safe-bans-empty').waitFor();
    expect(await page.getByTestId('safe-ban-lan').getAttribute('aria-checked')).toBe('true');

    for (let i = 0; i < 3; i++) await failLogin(program.base);
    // The tab refreshes on its own: the ban appears without a click.
    const row = page.getByTestId('safe-ban-row-127.0.0.2');
    await row.waitFor({ timeout: 15_000 });
    const text = await row.innerText();
    expect(text).toContain(zh.safe.lists_scopeAdmin);
    // Columns: address, since, until, failures, sources.
    expect((await row.locator('td').nth(3).innerText()).trim()).toBe('3');
    await shot(page, 'safe-bans-1300-zh');
    await restyle(page, { lang: 'en_US' }, 'safe-ban-row-127.0.0.2');
    await shot(page, 'safe-bans-1300-en');

    await page.getByTestId('safe-unban-127.0.0.2').click();
    await row.waitFor({ state: 'detached' });
    const bans = await callApi(program.base, token, 'GET', '/api/safe/bans');
    expect(bans.bans).toEqual([]);
  });
});
