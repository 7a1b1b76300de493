// The task dialog in the browser's terms: the expression and the pickers are one text (typing
// moves the pickers, a picker rewrites the text), the preview lists the server's next runs, a save
// sends the task as the shared schema reads it, and a server refusal of the expression stands
// beside the schedule in the user's language.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import zhCN from '../../i18n/zh_CN.json';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { TaskDialog } from './TaskDialog';

const zh = zhCN.cron;
let net: FakeFetch;
let previewed: string[];

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
  previewed = [];
  net.route('api/cron/preview', (_url, init) => {
    const { expression } = JSON.parse(String(init.body)) as { expression: string };
    previewed.push(expression);
    if (expression.startsWith('61'))
      return {
        status: 400,
        body: { ret: 1, code: 'expressionInvalid', field: 'expression', params: { detail: 'minute 61' }, msg: 'x' },
      };
    return { body: { ret: 0, zone: 'UTC', times: [1, 2, 3, 4, 5].map((d) => `2030-01-0${d}T03:00:00Z`) } };
  });
  net.route('api/modules/actions', { body: { ret: 0, list: [] } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function open() {
  const onSaved = vi.fn();
  renderWithProviders(<TaskDialog task="new" otherNames={['taken']} onClose={vi.fn()} onSaved={onSaved} />);
  return { onSaved };
}
const setText = (el: HTMLElement, value: string) => fireEvent.change(el, { target: { value } });

describe('TaskDialog', () => {
  it('keeps the expression and the pickers in step, and shows the next five runs', async () => {
    open();
    const expr = (await screen.findByTestId('cron-expression')) as HTMLInputElement;
    expect(expr.value).toBe('0 3 * * *');
    // Generous waits: the preview comes after the typing pause, slow on a loaded machine.
    expect(await screen.findAllByRole('listitem', {}, { timeout: 15_000 })).toHaveLength(5);
    expect(screen.getByTestId('cron-words').textContent).toBe('每天，03:00');

    setText(expr, '*/15 * * * 1-5');
    expect(within(screen.getByTestId('cron-field-minute-mode')).getByText(zh.ui_mode_step)).toBeTruthy();
    expect(within(screen.getByTestId('cron-field-weekday-mode')).getByText(zh.ui_mode_range)).toBeTruthy();
    await waitFor(() => expect(previewed).toContain('*/15 * * * 1-5'), { timeout: 15_000 });

    // A picker rewrites the text: the step of the minute field from 15 to 20.
    const stepBox = screen.getByTestId('cron-field-minute-step');
    const step = stepBox.tagName === 'INPUT' ? stepBox : (stepBox.querySelector('input') as HTMLElement);
    setText(step, '20');
    expect(expr.value).toBe('*/20 * * * 1-5');

    // Beyond the pickers: they go, the text stays the person's.
    setText(expr, '0 0 3 * * *');
    expect(screen.queryByTestId('cron-field-minute')).toBeNull();
    expect(screen.getByTestId('cron-words').textContent).toBe(zh.ui_beyondPickers);
  });

  it("shows the server's reason when the preview refuses the expression", async () => {
    open();
    setText(await screen.findByTestId('cron-expression'), '61 * * * *');
    const error = await screen.findByTestId('cron-preview-error', {}, { timeout: 15_000 });
    expect(error.textContent).toBe(zh.err_expressionInvalid.replace('{{detail}}', 'minute 61'));
  });

  it('sends the task as the schema reads it, and refuses a name another task has', async () => {
    const { onSaved } = open();
    net.route('api/cron/tasks', (_url, init) => ({
      body: { ret: 0, task: { ...JSON.parse(String(init.body)), key: 'k1' } },
    }));
    await userEvent.click(await screen.findByTestId('cron-task-name'));
    await userEvent.paste('taken');
    setText(screen.getByTestId('cron-action-0-command'), 'echo hi');
    await userEvent.click(document.getElementById('cron-dialog-save') as HTMLElement);
    await screen.findByText(zh.err_nameTaken.replace('{{name}}', 'taken'));
    expect(onSaved).not.toHaveBeenCalled();

    setText(screen.getByTestId('cron-task-name'), 'nightly');
    await userEvent.click(document.getElementById('cron-dialog-save') as HTMLElement);
    await waitFor(() => expect(onSaved).toHaveBeenCalled(), { timeout: 15_000 });
    const post = net.fn.mock.calls.find(
      ([url, init]) => String(url).split('?')[0] === 'api/cron/tasks' && (init as RequestInit).method === 'POST',
    );
    expect(post).toBeDefined();
    expect(JSON.parse(String((post?.[1] as RequestInit | undefined)?.body))).toEqual({
      name: 'nightly',
      enabled: true,
      schedule: { kind: 'cron', expression: '0 3 * * *' },
      actions: [{ type: 'shell', command: 'echo hi', env: '', cwd: '', onFailure: 'stop', timeoutSeconds: 60 }],
      missed: 'skip',
      overlap: 'skip',
    });
  });
});
