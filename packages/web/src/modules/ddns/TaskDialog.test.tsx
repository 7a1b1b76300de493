import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { TaskDialog } from './TaskDialog';
import { KEY, taskView } from './testData';

let net: FakeFetch;

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const sent = (method: string) => net.fn.mock.calls.filter(([, init]) => (init as RequestInit)?.method === method);
const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body));
const itemOf = (el: HTMLElement) => el.closest('.ant-form-item') as HTMLElement;
const save = () => userEvent.click(screen.getByTestId('ddns-task-save'));

function open(task?: Parameters<typeof TaskDialog>[0]['task']) {
  const onSaved = vi.fn();
  renderWithProviders(<TaskDialog open task={task} onClose={vi.fn()} onSaved={onSaved} />);
  return { onSaved };
}

async function pickProvider(label: string) {
  const select = within(await screen.findByTestId('ddns-provider')).getByRole('combobox');
  await userEvent.click(select);
  await userEvent.type(select, label);
  const options = await screen.findAllByText(label, { selector: '.ant-select-item-option-content' });
  await userEvent.click(options[0]);
}

describe('task dialog', () => {
  it('an empty form shows the spec messages on their fields and sends nothing', async () => {
    open();
    await screen.findByTestId('ddns-task-form');
    await save();
    expect(await screen.findByText('域名列表不能为空')).toBeTruthy();
    expect(screen.getByText('Cloudflare 的 Secret / Token 不能为空')).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
  });

  it('names the bad line of the domain list', async () => {
    open();
    const domains = await screen.findByTestId('ddns-domains');
    await userEvent.type(domains, 'ok.example.com{Enter}bad domain');
    await save();
    expect(await within(itemOf(domains)).findByText(/^第 2 行：域名格式错误/)).toBeTruthy();
  });

  it('shows the credential fields of the chosen provider', async () => {
    open();
    await screen.findByTestId('ddns-task-form');
    expect(screen.getByText('API Token')).toBeTruthy();
    expect(screen.queryByText('AccessKey ID')).toBeNull();
    await pickProvider('阿里云 DNS');
    expect(await screen.findByText('AccessKey ID')).toBeTruthy();
    expect(screen.getByText('AccessKey Secret')).toBeTruthy();
    await pickProvider('自定义回调');
    expect(await screen.findByTestId('ddns-callback')).toBeTruthy();
    expect(screen.getByText('回调地址')).toBeTruthy();
  });

  it('sends the task and keeps a masked secret as it is', async () => {
    const task = taskView();
    net.route(`api/ddns/tasks/${KEY}`, { body: { ret: 0, task } });
    const { onSaved } = open(task);
    expect(((await screen.findByTestId('ddns-cred-secret')) as HTMLInputElement).value).toBe('******');
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = bodyOf(sent('PUT')[0]);
    expect(body.dns).toMatchObject({ provider: 'cloudflare', secret: '******' });
    expect(body.domains).toEqual(['nas.example.com']);
    expect(body.key).toBeUndefined();
  });

  it('a callback URL with a masked token says it is kept, and sends it back as read', async () => {
    const base = taskView();
    const task = taskView({
      dns: {
        ...base.dns,
        provider: 'callback',
        secret: '',
        callback: {
          ...base.dns.callback,
          method: 'GET',
          url: 'https://cb.example/u?host=#{domain}&token=******',
          headers: ['Authorization: Bearer ******'],
          successStrings: ['good'],
        },
      },
    });
    net.route(`api/ddns/tasks/${KEY}`, { body: { ret: 0, task } });
    const { onSaved } = open(task);
    expect(await screen.findByText(/\*{6} 代表已保存的密钥/)).toBeTruthy();
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(bodyOf(sent('PUT')[0]).dns.callback).toMatchObject({
      url: 'https://cb.example/u?host=#{domain}&token=******',
      headers: ['Authorization: Bearer ******'],
    });
  });

  it("puts the server's refusal on the field it names, in customized mode when it lives there", async () => {
    const task = taskView();
    net.route(`api/ddns/tasks/${KEY}`, {
      status: 400,
      body: { ret: 1, msg: 'x', field: 'httpTimeout', code: 'tooBig', params: { max: 60 } },
    });
    open(task);
    await screen.findByTestId('ddns-task-form');
    expect(screen.queryByTestId('ddns-force-interval')).toBeNull();
    await save();
    expect(await screen.findByText('客户端超时范围 3-60 秒')).toBeTruthy();
    expect(screen.getByTestId('ddns-force-interval')).toBeTruthy();
  });

  it('the force-sync range uses the spec message', async () => {
    open(taskView({ mode: 'customized' }));
    const force = await screen.findByTestId('ddns-force-interval');
    await userEvent.clear(force);
    await userEvent.type(force, '30');
    await save();
    expect(await screen.findByText('强制同步时间范围 60-3600 秒')).toBeTruthy();
    expect(sent('PUT')).toHaveLength(0);
  });
});
