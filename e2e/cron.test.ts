// The scheduled-task screen against the built program: a task with a command action made through
// the dialog (the expression typed, then changed with a picker; the server's next five runs shown
// as it changes), listed with its schedule in words and its next run; run now; its history shows
// the run with the command's output. Screenshots in both languages, at 1300 px and phone width,
// and dark.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../packages/server/test/wait.js';
import {
  apiLogin,
  callApi,
  chooseOption,
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
const pages: Page[] = [];

const api = (method: string, p: string, body?: unknown) => callApi(program.base, token, method, p, body);

beforeAll(async () => {
  [browser, program] = await Promise.all([launchBrowser(), startProgram()]);
  token = await apiLogin(program.base);
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await program?.stop();
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.context().close();
});

type Lang = 'zh_CN' | 'en_US';
async function open(lang: Lang, width = 1300, height = 900, theme = 'light'): Promise<Page> {
  const { page } = await newPage(browser, width, height);
  pages.push(page);
  await page.addInitScript(
    ([lang, token, theme]) => localStorage.setItem('lucky', JSON.stringify({ lang, token, theme })),
    [lang, token, theme] as const,
  );
  await page.goto(`${program.base}/#/cron`);
  await page.getByTestId('cron-screen').waitFor();
  return page;
}

/** The listed times of the preview, once there are five. */
async function fiveRuns(page: Page): Promise<string[]> {
  const items = page.getByTestId('cron-next-runs').locator('li');
  await waitFor(async () => (await items.count()) === 5, { timeout: 10_000, what: 'five next runs' });
  return items.allInnerTexts();
}

describe('scheduled-task screen', () => {
  it('a command task made in the dialog shows its next runs, runs now, and its history holds the output', async () => {
    const page = await open('zh_CN');
    expect(await page.title()).toBe(`Lucky | ${zh.title.cron}`);
    await page.getByTestId('cron-add').click();
    await page.locator('#cron-dialog-save').waitFor();

    // Nothing but a name missing: refused beside the name, nothing sent.
    await page.locator('#cron-dialog-save').click();
    await page
      .locator('.ant-form-item')
      .filter({ has: page.getByTestId('cron-task-name') })
      .getByText(zh.cron.err_nameRequired)
      .waitFor();

    await page.getByTestId('cron-task-name').fill('greeting');
    // Typed: the pickers follow the text, and the preview its new reading.
    await page.getByTestId('cron-expression').fill('*/5 * * * *');
    await waitFor(
      async () => (await page.getByTestId('cron-field-minute-mode').innerText()).trim() === zh.cron.ui_mode_step,
      {
        timeout: 5000,
        what: 'the minute picker showing the step',
      },
    );
    const everyFive = await fiveRuns(page);
    for (const t of everyFive) expect(t).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d[05]:00$/);

    // Picked: the text follows the picker (hour 3 only), and so does the preview.
    await chooseOption(page, 'cron-field-hour-mode', zh.cron.ui_mode_range);
    await waitFor(async () => (await page.getByTestId('cron-expression').inputValue()) === '*/5 0-23 * * *', {
      timeout: 5000,
      what: 'the expression following the hour picker',
    });
    await page.getByTestId('cron-expression').fill('30 2 * * *');
    await waitFor(async () => (await page.getByTestId('cron-words').innerText()).includes('02:30'), {
      timeout: 5000,
      what: 'the words following the text',
    });
    await waitFor(async () => (await fiveRuns(page)).every((t) => t.endsWith('02:30:00')), {
      timeout: 10_000,
      what: 'the preview at 02:30',
    });

    // A wrong expression: the server's reason under the text.
    await page.getByTestId('cron-expression').fill('61 * * * *');
    await page.getByTestId('cron-preview-error').waitFor();
    await page.getByTestId('cron-expression').fill('30 2 * * *');
    await fiveRuns(page);

    await page.getByTestId('cron-action-0-command').fill('echo "hello from $GREETING"');
    await page.getByTestId('cron-action-0-env').fill('GREETING=cron');
    await shot(page, 'cron-dialog-1300-zh', { fullPage: false });
    await page.locator('#cron-dialog-save').click();
    await page.locator('#cron-dialog-save').waitFor({ state: 'detached' });

    const listed = await api('GET', '/api/cron/tasks');
    expect(listed.list).toHaveLength(1);
    const task = listed.list[0];
    expect(task).toMatchObject({
      name: 'greeting',
      schedule: { kind: 'cron', expression: '30 2 * * *' },
      actions: [{ type: 'shell', command: 'echo "hello from $GREETING"', env: 'GREETING=cron' }],
    });
    await page.getByTestId('cron-next-run').waitFor();
    expect(await page.getByTestId('cron-next-run').innerText()).toMatch(/ 02:30:00$/);

    // Run now; the history drawer shows the run, and the command's output inside it.
    await page.getByTestId('cron-run').click();
    await page.getByTestId('cron-history-open').click();
    const drawer = page.getByTestId('cron-history');
    await drawer.getByText(zh.cron.ui_result_ok).waitFor({ timeout: 15_000 });
    await drawer.locator('.ant-table-row-expand-icon').first().click();
    const output = drawer.getByTestId('cron-run-output').first();
    await output.waitFor();
    expect(await output.innerText()).toContain('hello from cron');
    await shot(page, 'cron-history-1300-zh', { fullPage: false });
    await drawer.locator('.ant-drawer-close').click();
    await drawer.waitFor({ state: 'hidden' });
    await page.getByTestId('cron-last-run').getByText(zh.cron.ui_result_ok).waitFor();
    await shot(page, 'cron-list-1300-zh');

    // Export to a file; the same file back is refused on the name (nothing added), renamed it adds.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('cron-export').click()]);
    const exported = JSON.parse(await fs.readFile(await download.path(), 'utf8'));
    expect(exported.tasks.map((x: { name: string }) => x.name)).toEqual(['greeting']);
    const file = path.join(program.dir, 'tasks.json');
    await fs.writeFile(file, JSON.stringify(exported));
    await page.getByTestId('cron-import-file').setInputFiles(file);
    const refused = zh.cron.ui_importRefused.replace('{{text}}', zh.cron.err_nameTaken.replace('{{name}}', 'greeting'));
    await page.getByText(refused).waitFor();
    exported.tasks[0].name = 'greeting-2';
    await fs.writeFile(file, JSON.stringify(exported));
    await page.getByTestId('cron-import-file').setInputFiles(file);
    await page.getByText('greeting-2').waitFor();
    expect((await api('GET', '/api/cron/tasks')).list.map((x: { name: string }) => x.name)).toEqual([
      'greeting',
      'greeting-2',
    ]);
  });

  it('reads in English, dark and at phone width', async () => {
    const shots: [Lang, number, string, boolean][] = [
      ['en_US', 1300, 'light', true],
      ['zh_CN', 390, 'light', true],
      ['en_US', 390, 'dark', false],
    ];
    for (const [lang, width, theme, dialog] of shots) {
      const page = await open(lang, width, 900, theme);
      const words = lang === 'en_US' ? en : zh;
      await page.getByTestId('cron-screen').getByText('greeting', { exact: true }).waitFor();
      await shot(page, `cron-list-${width}-${lang === 'en_US' ? 'en' : 'zh'}-${theme}`);
      if (dialog) {
        await page.getByTestId('cron-edit').first().click();
        await page.getByTestId('cron-task-name').waitFor();
        expect(await page.getByTestId('cron-words').innerText()).toContain('02:30');
        await fiveRuns(page);
        await page.getByText(words.cron.dialog_editTitle).waitFor();
        if (width === 1300) {
          // Every other kind of action, as the dialog shows it; the module action's pickers list
          // what the modules offer (GET /api/modules/actions).
          for (const [i, type] of (['http', 'module', 'action', 'backup'] as const).entries()) {
            await page.getByTestId('cron-add-action').click();
            const item = page.getByRole('menuitem', { name: words.cron[`ui_type_${type}`] });
            await item.waitFor();
            // A click while the menu still slides in can miss it.
            await still(page).catch(() => {});
            await item.click();
            await page.getByTestId(`cron-action-${i + 1}`).waitFor();
          }
          await page.getByTestId('cron-action-3').locator('.ant-select').nth(1).click();
          await page.locator('.ant-select-dropdown:visible').getByTitle(words.menu.ddns, { exact: true }).waitFor();
          await page.keyboard.press('Escape');
          await shot(page, `cron-dialog-actions-${width}-en`);
          // The dialog's end: the last action and the two policies.
          await page.locator('.ant-modal-wrap:visible').evaluate((el) => el.scrollTo(0, el.scrollHeight));
          await shot(page, `cron-dialog-policies-${width}-en`, { fullPage: false });
        }
        await shot(page, `cron-dialog-${width}-${lang === 'en_US' ? 'en' : 'zh'}-${theme}`, { fullPage: false });
      }
      await page.context().close();
      pages.splice(pages.indexOf(page), 1);
    }
  });
});
