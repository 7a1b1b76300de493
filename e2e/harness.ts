import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
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
  const end = Date.now() + ms;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > end) throw new Error(`${url} did not answer within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
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
 * Save a screenshot under test-results/screens for people to look at: the whole page, or
 * (`fullPage: false`) just the window — what an open dialog or drawer covers.
 */
export async function shot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<void> {
  const dir = path.join(ROOT, 'test-results/screens');
  await fs.mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: opts.fullPage ?? true });
}

/** A self-signed certificate and key as PEM files (scripts/self-signed-cert.mjs, shared with the benchmarks). */
export { selfSignedCert } from '../scripts/self-signed-cert.mjs';
