// Wanji admin against three BUILT programs on loopback: A manages B and C over HTTPS (the admin
// port speaks TLS with its self-signed certificate). B is added through A's dialog (the
// certificate check shows B's real fingerprint, the user trusts it), C through A's API; the table
// shows both with their version and modules; C stopped → its row is unreachable with the reason in
// Chinese; jump-in opens a new tab logged in to B (its home page, no password typed); the same
// link again is refused on B's login page; bulk restart of B lists its result. Screenshots: zh
// 1300, en dark 1300, zh 390 (test-results/screens).
import tls from 'node:tls';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../packages/server/test/wait.js';
import { apiLogin, callApi, launchBrowser, type Program, shot, startProgram, zh } from './harness.js';

let browser: Browser;
let a: Program;
let b: Program;
let c: Program;
let tokenA: string;
const pages: Page[] = [];

/** The certificate fingerprint a console's admin port shows (what pinning compares). */
function fingerprintOf(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(s.getPeerCertificate().fingerprint256);
      s.end();
    });
    s.on('error', reject);
  });
}

/** An API token made on a console through its own API. */
async function apiToken(p: Program): Promise<string> {
  const session = await apiLogin(p.base);
  const made = await callApi(p.base, session, 'POST', '/api/apitokens', { name: 'wanji', currentPassword: '666' });
  expect(made.ret).toBe(0);
  return made.token;
}

/** A locale text as a pattern: its {{params}} match anything. */
const pattern = (text: string) =>
  new RegExp(
    text
      .split(/\{\{\w+\}\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+'),
  );

async function open(lang: 'zh_CN' | 'en_US', width: number, theme: 'light' | 'dark' = 'light'): Promise<Page> {
  // B and C answer HTTPS with their self-signed certificates: the jump-in tab lands there (a
  // user accepts the browser's warning once; the test context accepts it for them).
  const context = await browser.newContext({ viewport: { width, height: 900 }, ignoreHTTPSErrors: true });
  const page = await context.newPage();
  pages.push(page);
  await page.addInitScript(
    ([lang, token, theme]) => localStorage.setItem('lucky', JSON.stringify({ lang, token, theme })),
    [lang, tokenA, theme] as const,
  );
  await page.goto(`${a.base}/#/wanjiadmin`);
  await page.getByTestId('wanji_admin-screen').waitFor();
  return page;
}

beforeAll(async () => {
  // One program at a time: three starting together on a busy 2-core machine miss the harness's
  // 20 s start wait.
  [browser, a] = await Promise.all([launchBrowser(), startProgram()]);
  b = await startProgram();
  c = await startProgram();
  tokenA = await apiLogin(a.base);
}, 60_000);
afterAll(async () => {
  for (const p of pages) await p.context().close();
  await browser?.close();
  await Promise.all([a?.stop(), b?.stop(), c?.stop()]);
});

describe('wanji admin screen', () => {
  it('adds B through the dialog and C through the API, follows C down, jumps into B once, restarts B', async () => {
    const [tokenB, tokenC, fpB, fpC] = await Promise.all([
      apiToken(b),
      apiToken(c),
      fingerprintOf(b.port),
      fingerprintOf(c.port),
    ]);
    const api = (method: string, p: string, body?: unknown) => callApi(a.base, tokenA, method, p, body);
    expect((await api('PUT', '/api/wanji_admin/settings', { refreshSeconds: 5, timeoutMs: 3000 })).ret).toBe(0);

    const page = await open('zh_CN', 1300);
    await page.getByTestId('wanji-add-first').click();
    await page.getByTestId('wanji-console-form').waitFor();
    await page.getByTestId('wanji-console-url').fill(`https://127.0.0.1:${b.port}`);
    await page.getByTestId('wanji-console-name').fill('B');
    await page.getByTestId('wanji-console-token').fill(tokenB);
    await page.getByTestId('wanji-console-probe').click();
    // The dialog shows the certificate B really presents; the user trusts it.
    expect(await page.getByTestId('wanji-console-seen-fingerprint').innerText()).toContain(fpB);
    await page.getByTestId('wanji-console-trust').click();
    expect(await page.getByTestId('wanji-console-fingerprint').inputValue()).toBe(fpB);
    await shot(page, 'wanji-dialog-1300-zh', { fullPage: false });
    await page.getByTestId('wanji-console-save').click();
    await page.getByTestId('wanji-console-form').waitFor({ state: 'detached' });

    const added = await api('POST', '/api/wanji_admin/consoles', {
      name: 'C',
      url: `https://127.0.0.1:${c.port}`,
      token: tokenC,
      tls: { mode: 'pin', fingerprint: fpC },
    });
    expect(added.ret).toBe(0);
    const list = (await api('GET', '/api/wanji_admin/consoles')).list as { key: string; name: string; token: string }[];
    const keyB = list.find((x) => x.name === 'B')?.key ?? '';
    const keyC = added.console.key as string;
    expect(list.map((x) => x.token)).toEqual(['******', '******']);

    // Both rows answer, with the version B and C report and their modules.
    const health = (key: string) => page.getByTestId(`wanji-health-${key}`).getAttribute('data-state');
    for (const key of [keyB, keyC]) await page.getByTestId(`wanji-refresh-${key}`).click();
    await waitFor(async () => (await health(keyB)) === 'ok' && (await health(keyC)) === 'ok', {
      timeout: 20_000,
      what: 'B and C online',
    });
    const version = (await (await fetch(`${b.base}/version`)).json()).version as string;
    await waitFor(async () => (await page.getByTestId(`wanji-version-${keyB}`).innerText()) === version, {
      timeout: 10_000,
      what: "B's version",
    });
    // C runs nothing: no module tag, the idle and switched-off ones counted (its wanji admin among the idle).
    const restC = await page.getByTestId(`wanji-modules-rest-${keyC}`).innerText();
    expect(restC).toMatch(/\d/);
    expect(restC).toContain(zh.wanji_admin.ui_modulesRest.split('{{')[0].trim());
    // B's row opens to each module's state, reason and error count.
    await page.getByTestId(`wanji-row-${keyB}`).locator('.ant-table-row-expand-icon').click();
    await page.getByTestId(`wanji-detail-${keyB}`).getByText(zh.wanji_admin.ui_hostname).waitFor();
    await shot(page, 'wanji-table-1300-zh');

    // C stops: its row is unreachable, the reason in Chinese.
    await c.stop();
    await page.getByTestId(`wanji-refresh-${keyC}`).click();
    await waitFor(async () => (await health(keyC)) === 'down', { timeout: 20_000, what: 'C unreachable' });
    expect(await page.getByTestId(`wanji-reason-${keyC}`).innerText()).toMatch(
      pattern(zh.wanji_admin.reason_connectRefused),
    );
    expect(await health(keyB)).toBe('ok');
    await shot(page, 'wanji-down-1300-zh');

    // Jump-in: a new tab, logged in to B on its home page; no password typed anywhere.
    const link = page.waitForResponse((r) => r.url().includes(`/consoles/${keyB}/login-link`));
    const popup = page.waitForEvent('popup');
    await page.getByTestId(`wanji-open-${keyB}`).click();
    const tab = await popup;
    pages.push(tab);
    const url = (await (await link).json()).url as string;
    expect(url.startsWith(`https://127.0.0.1:${b.port}/#/login?ticket=`)).toBe(true);
    await tab.getByTestId('status-screen').waitFor({ timeout: 20_000 });
    expect(tab.url()).toBe(`https://127.0.0.1:${b.port}/#/status`);
    expect(await tab.evaluate(() => JSON.parse(localStorage.getItem('lucky') ?? '{}').token)).toBeTruthy();

    // The same link again: refused on B's login page, the password form stays.
    const again = await tab.context().newPage();
    pages.push(again);
    await again.goto(url);
    await again.getByTestId('login-ticket-refused').getByText(zh.login.ticketInvalid).waitFor();
    await again.getByTestId('login-form').waitFor();
    await shot(again, 'wanji-link-refused-1300-zh', { fullPage: false });

    // Bulk restart of B: a result for B (that B really restarts is the server test's:
    // packages/server/test/wanji_admin.consoles.test.ts).
    await page.getByTestId(`wanji-row-${keyB}`).locator('input[type=checkbox]').check();
    await page.getByTestId('wanji-bulk-restart').click();
    await page.getByTestId('wanji-bulk-restart-ok').click();
    const result = page.getByTestId(`wanji-result-${keyB}`);
    await result.waitFor({ timeout: 30_000 });
    expect(await result.getAttribute('data-ok')).toBe('true');
    await shot(page, 'wanji-results-1300-zh', { fullPage: false });
    await page.getByTestId('wanji-results-close').click();

    // The other looks: English in the dark theme, and a phone.
    const dark = await open('en_US', 1300, 'dark');
    await dark.getByTestId(`wanji-health-${keyC}`).waitFor();
    await shot(dark, 'wanji-table-1300-en-dark');
    const phone = await open('zh_CN', 390);
    await phone.getByTestId(`wanji-health-${keyC}`).waitFor();
    await shot(phone, 'wanji-cards-390-zh');
    // Bounded: three programs and a browser on a 2-core machine shared with other work.
  }, 120_000);
});
