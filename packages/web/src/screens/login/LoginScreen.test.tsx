import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { getItem, setItems } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import LoginScreen from './LoginScreen';

let net: FakeFetch;

function renderLogin() {
  return renderWithProviders(null, {
    path: '/login',
    routes: [
      { path: '/login', element: <LoginScreen /> },
      { path: '/status', element: <div>status page</div> },
    ],
  });
}

const loginCalls = () => net.fn.mock.calls.filter(([url]) => String(url).startsWith('api/login'));
const loginBody = (n = 0) => JSON.parse(String((loginCalls()[n][1] as RequestInit).body));

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('login form', () => {
  it('requires account and password, with the spec messages, and sends nothing', async () => {
    net.plan({ body: { ret: 0, twoFAEnable: false } });
    renderLogin();
    await userEvent.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('账号不能为空')).toBeTruthy();
    expect(screen.getByText('密码不能为空')).toBeTruthy();
    expect(loginCalls()).toHaveLength(0);
  });

  it('a blank account (only spaces) is empty too', async () => {
    net.plan({ body: { ret: 0, twoFAEnable: false } });
    renderLogin();
    await userEvent.type(screen.getByLabelText('账号'), '   ');
    await userEvent.type(screen.getByLabelText('密码'), 'secret{Enter}');
    expect(await screen.findByText('账号不能为空')).toBeTruthy();
    expect(screen.queryByText('密码不能为空')).toBeNull();
    expect(loginCalls()).toHaveLength(0);
  });

  it('Enter submits; success stores the token and goes to /status', async () => {
    net.plan({ body: { ret: 0, twoFAEnable: false } }, { body: { ret: 0, msg: 'ok', token: 'jwt-1' } });
    renderLogin();
    await userEvent.type(screen.getByLabelText('账号'), ' 666 ');
    await userEvent.type(screen.getByLabelText('密码'), '666{Enter}');
    expect(await screen.findByText('status page')).toBeTruthy();
    expect(loginBody()).toEqual({ Account: '666', Password: '666' });
    expect(getItem('token')).toBe('jwt-1');
    expect(net.call(0).url).toMatch(/^2FAStatus\?_=\d+$/);
  });

  it('remembers only the account when asked, never the password', async () => {
    net.plan({ body: { ret: 0, twoFAEnable: false } }, { body: { ret: 0, msg: 'ok', token: 't' } });
    renderLogin();
    await userEvent.type(screen.getByLabelText('账号'), 'admin');
    await userEvent.type(screen.getByLabelText('密码'), 'pw-secret');
    await userEvent.click(screen.getByText('记住账号（不保存密码）'));
    await userEvent.click(screen.getByTestId('login-submit'));
    await screen.findByText('status page');
    expect(getItem('rememberAccount')).toBe(true);
    expect(getItem('loginAccount')).toBe('admin');
    expect(window.localStorage.getItem('lucky')).not.toContain('pw-secret');
  });

  it('fills in a remembered account', async () => {
    setItems({ rememberAccount: true, loginAccount: 'alice' });
    net.plan({ body: { ret: 0, twoFAEnable: false } });
    renderLogin();
    expect((screen.getByLabelText('账号') as HTMLInputElement).value).toBe('alice');
  });

  it('shows the server message on failure, with the retry time when throttled', async () => {
    net.plan(
      { body: { ret: 0, twoFAEnable: false } },
      { status: 403, body: { ret: 3, msg: 'too many failed logins', retryAfter: 42 } },
    );
    renderLogin();
    await userEvent.type(screen.getByLabelText('账号'), '666');
    await userEvent.type(screen.getByLabelText('密码'), 'bad{Enter}');
    expect(await screen.findByText('too many failed logins （请在 42 秒后重试）')).toBeTruthy();
    expect(getItem('token')).toBeUndefined();
  });

  it('shows the 2FA field when 2FAStatus says so and submits by itself after 6 digits', async () => {
    net.plan({ body: { ret: 0, twoFAEnable: true } }, { body: { ret: 0, msg: 'ok', token: 't2' } });
    renderLogin();
    const code = await screen.findByTestId('twofa-code');
    await userEvent.type(screen.getByLabelText('账号'), '666');
    await userEvent.type(screen.getByLabelText('密码'), 'pw');
    await userEvent.type(code, '123456');
    expect(await screen.findByText('status page')).toBeTruthy();
    expect(loginBody()).toEqual({ Account: '666', Password: 'pw', TwoFACode: '123456' });
  });

  it('asks for the code when the server answers ret 2', async () => {
    net.plan(
      { body: { ret: 0, twoFAEnable: false } },
      { status: 400, body: { ret: 2, msg: 'two-factor code required', field: 'TwoFACode' } },
    );
    renderLogin();
    expect(screen.queryByTestId('twofa-code')).toBeNull();
    await userEvent.type(screen.getByLabelText('账号'), '666');
    await userEvent.type(screen.getByLabelText('密码'), 'pw{Enter}');
    expect(await screen.findByTestId('twofa-code')).toBeTruthy();
    expect(await screen.findByText('two-factor code required')).toBeTruthy();
  });

  it('offers the command-line reset in the forgot-password help', async () => {
    net.plan({ body: { ret: 0, twoFAEnable: false } });
    renderLogin();
    await userEvent.click(screen.getByTestId('forgot-password'));
    const help = await screen.findByTestId('forgot-password-help');
    expect(help.textContent).toContain('npm run reset-login -- -cd <config dir>');
    expect(help.textContent).toContain('666 / 666');
  });
});
