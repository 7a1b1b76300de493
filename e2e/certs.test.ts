// The certificates tab of the security screen against the built program:
// real certificates made by openssl, uploaded through the form (file picker
// and paste), a key of another certificate refused on its field, then the
// store's switch, remark and delete.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  apiLogin,
  en,
  launchBrowser,
  type Program,
  selfSignedCert,
  shot,
  signedInPage,
  startProgram,
  zh,
} from './harness.js';

let browser: Browser;
let program: Program;
let dir: string;
const pages: Page[] = [];

const file = (name: string) => path.join(dir, name);
const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lucky-certs-e2e-'));
  // a.test: self-signed, 30 days (so it shows as "expires soon").
  selfSignedCert(dir, { cn: 'a.test', san: 'DNS:a.test,DNS:www.a.test', days: 30, cert: 'a.crt', key: 'a.key' });
  // The key of another certificate.
  openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-out', file('other.key'));
  // b.test: signed by a little CA, uploaded as one file holding the chain and the key.
  selfSignedCert(dir, { cn: 'Lucky Test CA', days: 400, cert: 'ca.crt', key: 'ca.key' });
  openssl(
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-subj',
    '/CN=b.test',
    '-keyout',
    file('b.key'),
    '-out',
    file('b.csr'),
  );
  await fs.writeFile(file('b.ext'), 'subjectAltName=DNS:b.test,DNS:*.b.test\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('b.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '200',
    '-extfile',
    file('b.ext'),
    '-out',
    file('b.crt'),
  );
  browser = await launchBrowser();
  program = await startProgram();
});
afterAll(async () => {
  await browser?.close();
  await program?.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
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

async function open(): Promise<Page> {
  const { page } = await signedInPage(browser, program.base, await sessionToken(), { width: 1300, height: 900 });
  pages.push(page);
  return page;
}

async function openTab(page: Page, tabLabel: string): Promise<void> {
  await page.goto(`${program.base}/#/safe`);
  await page.getByTestId('safe-screen').waitFor();
  await page.getByRole('tab', { name: tabLabel }).click();
  await page.getByTestId('certs-tab').waitFor();
}

interface StoredCert {
  Key: string;
  Remark: string;
  Enable: boolean;
  CertsInfo: { Domains: string[] }[];
}

async function stored(): Promise<StoredCert[]> {
  const token = await apiLogin(program.base);
  const r = await (await fetch(`${program.base}/api/ssl`, { headers: { authorization: token } })).json();
  return r.list;
}

/** The form item (label, control, message) around a control. */
const itemOf = (page: Page, testId: string) => page.locator('.ant-form-item').filter({ has: page.getByTestId(testId) });

const fill = (text: string, vars: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k) => String(vars[k]));

const pick = async (page: Page, testId: string, name: string) =>
  page.getByTestId(`${testId}-file`).setInputFiles(file(name));

describe('certificates tab', () => {
  it('adds a certificate through the form and lists it with its domains and days left', async () => {
    const page = await open();
    await openTab(page, zh.safe.tabCerts);
    await page.getByTestId('certs-empty').waitFor();
    await page.getByText(zh.safe.certsHelp).waitFor();

    await page.getByTestId('cert-add').click();
    await page.getByTestId('cert-add-form').waitFor();
    // Not PEM: refused in the browser, nothing stored.
    await page.getByTestId('cert-add-cert').fill('hello');
    await page.getByTestId('cert-add-key').fill('world');
    await page.getByTestId('cert-add-save').click();
    await itemOf(page, 'cert-add-cert').getByText(zh.safe.certNotPem).waitFor();
    await itemOf(page, 'cert-add-key').getByText(zh.safe.certKeyNotPem).waitFor();

    // Files through the pickers: the certificate with the key of another one.
    const pem = (await fs.readFile(file('a.crt'), 'utf8')).trim();
    await pick(page, 'cert-add-cert', 'a.crt');
    await expect.poll(() => page.getByTestId('cert-add-cert').inputValue()).toBe(pem);
    await pick(page, 'cert-add-key', 'other.key');
    await expect.poll(() => page.getByTestId('cert-add-key').inputValue()).toContain('PRIVATE KEY-----');
    await page.getByTestId('cert-add-remark').fill('home router');
    await page.getByTestId('cert-add-save').click();
    await itemOf(page, 'cert-add-key').getByText(zh.safe.certErrKeyMismatch).waitFor();
    expect(await stored()).toEqual([]);
    await shot(page, 'certs-add-refused-1300-zh', { fullPage: false });

    // The right key: stored, the dialog closes, the list shows it.
    await pick(page, 'cert-add-key', 'a.key');
    await expect.poll(() => itemOf(page, 'cert-add-key').getByText(zh.safe.certErrKeyMismatch).count()).toBe(0);
    await page.getByTestId('cert-add-save').click();
    await page.getByTestId('cert-add-form').waitFor({ state: 'detached' });
    const [cert] = await stored();
    expect(cert.CertsInfo[0].Domains).toEqual(['a.test', 'www.a.test']);
    expect(cert.Remark).toBe('home router');

    const domains = page.getByTestId(`cert-domains-${cert.Key}`);
    await domains.getByText('a.test', { exact: true }).waitFor();
    await domains.getByText('www.a.test', { exact: true }).waitFor();
    const validity = page.getByTestId(`cert-validity-${cert.Key}`);
    // -days 30: a little under 30 days left, so "expires soon".
    await validity.getByText(fill(zh.safe.certDaysLeft, { count: 29 })).waitFor();
    await validity.getByText(zh.safe.certTagSoon).waitFor();
    expect(await page.getByTestId(`cert-remark-${cert.Key}`).textContent()).toContain('home router');
    const fp = execFileSync('openssl', ['x509', '-in', file('a.crt'), '-noout', '-fingerprint', '-sha256'], {
      encoding: 'utf8',
    });
    const colon = fp.split('=')[1].trim();
    expect(await page.getByTestId(`cert-fingerprint-${cert.Key}`).textContent()).toBe(
      `${colon.slice(0, 11)}…${colon.slice(-5)}`,
    );

    // The same certificate again: refused on the certificate box.
    await page.getByTestId('cert-add').click();
    await page.getByTestId('cert-add-form').waitFor();
    await page.getByTestId('cert-add-cert').fill(await fs.readFile(file('a.crt'), 'utf8'));
    await page.getByTestId('cert-add-key').fill(await fs.readFile(file('a.key'), 'utf8'));
    await page.getByTestId('cert-add-save').click();
    await itemOf(page, 'cert-add-cert').getByText(zh.safe.certErrDuplicate).waitFor();
    await page.locator('.cert-add-dialog .ant-modal-footer button').first().click();
    await page.getByTestId('cert-add-form').waitFor({ state: 'detached' });
    await shot(page, 'certs-list-1300-zh');
  });

  it('switch, remark and delete reach the store', async () => {
    const page = await open();
    await openTab(page, zh.safe.tabCerts);
    const [cert] = await stored();
    const sw = page.getByTestId(`cert-enable-${cert.Key}`);
    await sw.click();
    await expect.poll(async () => (await stored())[0].Enable).toBe(false);
    await expect.poll(() => sw.getAttribute('aria-checked')).toBe('false');

    const remark = page.getByTestId(`cert-remark-${cert.Key}`);
    await remark.locator('.ant-typography-edit').click();
    await remark.getByRole('textbox').fill('router, renew in June');
    await remark.getByRole('textbox').press('Enter');
    await expect.poll(async () => (await stored())[0].Remark).toBe('router, renew in June');
    await remark.getByText('router, renew in June').waitFor();

    await sw.click();
    await expect.poll(async () => (await stored())[0].Enable).toBe(true);

    await page.getByTestId(`cert-delete-${cert.Key}`).click();
    await page.getByText(zh.safe.certDeleteConfirm).waitFor();
    await page.locator('.ant-popconfirm-buttons .ant-btn-primary').click();
    await expect.poll(async () => (await stored()).length).toBe(0);
    await page.getByTestId('certs-empty').waitFor();
  });

  it('reads well in English: a chain with its issuer, pasted as one file with the key', async () => {
    const page = await open();
    await page.goto(`${program.base}/#/safe`);
    await page.getByTestId('safe-screen').waitFor();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByTestId('language-switch').getByText(en.common.lang_en_US).click(),
    ]);
    await openTab(page, en.safe.tabCerts);
    await page.getByTestId('certs-empty').waitFor();
    await shot(page, 'certs-empty-1300-en');

    await page.getByTestId('cert-add').click();
    await page.getByTestId('cert-add-form').waitFor();
    // One box gets leaf + CA + key: the key moves to its own box.
    const bundle = [file('b.crt'), file('ca.crt'), file('b.key')];
    const text = (await Promise.all(bundle.map((f) => fs.readFile(f, 'utf8')))).join('');
    await page.getByTestId('cert-add-cert').fill(text);
    await expect.poll(() => page.getByTestId('cert-add-key').inputValue()).toContain('BEGIN PRIVATE KEY');
    expect(await page.getByTestId('cert-add-cert').inputValue()).not.toContain('PRIVATE KEY');
    await page.getByTestId('cert-add-remark').fill('lab');
    await shot(page, 'certs-add-dialog-1300-en', { fullPage: false });
    await page.getByTestId('cert-add-save').click();
    await page.getByTestId('cert-add-form').waitFor({ state: 'detached' });

    const [cert] = await stored();
    expect(cert.CertsInfo.map((c) => c.Domains)).toEqual([['b.test', '*.b.test'], ['lucky test ca']]);
    expect(await page.getByTestId(`cert-issuer-${cert.Key}`).textContent()).toBe(
      fill(en.safe.certIssuedBy, { name: 'lucky test ca' }),
    );
    await page.getByTestId(`cert-domains-${cert.Key}`).getByText('*.b.test').waitFor();
    await page
      .getByTestId(`cert-validity-${cert.Key}`)
      .getByText(fill(en.safe.certDaysLeft, { count: 199 }))
      .waitFor();
    await shot(page, 'certs-list-1300-en');
  });
});
