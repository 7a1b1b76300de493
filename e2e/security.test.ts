// The security screen against the built program: the audit log lists the login that just
// happened (in the browser's time zone, with address, actor, action and result) and filters
// it; a refused two-factor code is shown beside its field and goes when the next code succeeds.
import { execFileSync } from 'node:child_process';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { en, launchBrowser, type Program, shot, startProgram, zh } from './harness.js';

let browser: Browser;
let program: Program;
const contexts: BrowserContext[] = [];
/** Not the machine's zone, so the test sees the time converted. */
const ZONE = 'America/Los_Angeles';

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

async function signedIn(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1300, height: 900 }, timezoneId: ZONE });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${program.base}/#/login`);
  await page.getByTestId('login-screen').waitFor();
  await page.getByPlaceholder(zh.login.accountPlaceholder).fill('666');
  await page.getByPlaceholder(zh.login.passwordPlaceholder).fill('666');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/#\/status/);
  return page;
}

/** `YYYY-MM-DD HH:mm` of `when` in ZONE. */
function minuteIn(when: Date): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(when)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

function oathtool(secret: string): string {
  return execFileSync('oathtool', ['--totp', '-b', secret], { encoding: 'utf8' }).trim();
}

describe('audit log screen', () => {
  it('lists the login that just happened, in the browser’s time zone, and filters failures', async () => {
    // A wrong password first (from this machine too).
    await fetch(`${program.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Account: '666', Password: 'wrong' }),
    });
    const before = new Date();
    const page = await signedIn();
    await page.getByTestId('side-menu').getByText(zh.menu.safe).click();
    await page.getByRole('tab', { name: zh.safe.tabAudit }).click();
    await page.waitForURL(/tab=audit/);
    const rows = page.getByTestId('audit-table').locator('tbody tr.ant-table-row');
    await rows.first().waitFor();
    const first = rows.first();
    await first.getByText(zh.safe.auditAction_login, { exact: true }).waitFor();
    expect(await first.innerText()).toContain('POST /api/login');
    expect(await first.innerText()).toContain('127.0.0.1');
    expect(await first.innerText()).toContain('666');
    await first.getByText(zh.safe.auditResult_ok, { exact: true }).waitFor();
    const time = await first.locator('.audit-time').innerText();
    expect([minuteIn(before), minuteIn(new Date())]).toContain(time.slice(0, 16));
    await page.waitForTimeout(300);
    await shot(page, 'audit-1300-zh');

    // Only failures: the wrong password, with the server's reason.
    await page.getByTestId('audit-result-filter').click();
    await page.locator('.ant-select-item-option').getByText(zh.safe.auditResult_failed, { exact: true }).click();
    await expect
      .poll(async () => {
        const texts = await rows.allInnerTexts();
        return texts.length > 0 && texts.every((x) => x.includes(zh.safe.auditResult_failed));
      })
      .toBe(true);
    expect(await rows.first().innerText()).toMatch(/wrong account or password/);
    // Text search on top: nothing failed matches "logout".
    await page.getByTestId('audit-search').locator('input').fill('logout');
    await page.getByTestId('audit-search').locator('input').press('Enter');
    await page.getByTestId('audit-table').locator('.ant-empty').waitFor();
  });

  it('reads well in English', async () => {
    const page = await signedIn();
    await page.goto(`${program.base}/#/safe?tab=audit`);
    await Promise.all([
      page.waitForEvent('load'),
      page.getByTestId('language-switch').getByText(en.common.lang_en_US).click(),
    ]);
    await page.getByTestId('audit-table').locator('tbody tr.ant-table-row').first().waitFor();
    await page.getByText(en.safe.auditTitle).first().waitFor();
    await page.getByTestId('audit-table').getByText(en.safe.auditAction_login).first().waitFor();
    await page.waitForTimeout(300);
    await shot(page, 'audit-1300-en');
  });
});

describe('two-factor set-up', () => {
  it('shows a wrong code beside its field, and a right one next only the success', async () => {
    const page = await signedIn();
    await page.goto(`${program.base}/#/safe?tab=2fa`);
    await page.getByTestId('twofa-start').click();
    const secret = (await page.getByTestId('twofa-secret').innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

    const code = page.getByTestId('twofa-enable-code');
    const item = page.locator('.ant-form-item').filter({ has: code });
    await code.fill(oathtool(secret) === '000000' ? '111111' : '000000');
    await page.getByTestId('twofa-enable-submit').click();
    await item.getByText(zh.errors.twoFAWrong).waitFor();
    // Beside the field, not as a message that would outlive the fix.
    expect(await page.locator('.ant-message-notice-error').count()).toBe(0);
    await page.waitForTimeout(300);
    await shot(page, 'twofa-wrong-code-1300-zh', { fullPage: false });

    await code.fill(oathtool(secret));
    await page.getByTestId('twofa-enable-submit').click();
    await page.getByText(zh.safe.twoFAEnabled).first().waitFor();
    await page.getByTestId('recovery-codes').waitFor();
    expect(await page.getByText(zh.errors.twoFAWrong).count()).toBe(0);
    expect(await page.locator('.ant-message-notice-error').count()).toBe(0);
    await shot(page, 'twofa-enabled-1300-zh', { fullPage: false });

    // Off again for the other tests of this file (this session and the password turn it off).
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('lucky') ?? '{}').token);
    const off = await fetch(`${program.base}/api/twofa/disable`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ password: '666' }),
    });
    expect((await off.json()).ret).toBe(0);
  });
});
