// Issue 13 §3, as a new user meets it in the browser: out-of-range numbers are refused (not moved
// to the bound and saved), the -p port is shown as the port in effect, times follow the display
// zone (the program log too), the service card stays quiet without systemd, the about page follows
// showLocalView, and the overview tells a switched-off module from a running one.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, launchBrowser, type Program, shot, signedInPage, startProgram, zh } from './harness.js';

/** The browser runs in New York; the console's setting may name another zone. */
const BROWSER_ZONE = 'America/New_York';

let browser: Browser;
let program: Program;
let token: string;
const contexts: BrowserContext[] = [];

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
  for (const c of contexts.splice(0)) await c.close();
});

// biome-ignore lint/suspicious/noExplicitAny: JSON answers
async function api(pathname: string, method = 'GET', body?: unknown): Promise<any> {
  const r = await fetch(program.base + pathname, {
    method,
    headers: { authorization: token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return r.json();
}

/** A signed-in page (zh_CN, the default language) in the browser zone. */
async function signedIn(hash: string, width = 1300, height = 1000): Promise<Page> {
  const { context, page } = await signedInPage(browser, program.base, token, {
    width,
    height,
    hash,
    timezoneId: BROWSER_ZONE,
  });
  contexts.push(context);
  return page;
}

/** The form item inside `scope` with this exact label. */
const item = (scope: Locator, label: string) =>
  scope.locator('.ant-form-item').filter({ has: scope.page().getByText(label, { exact: true }) });

const fill = (t: string, vars: Record<string, unknown>) =>
  t.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]));

/** `2026-01-16 08:30:05` for an instant in a zone (the console's display format). */
function inZone(d: Date, zone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(d)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

describe('settings: out-of-range numbers are refused in the form', () => {
  it('admin port 70000, log size 100 and HTTP client timeout 99 keep what was typed, show the range and save nothing', async () => {
    const before = (await api('/api/baseconfigure')).baseconfigure;
    const page = await signedIn('/set');
    const form = page.getByTestId('general-settings');
    await form.waitFor();
    for (const [label, value, message] of [
      [zh.set.adminPort, '70000', zh.set.portInvalid],
      [zh.set.logMaxSize, '100', fill(zh.common.rangeError, { min: 1024, max: 40960 })],
      [zh.set.httpClientTimeout, '99', fill(zh.common.rangeError, { min: 3, max: 60 })],
    ]) {
      const input = item(form, label).getByRole('spinbutton');
      await input.fill(value);
      await input.blur();
      // Not moved to the bound on blur.
      expect(await input.inputValue()).toBe(value);
      await page.getByTestId('settings-save').click();
      await item(form, label).getByText(message, { exact: true }).waitFor();
      expect(await input.inputValue()).toBe(value);
    }
    await shot(page, 'settings-refused-1300-zh');
    expect(await page.getByText(zh.set.saved).count()).toBe(0);
    expect((await api('/api/baseconfigure')).baseconfigure).toEqual(before);
  });

  it('port forwarding: a rule limit of 0 is refused in the settings dialog, not raised to 1', async () => {
    const page = await signedIn('/portforward');
    await page.getByTestId('pf-open-settings').click();
    const dialog = page.getByTestId('pf-settings-form');
    await dialog.waitFor();
    const input = item(dialog, zh.portforward.ruleLimit).getByRole('spinbutton');
    await input.fill('0');
    await input.blur();
    expect(await input.inputValue()).toBe('0');
    await page.getByTestId('pf-settings-save').click();
    await item(dialog, zh.portforward.ruleLimit)
      .getByText(fill(zh.common.rangeError, { min: 1, max: 1024 }), { exact: true })
      .waitFor();
    await shot(page, 'portforward-settings-refused-1300-zh', { fullPage: false });
    expect(await page.getByText(zh.portforward.settingsSaved).count()).toBe(0);
    expect((await api('/api/portforward/settings')).settings.ruleLimit).toBe(128);
  });
});

describe('settings: the -p flag', () => {
  it('shows the port in effect with the flag note; saving another field keeps the saved port', async () => {
    const page = await signedIn('/set');
    const form = page.getByTestId('general-settings');
    const port = item(form, zh.set.adminPort);
    expect(await port.getByRole('spinbutton').inputValue()).toBe(String(program.port));
    expect(await page.getByTestId('admin-port-flag').textContent()).toBe(
      fill(zh.set.adminPortFlag, { port: program.port, saved: 16601 }),
    );
    await shot(page, 'settings-port-flag-1300-zh', { fullPage: false });
    const logSize = item(form, zh.set.logMaxSize).getByRole('spinbutton');
    await logSize.fill('3000');
    await page.getByTestId('settings-save').click();
    await page.getByText(zh.set.saved).waitFor();
    const saved = (await api('/api/baseconfigure')).baseconfigure;
    expect(saved).toMatchObject({ logMaxSize: 3000, adminPort: 16601, portOverride: program.port });
  });
});

describe('time zone', () => {
  it('the program log shows its times in the browser zone, then in the zone chosen in settings', async () => {
    await api('/api/baseconfigure', 'PUT', { timeZone: '' });
    const page = await signedIn('/set');
    const raw: { log: string }[] = (await api('/api/logs')).logs;
    const first = raw[0].log;
    const at = new Date(first.slice(0, first.indexOf(' ')));
    const rest = first.slice(first.indexOf(' '));

    const logShows = (p: Page, want: string) =>
      p.waitForFunction(
        (w) => document.querySelector('[data-testid="log-text"]')?.textContent?.includes(w) ?? false,
        want,
      );
    const line = (zone: string) => `${inZone(at, zone)}.${first.slice(20, 23)}${rest}`;
    const closeLog = async () => {
      await page.keyboard.press('Escape');
      await page.getByTestId('log-dialog').waitFor({ state: 'hidden' });
    };

    await page.getByTestId('side-menu').getByText(zh.menu.log).click();
    await logShows(page, line(BROWSER_ZONE));
    expect(await page.getByTestId('log-text').textContent()).not.toContain(first.slice(0, 19));
    await closeLog();

    // Choose Tokyo in the settings: the log follows at once.
    const select = page.getByTestId('time-zone');
    await select.click();
    await page.keyboard.type('Tokyo');
    await page.locator('.ant-select-item-option').filter({ hasText: 'Asia/Tokyo' }).click();
    await shot(page, 'settings-time-zone-1300-zh', { fullPage: false });
    await page.getByTestId('settings-save').click();
    await page.getByText(zh.set.saved).waitFor();
    expect((await api('/api/baseconfigure')).baseconfigure.timeZone).toBe('Asia/Tokyo');
    await page.getByTestId('side-menu').getByText(zh.menu.log).click();
    await logShows(page, line('Asia/Tokyo'));
    await shot(page, 'log-tokyo-1300-zh', { fullPage: false });
    await closeLog();

    // A fresh visit reads the setting before showing anything.
    const again = await signedIn('/safe');
    await again.getByTestId('side-menu').getByText(zh.menu.log).click();
    await logShows(again, line('Asia/Tokyo'));
    await api('/api/baseconfigure', 'PUT', { timeZone: '' });
  });
});

describe('settings: system service without systemd', () => {
  it('shows "not available" as a grey note with the actions off, and no error', async () => {
    const page = await signedIn('/set');
    await page.getByTestId('service-unsupported').waitFor();
    expect(await page.getByTestId('service-unsupported').textContent()).toBe(zh.set.serviceUnsupported);
    expect(await page.getByTestId('service-state').textContent()).toBe(zh.set.serviceState_unsupported);
    expect(await page.getByTestId('service-error').count()).toBe(0);
    expect(await page.locator('.ant-message-error').count()).toBe(0);
    expect(await page.getByRole('button', { name: zh.set.service_install }).isDisabled()).toBe(true);
    await page.getByTestId('service-panel').scrollIntoViewIfNeeded();
    await shot(page, 'settings-service-1300-zh', { fullPage: false });
  });
});

describe('about: showLocalView', () => {
  it('hides the local information card when the remote check wins, shows it when it fails', async () => {
    const remote = http.createServer((req, res) => {
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify(
          req.url?.startsWith('/app/v2')
            ? { ret: 0, lastVersion: ['9.9.9', '9.9.8'], V2L: '', staticHost: 'stub', appinfourl: '' }
            : { ret: 1 },
        ),
      );
    });
    await new Promise<void>((r) => remote.listen(0, '127.0.0.1', r));
    const stub = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
    try {
      expect((await api('/api/baseconfigure', 'PUT', { aboutHosts: [stub, stub, stub] })).ret).toBe(0);
      const page = await signedIn('/about');
      await page.getByText('9.9.9').first().waitFor();
      await page.getByTestId('about-local').waitFor({ state: 'detached' });
      await shot(page, 'about-remote-1300-zh');

      const dead = 'http://127.0.0.1:9';
      expect((await api('/api/baseconfigure', 'PUT', { aboutHosts: [dead, dead, dead] })).ret).toBe(0);
      await page.reload();
      await page.getByTestId('about-local').waitFor();
      await page.getByText(zh.about.remoteUnavailable).waitFor();
      await shot(page, 'about-local-1300-zh');
    } finally {
      remote.close();
      await api('/api/baseconfigure', 'PUT', {
        aboutHosts: ['https://lucky.666666.host', 'https://static.lucky666.cn', 'https://lucky-console.github.io'],
      });
    }
  });
});

describe('overview: true module states', () => {
  it('DDNS with its service switch off is shown switched off, and running once on', async () => {
    const page = await signedIn('/status');
    const ddns = page.getByTestId('module-ddns');
    await ddns.waitFor();
    expect(await ddns.getAttribute('data-state')).toBe('disabled');
    await ddns.getByText(zh.status.state_disabled, { exact: true }).waitFor();
    expect(await page.getByTestId('module-portforward').getAttribute('data-state')).toBe('disabled');
    expect(await page.getByTestId('module-reverseproxy').getAttribute('data-state')).toBe('stopped');
    await shot(page, 'status-modules-off-1300-zh');

    expect((await api('/api/ddns/settings', 'PUT', { enabled: true })).ret).toBe(0);
    try {
      await ddns.getByText(zh.status.state_running, { exact: true }).waitFor({ timeout: 15_000 });
      expect(await ddns.getAttribute('data-state')).toBe('running');
    } finally {
      await api('/api/ddns/settings', 'PUT', { enabled: false });
    }
  });
});
