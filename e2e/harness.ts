import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { waitFor } from '../packages/server/test/wait.js';
import { launchChromium } from '../scripts/chromium.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = path.join(ROOT, 'packages/server/dist/main.js');

export const zh = JSON.parse(await fs.readFile(path.join(ROOT, 'packages/web/src/i18n/zh_CN.json'), 'utf8'));
export const en = JSON.parse(await fs.readFile(path.join(ROOT, 'packages/web/src/i18n/en_US.json'), 'utf8'));

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface Program {
  base: string;
  port: number;
  dir: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** The BUILT program (npm test builds first), supervised, on a free port with a temp config dir. */
export async function startProgram(opts: { dir?: string } = {}): Promise<Program> {
  const dir = opts.dir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-e2e-')));
  const port = await freePort();
  let out = '';
  const child = spawn(process.execPath, [ENTRY, '-p', String(port), '-cd', dir, '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (b) => {
    out += b;
  });
  child.stderr?.on('data', (b) => {
    out += b;
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/version`);
  return {
    base,
    port,
    dir,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      if (!opts.dir) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

export async function waitForHttp(url: string, ms = 20_000): Promise<void> {
  await waitFor(async () => (await fetch(url)).ok, { timeout: ms, interval: 100, what: `${url} answering` });
}

export async function apiLogin(base: string, password = '666', code?: string): Promise<string> {
  const r = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Account: '666', Password: password, TwoFACode: code }),
  });
  const body = await r.json();
  if (body.ret !== 0) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body.token;
}

/** One Debian chromium for the whole file; a fresh context (storage) per test. */
export function launchBrowser(): Promise<Browser> {
  return launchChromium();
}

export async function newPage(
  b: Browser,
  width = 1300,
  height = 900,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await b.newContext({ viewport: { width, height }, acceptDownloads: true });
  const page = await context.newPage();
  return { context, page };
}

/**
 * A page in a new context (its own storage), signed in the way the login screen leaves it: the
 * session token in the console's one local-storage record, on the overview (or `hash`). The
 * login screen itself is exercised in shell, security, theme and maintenance; a file about
 * another screen starts here instead of typing the password again for every page.
 */
export async function signedInPage(
  b: Browser,
  base: string,
  token: string,
  opts: { width?: number; height?: number; hash?: string; timezoneId?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await b.newContext({
    viewport: { width: opts.width ?? 1300, height: opts.height ?? 900 },
    acceptDownloads: true,
    timezoneId: opts.timezoneId,
  });
  // Only into an empty store: a reload keeps what the console wrote there since, as after a login.
  await context.addInitScript((token) => {
    if (!localStorage.getItem('lucky')) localStorage.setItem('lucky', JSON.stringify({ lang: 'zh_CN', token }));
  }, token);
  const page = await context.newPage();
  await page.goto(`${base}/#${opts.hash ?? '/status'}`);
  return { context, page };
}

/**
 * Save a screenshot under test-results/screens for people to look at: the whole page, or
 * (`fullPage: false`) just the window — what an open dialog or drawer covers.
 */
export async function shot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  const dir = path.join(ROOT, 'test-results/screens');
  await fs.mkdir(dir, { recursive: true });
  // A picture for people: taken even if something on the page keeps moving (a toast's timer, a
  // spinner's fade); the test's own assertions are what decide. So the wait for rest is short:
  // antd's own motions end within a few hundred ms, while pages that kept moving longer held a
  // picture for 2 s, or the full 5 s, again and again (about a sixth of settings' and
  // storagemanagement's e2e time) for no assertion.
  await still(page, 1000).catch(() => {});
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: opts.fullPage ?? true });
}

/**
 * Resolves once the page has been still for two animation frames in a row: no antd motion step
 * under way (rc-motion puts `<name>-appear|enter|leave` on an element until its motion ends, and
 * ends it within its own deadline) and no finite CSS animation or transition running (spinners
 * run for ever and do not count). Two frames, so a re-render a resize or a click set off is seen.
 */
export async function still(page: Page, timeout = 5000): Promise<void> {
  await page.evaluate(
    (ms) =>
      new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`the page did not come to rest within ${ms} ms`)), ms);
        const moving = () =>
          [...document.querySelectorAll('[class]')].some((el) =>
            [...el.classList].some((c) => /-(appear|enter|leave)$/.test(c)),
          ) ||
          document
            .getAnimations()
            .some((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
        let quiet = 0;
        const frame = () => {
          quiet = moving() ? 0 : quiet + 1;
          if (quiet >= 2) {
            clearTimeout(deadline);
            resolve();
          } else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    timeout,
  );
}

/** A self-signed certificate and key as PEM files (scripts/self-signed-cert.mjs, shared with the benchmarks). */
export { selfSignedCert } from '../scripts/self-signed-cert.mjs';

/**
 * Picks the option titled `label` in the antd select with this test id, and waits until the select
 * shows it. A click that lands while the dropdown is still sliding in can miss the option (the
 * list closes with nothing chosen), so the choice is checked and, if it did not take, made again.
 */
export async function chooseOption(page: Page, testId: string, label: string): Promise<void> {
  const select = page.getByTestId(testId);
  const shows = async () => (await select.innerText()).trim() === label;
  for (let attempt = 1; ; attempt++) {
    await select.click();
    const option = page.locator('.ant-select-dropdown:visible').getByTitle(label, { exact: true });
    await option.waitFor();
    await still(page).catch(() => {});
    await option.click();
    try {
      await waitFor(shows, { timeout: 3000 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

/** One admin API call with a session token: the JSON answer (whatever its `ret`). */
export async function callApi(base: string, token: string, method: string, p: string, body?: unknown) {
  const r = await fetch(base + p, {
    method,
    headers: { authorization: token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return r.json();
}
