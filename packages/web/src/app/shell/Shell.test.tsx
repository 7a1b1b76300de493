import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { getItem, setItem } from '../../api/storage';
import { confirmDialog } from '../../test/antd';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import Shell from './Shell';

let net: FakeFetch;

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: 900 });
  window.dispatchEvent(new Event('resize'));
}

function renderShell(path: string) {
  return renderWithProviders(null, {
    path,
    routes: [
      {
        path: '/',
        element: <Shell />,
        children: [
          { path: 'login', element: <div>login screen</div>, handle: { titleKey: 'title.login' } },
          { path: 'status', element: <div>status screen</div> },
          { path: 'set', element: <div>settings screen</div> },
        ],
      },
    ],
  });
}

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  net.route('version', { body: { ret: 0, version: '1.0.0', twoFAEnable: false } });
  net.route('frontendcontroll', { body: { ret: 0, FrontendDisableAutoExpandLeftMenu: false } });
  net.route('api/modules/list', {
    body: { ret: 0, Modules: [], u: { account: '666', passwordIsDefault: true, twoFAEnable: false } },
  });
  net.route('api/logout', { body: { ret: 0 } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('shell', () => {
  it('shows the left menu above 1200 px', async () => {
    setItem('token', 't');
    setWidth(1300);
    renderShell('/status');
    expect(await screen.findByTestId('side-menu')).toBeTruthy();
    expect(screen.queryByTestId('top-menu-button')).toBeNull();
    expect(screen.getByText('概况')).toBeTruthy();
    expect(screen.getByText('程序日志')).toBeTruthy();
  });

  it('shows the top-bar menu at 1000 px', async () => {
    setItem('token', 't');
    setWidth(1000);
    renderShell('/status');
    expect(await screen.findByTestId('top-menu-button')).toBeTruthy();
    expect(screen.queryByTestId('side-menu')).toBeNull();
  });

  it('switches layout when the window is resized', async () => {
    setItem('token', 't');
    setWidth(1300);
    renderShell('/status');
    await screen.findByTestId('side-menu');
    act(() => setWidth(1000));
    expect(await screen.findByTestId('top-menu-button')).toBeTruthy();
  });

  it('has no menu on /login, and the login title', async () => {
    setWidth(1300);
    renderShell('/login');
    expect(screen.getByText('login screen')).toBeTruthy();
    expect(screen.queryByTestId('side-menu')).toBeNull();
    expect(screen.queryByTestId('top-menu-button')).toBeNull();
    expect(screen.getByTestId('language-switch')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Lucky | 登录'));
  });

  it('titles a route without a title just "Lucky"', async () => {
    setItem('token', 't');
    renderShell('/status');
    await waitFor(() => expect(document.title).toBe('Lucky'));
  });

  it('sends a visitor without a token to /login', async () => {
    const { router } = renderShell('/status');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('warns on every page while the default password is in use, linking to /set', async () => {
    setItem('token', 't');
    setWidth(1300);
    renderShell('/status');
    const banner = await screen.findByTestId('default-password-banner');
    expect(banner.querySelector('a')?.getAttribute('href')).toBe('/set');
  });

  it('opens the product website from the logo in a new tab', () => {
    renderShell('/login');
    const logo = screen.getByTestId('logo-link');
    expect(logo.getAttribute('target')).toBe('_blank');
    expect(logo.getAttribute('href')).toBe('https://github.com/lucky-console/lucky-console');
    expect(logo.getAttribute('rel')).toContain('noopener');
  });

  it('logout asks first, then ends the session and goes to /login', async () => {
    setItem('token', 't');
    setWidth(1300);
    const { router } = renderShell('/status');
    await userEvent.click(await screen.findByText('注销登录'));
    await waitFor(() =>
      expect(document.querySelector('.ant-modal-confirm-title')?.textContent).toBe('确定要注销登录?'),
    );
    // "click by mistake" keeps the session.
    await userEvent.click((await confirmDialog()).getByRole('button', { name: '点错了' }));
    expect(getItem('token')).toBe('t');
    await userEvent.click(screen.getByText('注销登录'));
    // Motion is off in tests: the first dialog is gone, this is the only one.
    const ok = (await confirmDialog()).getByRole('button', { name: '确定' });
    // The spec's text exactly: no space put between the two characters.
    expect(ok.textContent).toBe('确定');
    await userEvent.click(ok);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(getItem('token')).toBeUndefined();
    expect(
      net.fn.mock.calls.some(([url, init]) => String(url).startsWith('api/logout') && init?.method === 'PUT'),
    ).toBe(true);
  });

  it('opens the program log dialog from the menu instead of navigating', async () => {
    setItem('token', 't');
    setWidth(1300);
    net.route('api/logs', { body: { ret: 0, starttime: 's', logs: [{ timestamp: '1', log: 'hello log' }] } });
    const { router } = renderShell('/status');
    await userEvent.click(await screen.findByText('程序日志'));
    expect(await screen.findByTestId('log-dialog')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('log-text').textContent).toContain('hello log'));
    expect(router.state.location.pathname).toBe('/status');
  });
});
