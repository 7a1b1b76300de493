// The ACME screen against the built program and pebble (Let's Encrypt's test CA; its DNS peer
// answers every name with 127.0.0.1): in the screen, an account for pebble's directory with the
// root of its TLS, a certificate for a name by HTTP-01 on the port pebble validates, ordered and
// shown valid with its expiry; renew now gives a new certificate. Screenshots in both languages,
// at 1300 px and phone width, and dark.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PebblePeer, startPebble } from '../packages/server/test/pebble.js';
import { waitFor } from '../packages/server/test/wait.js';
import {
  apiLogin,
  callApi,
  chooseOption,
  en,
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
let pebble: PebblePeer;
let token: string;
const pages: Page[] = [];

const api = (method: string, p: string, body?: unknown) => callApi(program.base, token, method, p, body);
interface Listed {
  key: string;
  name: string;
  status: { state: string; serial?: string; notAfter?: string };
}
const certOf = async (name: string): Promise<Listed | undefined> =>
  ((await api('GET', '/api/acme')).certificates as Listed[]).find((c) => c.name === name);

beforeAll(async () => {
  [browser, program, pebble] = await Promise.all([launchBrowser(), startProgram(), startPebble()]);
  token = await apiLogin(program.base);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await program?.stop();
  await pebble?.stop();
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.context().close();
});

async function open(lang: 'zh_CN' | 'en_US', width = 1300, height = 900, theme = 'light'): Promise<Page> {
  const { page } = await newPage(browser, width, height);
  pages.push(page);
  await page.addInitScript(
    ([lang, token, theme]) => localStorage.setItem('lucky', JSON.stringify({ lang, token, theme })),
    [lang, token, theme] as const,
  );
  await page.goto(`${program.base}/#/acme`);
  await page.getByTestId('acme-screen').waitFor();
  return page;
}

/** The text box inside an antd control that carries the test id (InputNumber, Select). */
const inputIn = (page: Page, testId: string) =>
  page.locator(`[data-testid="${testId}"]`).locator('xpath=descendant-or-self::input').first();

describe('ACME screen', () => {
  it('an account for pebble and a certificate by HTTP-01 set in the screen; it becomes valid with its expiry, and renews', async () => {
    const page = await open('en_US');
    await page.getByTestId('acme-add-account').click();
    await page.getByTestId('acme-account-name').fill('pebble');
    await chooseOption(page, 'acme-account-ca', en.acme.account_ca_custom);
    await page.getByTestId('acme-account-directory-url').fill(pebble.directoryUrl);
    await page.getByTestId('acme-account-ca-cert').fill(pebble.caCertPem);
    await shot(page, 'acme-account-dialog-1300-en', { fullPage: false });
    await page.getByTestId('acme-account-save').click();
    await page.getByTestId('acme-account-form').waitFor({ state: 'detached' });
    await page.getByTestId('acme-accounts').getByText('pebble', { exact: true }).waitFor();

    await page.getByTestId('acme-add-cert').click();
    await page.getByTestId('acme-cert-name').fill('home');
    const names = inputIn(page, 'acme-cert-names');
    // The name pebble resolves to this machine, validated on the port pebble connects to.
    await names.fill('home.test');
    await names.press('Enter');
    await inputIn(page, 'acme-cert-http-port').fill(String(pebble.httpPort));
    await page.getByTestId('acme-cert-save').click();
    await page.getByTestId('acme-cert-form').waitFor({ state: 'detached' });

    const added = await certOf('home');
    expect(added).toBeDefined();
    const key = (added as Listed).key;
    const state = page.getByTestId(`acme-cert-state-${key}`);
    // Ordered at once (or by the button when the scheduler has not started it yet).
    const issue = page.getByTestId(`acme-cert-issue-${key}`);
    if ((await state.getAttribute('data-state')) === 'pending' && (await issue.isEnabled())) await issue.click();
    await waitFor(async () => (await state.getAttribute('data-state')) === 'valid', {
      timeout: 40_000,
      interval: 200,
      what: 'the certificate valid on screen',
    });
    const first = (await certOf('home'))?.status;
    expect(first?.notAfter).toBeTruthy();
    const expiry = page.getByTestId(`acme-cert-expiry-${key}`);
    expect(await expiry.innerText()).toContain((first?.notAfter ?? '').slice(0, 4));
    expect(await expiry.innerText()).toMatch(/\d+ d left/);
    await page
      .getByTestId(`acme-account-registered-${(await api('GET', '/api/acme')).accounts[0].key}`)
      .getByText(en.acme.account_registeredYes)
      .waitFor();
    await shot(page, 'acme-valid-1300-en');

    // Renew now: a new certificate (another serial) in place.
    await issue.click();
    await waitFor(async () => (await certOf('home'))?.status.serial !== first?.serial, {
      timeout: 40_000,
      interval: 200,
      what: 'a renewed certificate',
    });
    await waitFor(async () => (await state.getAttribute('data-state')) === 'valid', {
      timeout: 10_000,
      interval: 200,
      what: 'valid again on screen',
    });

    await page.getByTestId('acme-open-logs').click();
    await page.getByTestId('acme-log-table').waitFor();
    await shot(page, 'acme-log-1300-en', { fullPage: false });
    await page.keyboard.press('Escape');
    await page.getByTestId('acme-log-drawer').waitFor({ state: 'hidden' });

    // Phone width: certificates as cards, the dialog over the whole window.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId(`acme-cert-card-${key}`).waitFor();
    await shot(page, 'acme-valid-390-en');
    await page.getByTestId(`acme-cert-edit-${key}`).click();
    await page.getByTestId('acme-cert-form').waitFor();
    await shot(page, 'acme-cert-dialog-390-en', { fullPage: false });
  });

  it('a failed order shows its reason in Chinese; looks right dark, at 1300 px and phone width', async () => {
    // The responder listens on another port than the one pebble connects to: validation fails.
    const account = (await api('GET', '/api/acme')).accounts[0].key;
    const added = await api('POST', '/api/acme/certificates', {
      name: 'broken',
      account,
      names: ['broken.test'],
      http: { port: await freePort() },
    });
    expect(added.ret).toBe(0);
    const key = added.certificate.key as string;
    await waitFor(async () => (await certOf('broken'))?.status.state === 'failing', {
      timeout: 20_000,
      interval: 200,
      what: 'the order failing',
    });
    const page = await open('zh_CN', 1300, 900, 'dark');
    const reason = page.getByTestId(`acme-cert-reason-${key}`);
    await reason.waitFor();
    // The reason in Chinese with the CA's own words after it; no key, no English sentence.
    const prefix = (zh.acme.reason_validationFailed as string)
      .replace('{{type}}', 'http-01')
      .replace('{{name}}', 'broken.test')
      .split('{{detail}}')[0];
    const text = await reason.innerText();
    expect(text.startsWith(prefix) && text.length > prefix.length).toBe(true);
    await page.getByTestId('acme-certificates').getByText('home', { exact: true }).waitFor();
    await shot(page, 'acme-valid-1300-zh-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.acme-cert-card').first().waitFor();
    await shot(page, 'acme-valid-390-zh-dark');
  });
});
