// The Wake-on-LAN screen against the built program, all on loopback (the magic packet itself is
// tested server-side in a network namespace): a device is added through the dialog (a bad MAC
// refused beside the field first), pointed at 127.0.0.1 with a local TCP listener as its check
// port; the online badge follows the listener as it starts and stops; "wake and wait" counts down
// and ends "online" when the listener comes up; the wake is in the log drawer; the shortcut's curl
// line, run with a real API token, wakes the device. Screenshots at 1300 px in Chinese here; the
// other languages, widths and the dark theme in wol-screens.test.ts.
import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../packages/server/test/wait.js';
import {
  apiLogin,
  callApi,
  chooseOption,
  launchBrowser,
  newPage,
  type Program,
  shot,
  startProgram,
  zh,
} from './harness.js';

const run = promisify(execFile);

let browser: Browser;
let program: Program;
let token: string;
let apiToken: string;
const pages: Page[] = [];

const api = (method: string, p: string, body?: unknown) => callApi(program.base, token, method, p, body);
const fill = (text: string, vars: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k) => String(vars[k]));

/** A locale text as a pattern: its {{params}} match anything. */
const pattern = (text: string) =>
  new RegExp(
    text
      .split(/\{\{\w+\}\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+'),
  );

/** A TCP listener on a loopback port that can be stopped and started again (the device's "online"). */
class Listener {
  private server?: net.Server;
  private sockets = new Set<net.Socket>();
  port = 0;
  async start(): Promise<void> {
    this.server = net.createServer((s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      s.on('error', () => {});
    });
    await new Promise<void>((r) => this.server?.listen(this.port, '127.0.0.1', r));
    this.port = (this.server.address() as net.AddressInfo).port;
  }
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server = undefined;
  }
}
const device = new Listener();

beforeAll(async () => {
  [browser, program] = await Promise.all([launchBrowser(), startProgram()]);
  token = await apiLogin(program.base);
  // Checks every 5 s (the least), so the badge follows the listener quickly.
  expect((await api('PUT', '/api/wol/settings', { refreshSec: 5, checkTimeoutSec: 1 })).ret).toBe(0);
  const made = await api('POST', '/api/apitokens', { name: 'phone', currentPassword: '666' });
  expect(made.ret).toBe(0);
  apiToken = made.token;
  // A port that is free: the listener takes it, gives it back, and takes it again later.
  await device.start();
  await device.stop();
}, 90_000);
afterAll(async () => {
  await device.stop();
  await browser?.close();
  await program?.stop();
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.context().close();
});

async function open(lang: 'zh_CN' | 'en_US', width: number, theme: 'light' | 'dark' = 'light'): Promise<Page> {
  const { page } = await newPage(browser, width, 900);
  pages.push(page);
  await page.addInitScript(
    ([lang, token, theme]) => localStorage.setItem('lucky', JSON.stringify({ lang, token, theme })),
    [lang, token, theme] as const,
  );
  await page.goto(`${program.base}/#/wol`);
  await page.getByTestId('wol-screen').waitFor();
  return page;
}

const badge = (page: Page, key: string) => page.getByTestId(`wol-online-${key}`).getAttribute('data-state');

describe('Wake-on-LAN screen', () => {
  it('adds a device, follows it online and offline, wakes and waits, logs it; the shortcut line wakes it', async () => {
    const page = await open('zh_CN', 1300);
    await page.waitForFunction((t) => document.title === t, `Lucky | ${zh.title.wol}`);
    await page.getByTestId('wol-screen').getByText(zh.wol.ui_noDevices).waitFor();
    // The list follows every second.
    await chooseOption(page, 'refresh-select', fill(zh.common.everySeconds, { count: 1 }));

    await page.getByTestId('wol-add').click();
    const form = page.getByTestId('wol-device-form');
    await form.waitFor();
    await page.getByTestId('wol-device-name').fill('NAS');
    await page.getByTestId('wol-device-macs').fill('02:00:00:00:00:01\n02:00:00:00:00');
    await page.getByTestId('wol-device-save').click();
    await form.getByText(fill(zh.wol.err_macInvalid, { mac: '02:00:00:00:00' })).waitFor();
    await page.getByTestId('wol-device-macs').fill('02-00-00-00-00-01');
    // Loopback only: the packets go to 127.0.0.1, the check is a TCP connect there (no ping: it would always answer).
    await page.getByTestId('wol-device-broadcast').fill('127.0.0.1');
    await page.getByTestId('wol-device-host').fill('127.0.0.1');
    await page.getByTestId('wol-device-tcpport').fill(String(device.port));
    await page.getByTestId('wol-device-ping').click();
    await shot(page, 'wol-dialog-1300-zh', { fullPage: false });
    await page.getByTestId('wol-device-save').click();
    await form.waitFor({ state: 'detached' });

    const list = await api('GET', '/api/wol/devices');
    expect(list.devices).toHaveLength(1);
    const d = list.devices[0];
    expect(d).toMatchObject({ name: 'NAS', macs: ['02:00:00:00:00:01'], broadcast: '127.0.0.1' });
    expect(d.check).toEqual({ host: '127.0.0.1', tcpPort: device.port, ping: false });
    const key: string = d.key;

    // Offline while nothing listens; online once the listener is up; offline again when it stops.
    await waitFor(async () => (await badge(page, key)) === 'offline', { timeout: 20_000, what: 'badge offline' });
    await device.start();
    await waitFor(async () => (await badge(page, key)) === 'online', { timeout: 20_000, what: 'badge online' });
    expect(await page.getByTestId(`wol-online-${key}`).innerText()).toBe(zh.wol.ui_online_online);
    await device.stop();
    await waitFor(async () => (await badge(page, key)) === 'offline', { timeout: 20_000, what: 'badge offline again' });

    // Wake and wait: the button counts down until the device answers.
    await page.getByTestId(`wol-wake-${key}`).click();
    const wake = page.getByTestId(`wol-wake-${key}`);
    await waitFor(async () => /还剩 \d+ 秒/.test(await wake.innerText()), { timeout: 10_000, what: 'countdown' });
    expect(await wake.getAttribute('class')).toContain('ant-btn-loading');
    await shot(page, 'wol-waking-1300-zh');
    await device.start();
    const result = page.getByTestId(`wol-wake-result-${key}`);
    await waitFor(async () => (await result.getAttribute('data-phase')) === 'online', {
      timeout: 20_000,
      what: 'wake result online',
    });
    expect(await result.innerText()).toMatch(/唤醒后 \d+ 秒上线/);
    expect(await badge(page, key)).toBe('online');
    await shot(page, 'wol-online-1300-zh');

    // The wake is in the module's log, in Chinese.
    await page.getByTestId('wol-open-logs').click();
    const table = page.getByTestId('wol-log-table');
    await table.waitFor();
    await table.getByText(pattern(zh.wol.log_woke)).first().waitFor();
    await table.getByText(pattern(zh.wol.log_wakeOnline)).first().waitFor();
    await shot(page, 'wol-logs-1300-zh', { fullPage: false });
    await page.keyboard.press('Escape');

    // The phone shortcut: its line, with a real API token, wakes the device.
    await page.getByTestId(`wol-shortcut-${key}`).click();
    const line = await page.getByTestId('wol-shortcut-line').innerText();
    expect(line).toContain(`${program.base}/api/wol/devices/${key}/wake`);
    await shot(page, 'wol-shortcut-1300-zh', { fullPage: false });
    const args = line
      .replace('lkt_YOUR_TOKEN', apiToken)
      .match(/'[^']*'|\S+/g)
      ?.slice(1)
      .map((a) => a.replace(/^'|'$/g, ''));
    const out = await run('curl', args ?? []);
    expect(JSON.parse(out.stdout)).toMatchObject({ ret: 0, sent: 3, target: '127.0.0.1:9' });
    const logs = await api('GET', '/api/wol/logs?page=1&pageSize=50');
    expect(logs.logs.filter((l: { code?: string }) => l.code === 'woke')).toHaveLength(2);
  });
});
