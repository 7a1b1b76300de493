// The port-forwarding screen against the built program: switch the module on,
// add a rule through the form (a rejected one first), relay real bytes to an
// echo server on loopback, watch the figures, switch the rule off and on.
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
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
let tcpEcho: net.Server;
let udpEcho: dgram.Socket;
let tcpEchoPort: number;
let udpEchoPort: number;
const pages: Page[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  program = await startProgram();
  tcpEcho = net.createServer((s) => s.pipe(s));
  await new Promise<void>((r) => tcpEcho.listen(0, '127.0.0.1', r));
  tcpEchoPort = (tcpEcho.address() as net.AddressInfo).port;
  udpEcho = dgram.createSocket('udp4');
  udpEcho.on('message', (msg, from) => udpEcho.send(msg, from.port, from.address));
  await new Promise<void>((r) => udpEcho.bind(0, '127.0.0.1', r));
  udpEchoPort = udpEcho.address().port;
});
afterAll(async () => {
  await browser?.close();
  await program?.stop();
  tcpEcho?.close();
  udpEcho?.close();
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

/** Sends `payload` through `port` and resolves with what came back once it is all there. */
function tcpRoundTrip(port: number, payload: Buffer, host = '127.0.0.1'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let got = 0;
    const s = net.connect(port, host, () => s.write(payload));
    s.on('data', (b) => {
      chunks.push(b);
      got += b.length;
      if (got >= payload.length) s.end();
    });
    s.on('close', () => resolve(Buffer.concat(chunks)));
    s.on('error', reject);
    s.setTimeout(10_000, () => s.destroy(new Error('timed out')));
  });
}

/** The error code of a connection attempt, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => {
      s.destroy();
      resolve('connected');
    });
    s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

function udpRoundTrip(port: number, payload: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket('udp4');
    const timer = setTimeout(() => {
      s.close();
      reject(new Error('no UDP answer'));
    }, 5000);
    s.on('message', (msg) => {
      clearTimeout(timer);
      s.close();
      resolve(msg);
    });
    s.send(payload, port, '127.0.0.1');
  });
}

async function ruleKeyByName(name: string): Promise<string> {
  const token = await apiLogin(program.base);
  const r = await (await fetch(`${program.base}/api/portforward/rules`, { headers: { authorization: token } })).json();
  const rule = r.list.find((x: { name: string }) => x.name === name);
  if (!rule) throw new Error(`no rule named ${name}`);
  return rule.key;
}

/** Types entries into the target-address tag box. */
async function addTarget(page: Page, address: string): Promise<void> {
  const box = page.getByTestId('pf-target-addresses').getByRole('combobox');
  await box.fill(address);
  await box.press('Enter');
}

/** The form item (label, control, message) around a control. */
const itemOf = (page: Page, testId: string) => page.locator('.ant-form-item').filter({ has: page.getByTestId(testId) });

const fill = (text: string, vars: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k) => String(vars[k]));

describe('port forwarding screen', () => {
  it('adds a TCP rule through the form, relays bytes, and switches it off and on', async () => {
    // Another rule already listens on this port: the server refuses the first save.
    const takenPort = await freePort();
    const token = await apiLogin(program.base);
    const other = await fetch(`${program.base}/api/portforward/rules`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'other',
        forwardTypes: ['tcp4'],
        listenPorts: String(takenPort),
        targetAddresses: ['127.0.0.1'],
        targetPorts: String(tcpEchoPort),
      }),
    });
    expect((await other.json()).ret).toBe(0);

    const page = await open();
    await page.getByTestId('side-menu').getByText(zh.menu.portforward).click();
    await page.waitForURL(/#\/portforward/);
    await page.getByTestId('portforward-screen').waitFor();

    // The module is off on a new install: the screen says so and offers to switch it on.
    const banner = page.getByTestId('pf-module-disabled');
    await banner.getByText(zh.portforward.moduleDisabled).waitFor();
    await banner.getByTestId('pf-module-enable').click();
    await banner.waitFor({ state: 'detached' });
    expect(await page.getByTestId('pf-module-switch').getAttribute('aria-checked')).toBe('true');

    // An invalid rule first: no forward type, nothing filled in → the spec's messages.
    await page.getByTestId('pf-add-rule').click();
    const form = page.getByTestId('pf-rule-form');
    await form.waitFor();
    await page.getByTestId('pf-type-tcp').click();
    await page.getByTestId('pf-rule-save').click();
    await form.getByText(zh.portforward.err_typesRequired).waitFor();
    await form.getByText(zh.portforward.err_listenPortsRequired).waitFor();
    await form.getByText(zh.portforward.err_targetAddressRequired).waitFor();
    await form.getByText(zh.portforward.err_targetPortsRequired).waitFor();
    await shot(page, 'portforward-dialog-invalid-1300-zh', { fullPage: false });

    // Then a valid form on a port another rule uses: the server's reason lands on the field.
    const listenPort = await freePort();
    await form.getByLabel(zh.portforward.name, { exact: true }).fill('echo');
    await page.getByTestId('pf-type-tcp4').click();
    await page.getByTestId('pf-listen-ports').fill(String(takenPort));
    await addTarget(page, '127.0.0.1');
    await page.getByTestId('pf-target-ports').fill(String(tcpEchoPort));
    await page.getByTestId('pf-rule-save').click();
    const conflict = fill(zh.portforward.err_portConflict, { protocol: 'TCP', port: takenPort, rule: 'other' });
    await itemOf(page, 'pf-listen-ports').getByText(conflict).waitFor();
    expect(await form.isVisible()).toBe(true);

    await page.getByTestId('pf-listen-ports').fill(String(listenPort));
    await page.getByTestId('pf-rule-save').click();
    await form.waitFor({ state: 'detached' });
    const key = await ruleKeyByName('echo');
    const state = page.getByTestId(`pf-rule-state-${key}`);
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 10_000 }).toBe('running');

    // Bytes flow through the forwarder, exactly, both ways.
    const payload = randomBytes(256 * 1024);
    expect((await tcpRoundTrip(listenPort, payload)).equals(payload)).toBe(true);

    // A connection kept open shows in the live figures.
    const held = net.connect(listenPort, '127.0.0.1');
    await new Promise((r) => held.once('connect', r));
    held.write(randomBytes(4096));
    const figures = page.getByTestId(`pf-rule-figures-${key}`);
    await expect
      .poll(
        async () => {
          await page.getByTestId('pf-refresh').click();
          return figures.textContent();
        },
        { timeout: 10_000 },
      )
      .toContain('1 / 256');
    expect(await figures.textContent()).toMatch(/KB/);
    await page.getByTestId(`pf-rule-${key}`).getByText(zh.portforward.recentLogs.split('（')[0]).click();
    await page.getByTestId('pf-recent-lines').waitFor();
    await shot(page, 'portforward-list-1300-zh');
    held.destroy();

    // Switched off in the UI: the port closes.
    await page.getByTestId(`pf-rule-switch-${key}`).click();
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 10_000 }).toBe('disabled');
    await expect.poll(() => tryConnect(listenPort), { timeout: 5000 }).toBe('ECONNREFUSED');

    // And on again: it forwards again.
    await page.getByTestId(`pf-rule-switch-${key}`).click();
    await expect.poll(() => state.getAttribute('data-state'), { timeout: 10_000 }).toBe('running');
    const again = Buffer.from('hello again');
    expect((await tcpRoundTrip(listenPort, again)).toString()).toBe('hello again');
  });

  it('a rule saved with the dialog’s defaults takes IPv4 and IPv6 clients (dual-stack TCP)', async () => {
    const page = await open();
    await page.goto(`${program.base}/#/portforward`);
    await page.getByTestId('portforward-screen').waitFor();
    await page.getByTestId('pf-add-rule').click();
    const form = page.getByTestId('pf-rule-form');
    await form.waitFor();
    // Only the dual-stack TCP box is ticked.
    const ticked: string[] = [];
    for (const type of ['tcp4', 'tcp6', 'tcp', 'udp4', 'udp6', 'udp'])
      if (await page.getByTestId(`pf-type-${type}`).isChecked()) ticked.push(type);
    expect(ticked).toEqual(['tcp']);
    const listenPort = await freePort();
    await form.getByLabel(zh.portforward.name, { exact: true }).fill('defaults');
    await page.getByTestId('pf-listen-ports').fill(String(listenPort));
    await addTarget(page, '127.0.0.1');
    await page.getByTestId('pf-target-ports').fill(String(tcpEchoPort));
    await page.getByTestId('pf-rule-save').click();
    await form.waitFor({ state: 'detached' });
    const key = await ruleKeyByName('defaults');
    await expect
      .poll(() => page.getByTestId(`pf-rule-state-${key}`).getAttribute('data-state'), { timeout: 10_000 })
      .toBe('running');
    expect((await tcpRoundTrip(listenPort, Buffer.from('over IPv4'))).toString()).toBe('over IPv4');
    expect((await tcpRoundTrip(listenPort, Buffer.from('over IPv6'), '::1')).toString()).toBe('over IPv6');
  });

  it('adds a UDP rule and relays a datagram', async () => {
    const page = await open();
    await page.goto(`${program.base}/#/portforward`);
    await page.getByTestId('portforward-screen').waitFor();
    await page.getByTestId('pf-add-rule').click();
    const form = page.getByTestId('pf-rule-form');
    await form.waitFor();
    const listenPort = await freePort();
    await form.getByLabel(zh.portforward.name, { exact: true }).fill('udp echo');
    await page.getByTestId('pf-type-tcp').click();
    await page.getByTestId('pf-type-udp4').click();
    await page.getByTestId('pf-listen-ports').fill(String(listenPort));
    await addTarget(page, '127.0.0.1');
    await page.getByTestId('pf-target-ports').fill(String(udpEchoPort));
    // The advanced part: UDP fields show for a UDP rule.
    await form.getByText(zh.portforward.panelLimits, { exact: true }).click();
    await form.getByText(zh.portforward.udpTimeout).waitFor();
    await shot(page, 'portforward-dialog-1300-zh', { fullPage: false });
    await page.getByTestId('pf-rule-save').click();
    await form.waitFor({ state: 'detached' });
    const key = await ruleKeyByName('udp echo');
    await expect
      .poll(() => page.getByTestId(`pf-rule-state-${key}`).getAttribute('data-state'), { timeout: 10_000 })
      .toBe('running');
    const reply = await udpRoundTrip(listenPort, Buffer.from('ping over udp'));
    expect(reply.toString()).toBe('ping over udp');
  });

  it('reads well in English: list, dialog and log', async () => {
    const page = await open();
    await page.goto(`${program.base}/#/portforward`);
    await page.getByTestId('portforward-screen').waitFor();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByTestId('language-switch').getByText(en.common.lang_en_US).click(),
    ]);
    await page.getByText(en.portforward.title).first().waitFor();
    const key = await ruleKeyByName('echo');
    await page.getByTestId(`pf-rule-state-${key}`).getByText(en.portforward.state_running).waitFor();

    // A port taken by another program: an error on that rule, with the reason; the rest runs.
    const token = await apiLogin(program.base);
    const busy = await fetch(`${program.base}/api/portforward/rules`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'busy port',
        forwardTypes: ['tcp4'],
        listenPorts: String(tcpEchoPort),
        targetAddresses: ['127.0.0.1'],
        targetPorts: '9',
      }),
    });
    const busyKey = (await busy.json()).key;
    await page.getByTestId('pf-refresh').click();
    await page.getByTestId(`pf-rule-state-${busyKey}`).getByText(en.portforward.state_error).waitFor();
    await page
      .getByTestId(`pf-rule-error-${busyKey}`)
      .getByText(/EADDRINUSE|in use/)
      .waitFor();
    await page.getByTestId(`pf-rule-state-${key}`).getByText(en.portforward.state_running).waitFor();
    await shot(page, 'portforward-list-1300-en');

    await page.getByTestId('pf-open-settings').click();
    await page.getByTestId('pf-settings-form').waitFor();
    await shot(page, 'portforward-settings-1300-en', { fullPage: false });
    await page.getByRole('button', { name: en.common.cancel }).click();
    await page.getByTestId('pf-settings-form').waitFor({ state: 'detached' });

    await page.getByTestId(`pf-rule-edit-${key}`).click();
    const form = page.getByTestId('pf-rule-form');
    await form.waitFor();
    expect(await page.getByTestId('pf-listen-ports').inputValue()).not.toBe('');
    await form.getByText(en.portforward.panelTls, { exact: true }).click();
    await form.getByText(en.portforward.tls_terminate).click();
    // A PEM file goes through api/getfilebase64 and lands in the text box.
    const pem = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
    await page
      .locator('.pem-input')
      .first()
      .locator('input[type=file]')
      .setInputFiles({ name: 'cert.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(pem) });
    await expect.poll(() => page.getByTestId('pf-tls-cert').inputValue()).toBe(pem.trim());
    await shot(page, 'portforward-dialog-1300-en', { fullPage: false });
    await page.getByRole('button', { name: en.common.cancel }).click();
    await form.waitFor({ state: 'detached' });

    await page.getByTestId(`pf-rule-logs-${key}`).click();
    const drawer = page.getByTestId('pf-log-table');
    await drawer.waitFor();
    await drawer.locator('.rule-log-level-tag').first().waitFor();
    await shot(page, 'portforward-logs-1300-en', { fullPage: false });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // Up to 768 px the dialog takes the whole window.
    await page.setViewportSize({ width: 700, height: 900 });
    await page.getByTestId('pf-add-rule').click();
    const dialog = page.locator('.pf-rule-dialog .ant-modal-container');
    await expect.poll(async () => Math.round((await dialog.boundingBox())?.width ?? 0)).toBe(700);
    // A fresh form: nothing left from the edit that was cancelled.
    expect(await page.getByTestId('pf-listen-ports').inputValue()).toBe('');
    await shot(page, 'portforward-dialog-700-en', { fullPage: false });
  });
});
