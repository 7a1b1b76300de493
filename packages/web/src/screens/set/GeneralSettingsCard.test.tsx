import { type BaseConfigureView, baseSettingsSchema } from '@lucky/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { GeneralSettingsCard } from './GeneralSettingsCard';

let net: FakeFetch;
const config: BaseConfigureView = {
  ...baseSettingsSchema.parse({}),
  passwordIsDefault: false,
  twoFAEnable: false,
  portOverride: null,
};

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('general settings: who may reach the console', () => {
  it('sends the CGNAT switch and the admin host names', async () => {
    const bodies: unknown[] = [];
    net.route('api/baseconfigure', (_url, init) => {
      if (init.method === 'PUT') bodies.push(JSON.parse(String(init.body)));
      return { body: { ret: 0, baseconfigure: config } };
    });
    renderWithProviders(<GeneralSettingsCard config={config} onRestart={() => {}} />);
    expect(await screen.findByText(/DNS 重绑定/)).toBeTruthy();
    await userEvent.click(screen.getByTestId('cgnat-is-lan'));
    const names = within(screen.getByTestId('admin-host-names')).getByRole('combobox');
    await userEvent.type(names, 'NAS.lan{enter}');
    await userEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ cgnatIsLan: true, adminHostNames: ['NAS.lan'] });
  });

  it('refuses a name that is not a host name before sending, naming it', async () => {
    net.route('api/baseconfigure', { body: { ret: 0, baseconfigure: config } });
    renderWithProviders(<GeneralSettingsCard config={config} onRestart={() => {}} />);
    const names = within(await screen.findByTestId('admin-host-names')).getByRole('combobox');
    await userEvent.type(names, 'x_y{enter}');
    await userEvent.click(screen.getByTestId('settings-save'));
    expect(await screen.findByText(/“x_y” 不是有效的主机名/)).toBeTruthy();
    expect(net.fn.mock.calls.filter(([, init]) => (init as RequestInit)?.method === 'PUT')).toHaveLength(0);
  });
});

describe('general settings: the -p flag and refused numbers', () => {
  it('shows the port in effect with the flag note, and does not send it unless changed', async () => {
    const bodies: unknown[] = [];
    const flagged = { ...config, portOverride: 17101 };
    net.route('api/baseconfigure', (_url, init) => {
      if (init.method === 'PUT') bodies.push(JSON.parse(String(init.body)));
      return { body: { ret: 0, baseconfigure: flagged } };
    });
    renderWithProviders(<GeneralSettingsCard config={flagged} onRestart={() => {}} />);
    expect((await screen.findByTestId('admin-port-flag')).textContent).toBe(
      '本次运行由 -p 参数指定为 17101；不带 -p 启动时使用保存的端口 16601',
    );
    const port = screen.getByText('管理端口').closest('.ant-form-item') as HTMLElement;
    expect((within(port).getByRole('spinbutton') as HTMLInputElement).value).toBe('17101');
    await userEvent.click(screen.getByTestId('cgnat-is-lan'));
    await userEvent.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ cgnatIsLan: true });
  });

  it('refuses 70000 as the admin port before sending, and keeps it in the field', async () => {
    net.route('api/baseconfigure', { body: { ret: 0, baseconfigure: config } });
    renderWithProviders(<GeneralSettingsCard config={config} onRestart={() => {}} />);
    const item = (await screen.findByText('管理端口')).closest('.ant-form-item') as HTMLElement;
    const input = within(item).getByRole('spinbutton') as HTMLInputElement;
    await userEvent.clear(input);
    await userEvent.type(input, '70000');
    await userEvent.click(screen.getByTestId('settings-save'));
    expect(await within(item).findByText('端口范围 1-65535')).toBeTruthy();
    expect(input.value).toBe('70000');
    expect(net.fn.mock.calls.filter(([, init]) => (init as RequestInit)?.method === 'PUT')).toHaveLength(0);
  });
});
