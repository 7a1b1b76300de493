// How the Wake-on-LAN screen reads, against the built program: English and Chinese, 390 px (a
// phone, the main use: the wake button spans the card, the lesser actions stay on one line, the
// dialog takes the window) and 1300 px, light and dark. Devices made through the API, on loopback
// only: one with a local TCP listener as its check port (online), one checked on a closed port.
import net from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../packages/server/test/wait.js';
import {
  apiLogin,
  callApi,
  en,
  launchBrowser,
  newPage,
  type Program,
  shot,
  startProgram,
  still,
  zh,
} from './harness.js';

let browser: Browser;
let program: Program;
let token: string;
let listener: net.Server;
let nasKey: string;
let tvKey: string;
const pages: Page[] = [];

const api = (method: string, p: string, body?: unknown) => callApi(program.base, token, method, p, body);

beforeAll(async () => {
  [browser, program] = await Promise.all([launchBrowser(), startProgram()]);
  token = await apiLogin(program.base);
  listener = net.createServer((s) => s.on('error', () => {}).destroy());
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  const port = (listener.address() as net.AddressInfo).port;
  const nas = await api('POST', '/api/wol/devices', {
    name: 'NAS',
    macs: ['02:00:00:00:00:01', '02:00:00:00:00:11'],
    broadcast: '127.0.0.1',
    check: { host: '127.0.0.1', tcpPort: port, ping: false },
  });
  const tv = await api('POST', '/api/wol/devices', {
    name: 'Living-room TV',
    macs: ['02:00:00:00:00:02'],
    broadcast: '127.0.0.1',
    check: { host: '127.0.0.1', tcpPort: 1, ping: false },
    shutdown: { method: 'agent', agent: { url: 'http://127.0.0.1:1', token: 'lkt_x' } },
  });
  expect([nas.ret, tv.ret]).toEqual([0, 0]);
  nasKey = nas.device.key;
  tvKey = tv.device.key;
  // Both checked once before the pages open.
  await waitFor(
    async () => {
      const s = (await api('GET', '/api/wol/state')).states;
      return s[nasKey]?.online === 'online' && s[tvKey]?.online === 'offline';
    },
    { timeout: 20_000, what: 'both devices checked' },
  );
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await program?.stop();
  listener?.close();
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.context().close();
});

async function open(lang: 'zh_CN' | 'en_US', width: number, theme: 'light' | 'dark'): Promise<Page> {
  const { page } = await newPage(browser, width, 900);
  pages.push(page);
  await page.addInitScript(
    ([lang, token, theme]) => localStorage.setItem('lucky', JSON.stringify({ lang, token, theme })),
    [lang, token, theme] as const,
  );
  await page.goto(`${program.base}/#/wol`);
  await page.getByTestId(`wol-device-${tvKey}`).waitFor();
  return page;
}

describe('Wake-on-LAN screen', () => {
  it('on a phone: a wake button across the card, the actions on one line, the dialog full-window', async () => {
    const page = await open('en_US', 390, 'light');
    await page.waitForFunction((t) => document.title === t, `Lucky | ${en.title.wol}`);
    expect(await page.getByTestId(`wol-online-${nasKey}`).innerText()).toBe(en.wol.ui_online_online);
    expect(await page.getByTestId(`wol-online-${tvKey}`).innerText()).toBe(en.wol.ui_online_offline);
    const card = await page.getByTestId(`wol-device-${nasKey}`).boundingBox();
    const wake = await page.getByTestId(`wol-wake-${nasKey}`).boundingBox();
    expect(card && wake && wake.width > card.width * 0.85 && wake.height >= 48).toBe(true);
    const shutdown = await page.getByTestId(`wol-shutdown-${tvKey}`).boundingBox();
    const remove = await page.getByTestId(`wol-delete-${tvKey}`).boundingBox();
    expect(shutdown && remove && Math.abs(shutdown.y - remove.y) < 2).toBe(true);
    await shot(page, 'wol-390-en');
    await page.getByTestId(`wol-edit-${nasKey}`).click();
    await page.getByTestId('wol-device-form').waitFor();
    // Measured once its opening motion has ended.
    await still(page);
    const dialog = await page.locator('.ant-modal').boundingBox();
    expect(dialog && dialog.width >= 389).toBe(true);
    await shot(page, 'wol-dialog-390-en', { fullPage: false });

    const dark = await open('zh_CN', 390, 'dark');
    expect(await dark.getByTestId(`wol-wake-${nasKey}`).innerText()).toBe(zh.wol.ui_wake);
    await shot(dark, 'wol-390-zh-dark');
  });

  it('on a wide screen in the dark theme: cards side by side, the settings dialog', async () => {
    const page = await open('en_US', 1300, 'dark');
    const a = await page.getByTestId(`wol-device-${nasKey}`).boundingBox();
    const b = await page.getByTestId(`wol-device-${tvKey}`).boundingBox();
    expect(a && b && Math.abs(a.y - b.y) < 2 && b.x > a.x).toBe(true);
    await shot(page, 'wol-1300-en-dark');
    await page.getByTestId('wol-open-settings').click();
    await page.getByTestId('wol-settings-form').waitFor();
    await shot(page, 'wol-settings-1300-en-dark', { fullPage: false });
  });
});
