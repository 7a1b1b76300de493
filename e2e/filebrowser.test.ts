// The file manager against the built program and Debian chromium: a storage from storage
// management, then in the screen two files and a folder uploaded over tus with their progress
// lines, a rename, a move into a sub-folder by cut and paste, a download, the preview of an image
// and of a text file, and a share link opened in a fresh browser context without a login.
// Screenshots at 1300 px in Chinese, in English dark, and at phone width.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, callApi, en, launchBrowser, newPage, type Program, shot, startProgram, zh } from './harness.js';

let browser: Browser;
let program: Program;
let token: string;
let dir: string;
let storageKey: string;
const pages: Page[] = [];

const api = (method: string, p: string, body?: unknown) => callApi(program.base, token, method, p, body);

/** A PNG of w × h in two colours (a real image for the thumbnail and the preview). */
function png(w: number, h: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) raw.set(x < w / 2 ? [230, 120, 40] : [40, 120, 230], y * (w * 3 + 1) + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const big = Buffer.alloc(2_500_000, 7);
const small = Buffer.from('第二个文件 second file\n');

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-e2e-filebrowser-'));
  await fs.writeFile(path.join(dir, 'photo.png'), png(240, 160));
  await fs.writeFile(path.join(dir, 'note.md'), '# 笔记\n\nhello *markdown*\n');
  await fs.mkdir(path.join(dir, 'album-src', 'day1'), { recursive: true });
  [browser, program] = await Promise.all([launchBrowser(), startProgram()]);
  token = await apiLogin(program.base);
  const s = await api('POST', '/api/storagemanagement/storages', {
    name: '家庭文件',
    kind: 'local',
    local: { path: dir },
  });
  expect(s.ret).toBe(0);
  const roots = await api('GET', '/api/filebrowser/roots');
  storageKey = roots.list[0].key;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await program?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.context().close();
});

async function open(lang: 'zh_CN' | 'en_US', width = 1300, height = 900, at = '/'): Promise<Page> {
  const { page } = await newPage(browser, width, height);
  pages.push(page);
  await page.addInitScript(([lang, token]) => localStorage.setItem('lucky', JSON.stringify({ lang, token })), [
    lang,
    token,
  ] as const);
  await page.goto(`${program.base}/#/filebrowser?storage=${storageKey}&path=${encodeURIComponent(at)}`);
  await page.getByTestId('filebrowser-screen').waitFor();
  return page;
}

const row = (page: Page, name: string) => page.locator(`[data-testid="filebrowser-row"][data-name="${name}"]`);
const upload = (page: Page, p: string) => page.locator(`[data-testid="fb-upload"][data-path="${p}"]`);

describe('file manager screen', () => {
  it('uploads two files and a folder, renames, moves, downloads, previews and shares', async () => {
    const page = await open('zh_CN');
    await row(page, 'photo.png').waitFor();
    await row(page, 'note.md').waitFor();

    // Two files through the hidden picker: each gets its line with a progress bar, then done.
    await page.getByTestId('fb-input-files').setInputFiles([
      { name: 'big.bin', mimeType: 'application/octet-stream', buffer: big },
      { name: 'second.txt', mimeType: 'text/plain', buffer: small },
    ]);
    for (const p of ['big.bin', 'second.txt']) {
      await upload(page, p).locator('.ant-progress').waitFor();
      await page.locator(`[data-testid="fb-upload"][data-path="${p}"][data-state="done"]`).waitFor();
    }
    expect(sha(await fs.readFile(path.join(dir, 'big.bin')))).toBe(sha(big));
    expect(await fs.readFile(path.join(dir, 'second.txt'), 'utf8')).toBe(small.toString());

    // A folder through the folder picker: its relative paths make the folders on the storage.
    const src = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-e2e-fb-folder-'));
    await fs.mkdir(path.join(src, 'album', 'day1'), { recursive: true });
    await fs.writeFile(path.join(src, 'album', 'cover.png'), png(64, 64));
    await fs.writeFile(path.join(src, 'album', 'day1', 'log.txt'), 'day one');
    await page.getByTestId('fb-input-folder').setInputFiles(path.join(src, 'album'));
    await page.locator('[data-testid="fb-upload"][data-path="album/day1/log.txt"][data-state="done"]').waitFor();
    await page.locator('[data-testid="fb-upload"][data-path="album/cover.png"][data-state="done"]').waitFor();
    expect(await fs.readFile(path.join(dir, 'album', 'day1', 'log.txt'), 'utf8')).toBe('day one');
    await row(page, 'album').waitFor();
    await shot(page, 'filebrowser-uploaded-1300-zh', { fullPage: false });
    await page.getByTestId('fb-upload-clear').click();
    await fs.rm(src, { recursive: true, force: true });

    // Rename with F2.
    await row(page, 'second.txt').click();
    await page.keyboard.press('F2');
    await page.getByTestId('fb-name-input').fill('renamed.txt');
    await page.keyboard.press('Enter');
    await row(page, 'renamed.txt').waitFor();
    await expect(fs.readFile(path.join(dir, 'renamed.txt'), 'utf8')).resolves.toBe(small.toString());

    // A new folder, then cut, open it, paste: the file moved.
    await page.getByTestId('fb-act-newFolder').click();
    await page.getByTestId('fb-name-input').fill('sub');
    await page.keyboard.press('Enter');
    await row(page, 'sub').waitFor();
    await row(page, 'renamed.txt').click();
    await page.keyboard.press('Control+x');
    await page.getByTestId('fb-status').getByText(zh.filebrowser.browse_clipCut.replace('{{count}}', '1')).waitFor();
    await row(page, 'sub').dblclick();
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('path=%2Fsub');
    // The new folder's own (empty) listing is on screen: the paste goes there, not into the old one.
    await page.getByText(zh.filebrowser.browse_emptyFolder).waitFor();
    await page.getByTestId('fb-surface').focus();
    await page.keyboard.press('Control+v');
    await row(page, 'renamed.txt').waitFor();
    await expect(fs.readFile(path.join(dir, 'sub', 'renamed.txt'), 'utf8')).resolves.toBe(small.toString());
    await expect(fs.access(path.join(dir, 'renamed.txt'))).rejects.toThrow();

    // Download it through its ticket link.
    await row(page, 'renamed.txt').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('fb-act-download').click()]);
    expect(download.suggestedFilename()).toBe('renamed.txt');
    expect(await fs.readFile((await download.path()) as string, 'utf8')).toBe(small.toString());

    // Back up (Backspace), then the previews of an image and of a text file.
    await page.keyboard.press('Backspace');
    await row(page, 'photo.png').waitFor();
    await row(page, 'photo.png').dblclick();
    const image = page.getByTestId('fb-gallery-image');
    await image.waitFor();
    await expect.poll(() => image.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(240);
    await shot(page, 'filebrowser-preview-image-1300-zh', { fullPage: false });
    await page.keyboard.press('Escape');
    await page.getByTestId('fb-preview').waitFor({ state: 'detached' });
    await row(page, 'note.md').dblclick();
    await page.getByTestId('fb-text').getByText('hello *markdown*').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('fb-preview').waitFor({ state: 'detached' });

    // A folder downloads as a streamed zip.
    await row(page, 'album').click();
    const [zip] = await Promise.all([page.waitForEvent('download'), page.getByTestId('fb-act-download').click()]);
    expect(zip.suggestedFilename()).toMatch(/\.zip$/);
    const zipped = await fs.readFile((await zip.path()) as string);
    expect(zipped.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(zipped.includes(Buffer.from('album/day1/log.txt'))).toBe(true);

    // Grid view: the image's thumbnail comes from the server.
    await page.locator('[data-testid="fb-view"] .ant-segmented-item').nth(1).click();
    const thumb = page.locator('[data-testid="fb-tile"][data-name="photo.png"] img');
    await expect.poll(() => thumb.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await shot(page, 'filebrowser-grid-1300-zh', { fullPage: false });

    // A share link of the photo, opened without a login in a fresh context.
    const made = await api('POST', '/api/filebrowser/shares', { storage: storageKey, path: '/photo.png' });
    expect(made.ret).toBe(0);
    const { page: guest } = await newPage(browser, 1000, 800);
    pages.push(guest);
    const answer = await guest.goto(program.base + made.share.url);
    expect(answer?.status()).toBe(200);
    await guest.getByText('photo.png').first().waitFor();
    expect(await guest.evaluate(() => localStorage.getItem('lucky'))).toBeNull();
    await shot(guest, 'filebrowser-share-page-1000', { fullPage: false });
  });

  it('reads well in English, dark', async () => {
    const page = await open('en_US');
    await row(page, 'photo.png').waitFor();
    await row(page, 'photo.png').click();
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.getByTestId('fb-status').getByText(en.filebrowser.browse_selected.replace('{{count}}', '1')).waitFor();
    await shot(page, 'filebrowser-list-1300-en-dark', { fullPage: false });
    // A text preview in the dark theme gets the dark code colours, not highlight.js's light ones.
    await row(page, 'note.md').dblclick();
    const code = page.getByTestId('fb-text-highlighted');
    await code.waitFor();
    expect(await code.evaluate((c) => getComputedStyle(c).backgroundColor)).toBe('rgb(13, 17, 23)');
    await shot(page, 'filebrowser-preview-text-1300-en-dark', { fullPage: false });
  });

  it('at phone width: no modified column, actions in one menu, a tap opens', async () => {
    const page = await open('zh_CN', 390, 844);
    await row(page, 'album').waitFor();
    expect(await page.locator('.fb-mtime').count()).toBe(0);
    await shot(page, 'filebrowser-list-390-zh', { fullPage: false });
    await page.getByTestId('fb-menu').click();
    await page.getByText(zh.filebrowser.browse_newFolder).waitFor();
    await page.keyboard.press('Escape');
    await row(page, 'album').click();
    await row(page, 'cover.png').waitFor();
    expect(await page.evaluate(() => location.hash)).toContain('path=%2Falbum');
  });
});
