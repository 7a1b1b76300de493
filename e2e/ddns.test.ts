// The dynamic DNS screen against the built program and a real PowerDNS: switch the service on
// in the settings dialog, create a task through the form (provider PowerDNS, IP from a local
// "what is my IP" server), see "update succeeded" and the A record in DNS; change the IP, press
// "sync now", see the new record in DNS and in the list. Screenshots in both languages.
import http from 'node:http';
import type net from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type PdnsPeer, query, startPdns } from '../packages/server/test/dns-peers.js';
import { waitFor } from '../packages/server/test/wait.js';
import { apiLogin, en, launchBrowser, newPage, type Program, shot, startProgram, zh } from './harness.js';

let browser: Browser;
let program: Program;
let pdns: PdnsPeer;
let ipServer: http.Server;
let ipUrl: string;
let publicIp = '203.0.113.10';
let ipCalls = 0;
const pages: Page[] = [];

beforeAll(async () => {
  [browser, pdns] = await Promise.all([launchBrowser(), startPdns()]);
  ipServer = http.createServer((_req, res) => {
    ipCalls++;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`${publicIp}\n`);
  });
  await new Promise<void>((r) => ipServer.listen(0, '127.0.0.1', r));
  ipUrl = `http://127.0.0.1:${(ipServer.address() as net.AddressInfo).port}/ip`;
  program = await startProgram();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await program?.stop();
  await pdns?.stop();
  ipServer?.close();
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.context().close();
});

async function open(width = 1300, height = 900): Promise<Page> {
  const { page } = await newPage(browser, width, height);
  pages.push(page);
  await page.goto(`${program.base}/#/login`);
  await page.getByTestId('login-screen').waitFor();
  await page.getByPlaceholder(zh.login.accountPlaceholder).fill('666');
  await page.getByPlaceholder(zh.login.passwordPlaceholder).fill('666');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/#\/status/);
  return page;
}

/** A locale text with its {{params}} filled in, as the screen shows it. */
const filled = (text: string, params: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => params[k] ?? '');

async function onlyTaskKey(): Promise<string> {
  const token = await apiLogin(program.base);
  const r = await (await fetch(`${program.base}/api/ddns/tasks`, { headers: { authorization: token } })).json();
  expect(r.list).toHaveLength(1);
  return r.list[0].key;
}

/** Picks an option of an antd select by typing its text. */
async function choose(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.keyboard.type(text);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
}

describe('dynamic DNS screen', () => {
  it('creates a PowerDNS task through the form, syncs it, and follows an IP change', async () => {
    const page = await open();
    await page.getByTestId('side-menu').getByText(zh.menu.ddns).click();
    await page.waitForURL(/#\/ddns/);
    await page.getByTestId('ddns-screen').waitFor();

    // A new install: the service is off and the screen says so.
    await page.getByTestId('ddns-service-disabled').getByText(zh.ddns.serviceDisabled).waitFor();

    // Global settings: switch the service on, shortest interval; an out-of-range value first.
    await page.getByTestId('ddns-open-settings').click();
    await page.getByTestId('ddns-settings-form').waitFor();
    await page.getByTestId('ddns-settings-enabled').click();
    const interval = page.getByTestId('ddns-settings-interval');
    await interval.fill('10');
    await page.getByTestId('ddns-settings-save').click();
    await page.getByText(zh.ddns.err_rangeInterval).waitFor();
    await interval.fill('30');
    await shot(page, 'ddns-settings-1300-zh', { fullPage: false });
    await page.getByTestId('ddns-settings-save').click();
    await page.getByTestId('ddns-settings-form').waitFor({ state: 'detached' });
    await page.getByTestId('ddns-service-disabled').waitFor({ state: 'detached' });
    expect(await page.getByTestId('ddns-service-switch').getAttribute('aria-checked')).toBe('true');

    // The add dialog: an empty save shows the spec's message on the domain list.
    await page.getByTestId('ddns-add-task').click();
    const form = page.getByTestId('ddns-task-form');
    await form.waitFor();
    await page.getByTestId('ddns-task-save').click();
    await form.getByText(zh.ddns.err_domainsRequired).waitFor();

    await page.getByTestId('ddns-name').fill('家里的 NAS');
    await choose(page, 'ddns-provider', 'PowerDNS');
    // PowerDNS asks for its API URL, key, server id and zone; Cloudflare's token field is gone.
    await page.getByTestId('ddns-cred-server').fill(pdns.apiUrl);
    await page.getByTestId('ddns-cred-secret').fill(pdns.apiKey);
    await page.getByTestId('ddns-cred-id').fill('localhost');
    await page.getByTestId('ddns-cred-zone').fill('home.test');
    await page.getByTestId('ddns-domains').fill('www.home.test');
    await page.getByTestId('ddns-urls').fill(ipUrl);
    await shot(page, 'ddns-dialog-1300-zh', { fullPage: false });
    await page.getByTestId('ddns-task-save').click();
    await form.waitFor({ state: 'detached' });

    const key = await onlyTaskKey();
    const status = page.getByTestId(`ddns-domain-status-${key}-www.home.test`);
    await status.getByText(zh.ddns.sync_succeeded).waitFor({ timeout: 20_000 });
    await page.getByTestId(`ddns-task-ip-${key}`).getByText('203.0.113.10').waitFor();
    await waitFor(
      () => query(pdns.dnsPort, 'www.home.test'),
      (v) => v.join() === '203.0.113.10',
      { timeout: 20_000, interval: 250, what: 'the A record' },
    );
    await shot(page, 'ddns-list-1300-zh');

    // The public IP changes; "sync now" brings the record along.
    publicIp = '203.0.113.11';
    const callsBefore = ipCalls;
    await page.getByTestId(`ddns-task-sync-${key}`).click();
    await page.getByTestId(`ddns-task-ip-${key}`).getByText('203.0.113.11').waitFor({ timeout: 20_000 });
    expect(ipCalls).toBeGreaterThan(callsBefore);
    await waitFor(
      () => query(pdns.dnsPort, 'www.home.test'),
      (v) => v.join() === '203.0.113.11',
      { timeout: 20_000, interval: 250, what: 'the A record after the change' },
    );
    await status.getByText(zh.ddns.sync_succeeded).waitFor();

    // The history shows both addresses, newest first.
    await page.getByTestId(`ddns-task-history-${key}`).click();
    const ipRows = page.getByTestId('ddns-ip-history').locator('tbody tr');
    await ipRows.first().getByText('203.0.113.11').waitFor();
    await ipRows.nth(1).getByText('203.0.113.10').waitFor();
    // Each domain's status changes: created, then updated, in the user's language.
    await page.getByTestId('ddns-task-drawer').getByRole('tab', { name: zh.ddns.domainHistory }).click();
    await page.getByText(filled(zh.ddns.reason_recordUpdated, { type: 'A', ip: '203.0.113.11' })).waitFor();
    await page.getByText(filled(zh.ddns.reason_recordCreated, { type: 'A', ip: '203.0.113.10' })).waitFor();
    await shot(page, 'ddns-history-1300-zh', { fullPage: false });
    await page.keyboard.press('Escape');
    await page.getByTestId('ddns-task-drawer').waitFor({ state: 'hidden' });

    // Editing keeps the stored key: the secret comes back masked and a save keeps it working.
    await page.getByTestId(`ddns-task-edit-${key}`).click();
    await form.waitFor();
    expect(await page.getByTestId('ddns-cred-secret').inputValue()).toBe('******');
    await page.getByTestId('ddns-task-save').click();
    await form.waitFor({ state: 'detached' });
    await status.getByText(zh.ddns.sync_providerSame).or(status.getByText(zh.ddns.sync_succeeded)).waitFor();
    const token = await apiLogin(program.base);
    const view = await (
      await fetch(`${program.base}/api/ddns/tasks/${key}`, { headers: { authorization: token } })
    ).json();
    expect(view.task.state.domains[0].status).not.toBe('failed');
  });

  it('reads well in English: list, dialog in customized mode, settings', async () => {
    const page = await open();
    await page.goto(`${program.base}/#/ddns`);
    await page.getByTestId('ddns-screen').waitFor();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByTestId('language-switch').getByText(en.common.lang_en_US).click(),
    ]);
    await page.getByText(en.ddns.title).first().waitFor();
    const key = await onlyTaskKey();
    await page.getByTestId(`ddns-domain-status-${key}-www.home.test`).waitFor();
    await shot(page, 'ddns-list-1300-en');

    await page.getByTestId(`ddns-task-edit-${key}`).click();
    await page.getByTestId('ddns-task-form').waitFor();
    await page.getByTestId('ddns-mode').getByText(en.ddns.mode_customized).click();
    await page.getByTestId('ddns-force-interval').waitFor();
    await shot(page, 'ddns-dialog-1300-en', { fullPage: false });
    await page.getByRole('button', { name: en.common.cancel }).click();

    await page.getByTestId('ddns-open-settings').click();
    await page.getByTestId('ddns-settings-form').waitFor();
    await shot(page, 'ddns-settings-1300-en', { fullPage: false });
  });
});
