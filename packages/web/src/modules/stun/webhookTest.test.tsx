// The webhook test of the STUN dialogs on the DDNS webhook machinery: checked as if it were on
// (a refusal beside its field, no call), then one call whose reason reads in this module's words.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { SettingsDialog } from './SettingsDialog';
import { listReply, settings } from './testData';

let net: FakeFetch;

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
  net.route('api/stun/settings', { body: { ret: 0, settings: settings(), summary: listReply([]).summary } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const tests = () =>
  net.fn.mock.calls.filter(([url]) => String(url).split('?')[0] === 'api/stun/webhook/test') as [string, RequestInit][];

describe('STUN webhook test', () => {
  it('refuses an empty address beside its field, then calls and shows the reason in Chinese', async () => {
    net.route('api/stun/webhook/test', {
      body: {
        ret: 0,
        ok: false,
        status: 500,
        reason: {
          code: 'answerNotSuccess',
          params: { status: 500 },
          text: 'HTTP 500: the answer is not a success',
        },
        response: 'nope',
      },
    });
    renderWithProviders(<SettingsDialog open onClose={() => {}} />);
    await userEvent.click(await screen.findByTestId('stun-settings-webhook-enabled'));
    await userEvent.click(screen.getByTestId('stun-settings-webhook-test'));
    const url = screen.getByTestId('stun-settings-webhook-url');
    expect(await within(url.closest('.ant-form-item') as HTMLElement).findByText('Webhook 地址不能为空')).toBeTruthy();
    expect(tests()).toHaveLength(0);

    await userEvent.click(url);
    await userEvent.paste('http://hook.example/x');
    await userEvent.click(screen.getByText('禁用成功检查（任何 2xx 即成功）'));
    await userEvent.click(screen.getByTestId('stun-settings-webhook-test'));
    const result = await screen.findByTestId('webhook-result');
    expect(within(result).getByText('HTTP 500：答复不表示成功')).toBeTruthy();
    await waitFor(() => expect(tests()).toHaveLength(1));
    const body = JSON.parse(String(tests()[0]?.[1].body));
    expect(body).toMatchObject({ key: '', webhook: { enabled: true, url: 'http://hook.example/x' } });
  });
});
