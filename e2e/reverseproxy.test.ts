// The web service screen against the built program: a rule (listener) and a sub rule made
// through the forms (a refused address first), a real HTTP client through the proxy to a
// back end on loopback, the request in the access log view, and the sub rule switched off
// and on from its card. Screens at 1300×900 and 700 px wide, in Chinese and English.
import http from 'node:http';
import type net from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiLogin,
  en,
  freePort,
  launchBrowser,
  type Program,
  shot,
  signedInPage,
  startProgram,
  zh,
} from './harness.js';

let browser: Browser;
let program: Program;
let backend: http.Server;
let backendPort: number;
let listenPort: number;
const pages: Page[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  program = await startProgram();
  // The back end tells what it received, so the test sees the path and the forwarded headers.
  backend = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end(
      `hello from the back end: ${req.method} ${req.url} host=${req.headers.host} xff=${req.headers['x-forwarded-for']}`,
    );
  });
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
  backendPort = (backend.address() as net.AddressInfo).port;
  listenPort = await freePort();
});
afterAll(async () => {
  await browser?.close();
  await program?.stop();
  backend?.closeAllConnections();
  backend?.close();
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.context().close();
});

/** One API session for the file's pages (the login screen has its own tests). */
let session: string | undefined;
const sessionToken = async () => {
  session ??= await apiLogin(program.base);
  return session;
};

async function open(width = 1300, height = 900): Promise<Page> {
  const { page } = await signedInPage(browser, program.base, await sessionToken(), { width: width, height: height });
  pages.push(page);
  return page;
}

/** GET through the proxy with a Host header, as a browser on another machine would send it. */
function viaProxy(host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: listenPort, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('timed out')));
  });
}

async function ruleByName(name: string): Promise<{ key: string; subRules: { key: string; name: string }[] }> {
  const token = await apiLogin(program.base);
  const r = await (await fetch(`${program.base}/api/reverseproxy/rules`, { headers: { authorization: token } })).json();
  const rule = r.list.find((x: { name: string }) => x.name === name);
  if (!rule) throw new Error(`no rule named ${name}`);
  return rule;
}

/** The form item (label, control, message) around a control. */
const itemOf = (page: Page, testId: string) => page.locator('.ant-form-item').filter({ has: page.getByTestId(testId) });

describe('web service screen', () => {
  it('adds a rule and a sub rule through the forms, proxies a real request and shows it in the access log', async () => {
    const page = await open();
    await page.getByTestId('side-menu').getByText(zh.menu.reverseproxy).click();
    await page.waitForURL(/#\/web/);
    await page.getByTestId('reverseproxy-screen').waitFor();
    await page.getByTestId('rp-empty').getByText(zh.reverseproxy.noRules).waitFor();

    // A listening address that is not an IP is refused with the spec's message.
    await page.getByTestId('rp-add-rule').click();
    const form = page.getByTestId('rp-rule-form');
    await form.waitFor();
    await page.getByTestId('rp-rule-name').fill('e2e site');
    await page.getByTestId('rp-address').fill('127.0.0.300');
    await page.getByTestId('rp-port').fill(String(listenPort));
    await page.getByTestId('rp-rule-save').click();
    await itemOf(page, 'rp-address').getByText(zh.reverseproxy.err_listenAddressInvalid).waitFor();
    expect(await form.isVisible()).toBe(true);
    await shot(page, 'reverseproxy-rule-dialog-1300-zh', { fullPage: false });
    await page.getByTestId('rp-address').fill('127.0.0.1');
    await itemOf(page, 'rp-address').getByText(zh.reverseproxy.err_listenAddressInvalid).waitFor({ state: 'detached' });
    await form.locator('.ant-collapse-title').getByText(zh.reverseproxy.panelLog, { exact: true }).click();
    await page.getByTestId('rp-log-capacity').waitFor();
    await shot(page, 'reverseproxy-rule-dialog-advanced-1300-zh', { fullPage: false });
    await page.getByTestId('rp-rule-save').click();
    await form.waitFor({ state: 'detached' });

    const rule = await ruleByName('e2e site');
    const state = page.getByTestId(`rp-rule-state-${rule.key}`);
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 10_000 }).toBe('running');
    // Nothing takes app.test yet: the default rule (no back end) answers 404.
    expect((await viaProxy('app.test', '/')).status).toBe(404);

    // The sub rule: an empty domain list is refused first.
    await page.getByTestId(`rp-rule-add-sub-${rule.key}`).click();
    const sub = page.getByTestId('rp-sub-form');
    await sub.waitFor();
    await page.getByTestId('rp-sub-save').click();
    await itemOf(page, 'rp-domains').getByText(zh.reverseproxy.err_domainRequired).waitFor();
    await shot(page, 'reverseproxy-subrule-dialog-1300-zh', { fullPage: false });
    await page.getByTestId('rp-sub-name').fill('app');
    await page.getByTestId('rp-domains').fill('app.test');
    await page.getByTestId('rp-targets').fill(`http://127.0.0.1:${backendPort}`);
    await sub.locator('.ant-collapse-title').getByText(zh.reverseproxy.panelAuth, { exact: true }).click();
    await page.getByTestId('rp-auth-enable').waitFor();
    await shot(page, 'reverseproxy-subrule-dialog-advanced-1300-zh', { fullPage: false });
    await page.getByTestId('rp-sub-save').click();
    await sub.waitFor({ state: 'detached' });
    const subKey = (await ruleByName('e2e site')).subRules.find((s) => s.name === 'app')?.key;
    expect(subKey).toBeTruthy();
    await page.getByTestId(`rp-sub-${subKey}`).getByText('app.test').waitFor();

    // A real client through the proxy reaches the back end.
    const answer = await viaProxy('app.test', '/hello?x=1');
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('hello from the back end: GET /hello?x=1 host=app.test xff=127.0.0.1');

    // The request shows in the newest lines of the card and in the sub rule's access log.
    await expect
      .poll(
        async () => {
          await page.getByTestId('rp-refresh').click();
          return page.getByTestId(`rp-rule-recent-${rule.key}`).textContent();
        },
        { timeout: 10_000 },
      )
      .toContain('/hello?x=1');
    await page
      .getByTestId(`rp-rule-recent-${rule.key}`)
      .getByText(/最近日志/)
      .click();
    await page.getByTestId('rp-recent-lines').waitFor();
    await shot(page, 'reverseproxy-list-1300-zh');

    await page.getByTestId(`rp-sub-logs-${subKey}`).click();
    const table = page.getByTestId('rp-log-table');
    await table.getByText(/GET http:\/\/app\.test(:\d+)?\/hello\?x=1 200/).waitFor();
    await table.locator('.rule-log-level-tag').getByText(zh.common.logLevel_info).first().waitFor();
    await shot(page, 'reverseproxy-log-1300-zh', { fullPage: false });
    await page.keyboard.press('Escape');
    await table.waitFor({ state: 'detached' });

    // The proxied page opened in the browser itself, by its name (app.test maps to loopback).
    const visitor = await page.context().newPage();
    try {
      const opened = await visitor.goto(`http://app.test:${listenPort}/from-browser`);
      expect(opened?.status()).toBe(200);
      expect(await visitor.textContent('body')).toContain('hello from the back end: GET /from-browser host=app.test');
    } finally {
      await visitor.close();
    }

    // The sub rule switched off from its card: the default rule answers again; on: proxied again.
    await page.getByTestId(`rp-sub-switch-${subKey}`).click();
    await expect.poll(async () => (await viaProxy('app.test', '/')).status, { timeout: 5000 }).toBe(404);
    await page.getByTestId(`rp-sub-switch-${subKey}`).click();
    await expect.poll(async () => (await viaProxy('app.test', '/')).status, { timeout: 5000 }).toBe(200);
  });

  it('reads well in English and at 700 px; deletes a sub rule after confirmation', async () => {
    const page = await open();
    await page.goto(`${program.base}/#/web`);
    await page.getByTestId('reverseproxy-screen').waitFor();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByTestId('language-switch').getByText(en.common.lang_en_US).click(),
    ]);
    const rule = await ruleByName('e2e site');
    await page.getByTestId(`rp-rule-state-${rule.key}`).getByText(en.reverseproxy.state_running).waitFor();
    await shot(page, 'reverseproxy-list-1300-en');

    const subKey = rule.subRules[0].key;
    await page.getByTestId(`rp-sub-edit-${subKey}`).click();
    const sub = page.getByTestId('rp-sub-form');
    await sub.waitFor();
    expect(await page.getByTestId('rp-domains').inputValue()).toBe('app.test');
    await shot(page, 'reverseproxy-subrule-dialog-1300-en', { fullPage: false });
    await page.getByRole('button', { name: en.common.cancel }).click();
    await sub.waitFor({ state: 'detached' });

    // Up to 768 px the dialogs take the whole window.
    await page.setViewportSize({ width: 700, height: 900 });
    await shot(page, 'reverseproxy-list-700-en');
    await page.getByTestId(`rp-rule-edit-${rule.key}`).click();
    const dialog = page.locator('.rp-rule-dialog .ant-modal-container');
    await expect.poll(async () => Math.round((await dialog.boundingBox())?.width ?? 0)).toBe(700);
    expect(await page.getByTestId('rp-rule-name').inputValue()).toBe('e2e site');
    await shot(page, 'reverseproxy-rule-dialog-700-en', { fullPage: false });
    await page.getByRole('button', { name: en.common.cancel }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByTestId(`rp-sub-delete-${subKey}`).click();
    await page.getByRole('button', { name: en.common.confirm }).click();
    await page.getByTestId(`rp-sub-empty-${rule.key}`).waitFor();
    expect((await viaProxy('app.test', '/')).status).toBe(404);
  });

  it('deletes the rule after confirmation in Chinese, and its port closes', async () => {
    const page = await open();
    await page.goto(`${program.base}/#/web`);
    const rule = await ruleByName('e2e site');
    await page.getByTestId(`rp-rule-delete-${rule.key}`).click();
    await page.getByRole('button', { name: zh.common.confirm, exact: true }).click();
    await page.getByTestId('rp-empty').waitFor();
    await expect
      .poll(() =>
        viaProxy('app.test', '/').then(
          () => 'open',
          (e: NodeJS.ErrnoException) => e.code,
        ),
      )
      .toBe('ECONNREFUSED');
  });

  it('network type and custom config from the dialog: an IPv4-only listener that adds an answer header', async () => {
    const page = await open();
    await page.goto(`${program.base}/#/web`);
    await page.getByTestId('reverseproxy-screen').waitFor();
    await page.getByTestId('rp-add-rule').click();
    const form = page.getByTestId('rp-rule-form');
    await form.waitFor();
    const port = await freePort();
    await page.getByTestId('rp-rule-name').fill('ipv4 only');
    await page.getByTestId('rp-network').getByText(zh.reverseproxy.network_tcp4, { exact: true }).click();
    await page.getByTestId('rp-port').fill(String(port));
    await form.getByText(zh.reverseproxy.type_text, { exact: true }).click();
    await page.getByTestId('rp-text').fill('hello over IPv4');
    await form.locator('.ant-collapse-title').getByText(zh.reverseproxy.panelCustom, { exact: true }).click();
    const custom = page.getByTestId('rp-custom-config');
    // A directive the console does not know is named with its line as it is typed.
    await custom.fill('add_header X-Custom "from config";\nproxy_pass http://elsewhere;');
    const refused = zh.reverseproxy.err_customConfigUnknown.replace('{{line}}', '2').replace('{{token}}', 'proxy_pass');
    await itemOf(page, 'rp-custom-config').getByText(refused).waitFor();
    await shot(page, 'reverseproxy-custom-config-1300-zh', { fullPage: false });
    await custom.fill('add_header X-Custom "from config";\nproxy_hide_header X-Powered-By');
    await itemOf(page, 'rp-custom-config').getByText(refused).waitFor({ state: 'detached' });
    await page.getByTestId('rp-rule-save').click();
    await form.waitFor({ state: 'detached' });

    const rule = await ruleByName('ipv4 only');
    await expect
      .poll(() => page.getByTestId(`rp-rule-state-${rule.key}`).getAttribute('data-state'), { timeout: 10_000 })
      .toBe('running');
    await page.getByTestId(`rp-rule-network-${rule.key}`).getByText(zh.reverseproxy.network_tcp4).waitFor();
    // The listener takes IPv4 clients only, and the answer carries the custom header.
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get({ host: '127.0.0.1', port, path: '/' }, resolve).on('error', reject),
    );
    answer.resume();
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-custom']).toBe('from config');
    const v6 = await new Promise<string>((resolve) =>
      http
        .get({ host: '::1', port, path: '/' }, (r) => {
          r.resume();
          resolve(`status ${r.statusCode}`);
        })
        .on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message)),
    );
    expect(v6).toBe('ECONNREFUSED');
    await shot(page, 'reverseproxy-ipv4-rule-1300-zh');
  });
});
