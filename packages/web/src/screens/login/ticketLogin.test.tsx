// The login screen's one-time link: `#/login?ticket=…` is sent once to api/login/ticket (no
// Authorization); success stores the session and goes home; a refusal shows why and keeps the
// password form.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { getItem } from '../../api/storage';
import zh from '../../i18n/zh_CN.json';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import LoginScreen from './LoginScreen';

let net: FakeFetch;

function renderLogin(path: string) {
  return renderWithProviders(null, {
    path,
    routes: [
      { path: '/login', element: <LoginScreen /> },
      { path: '/status', element: <div>status page</div> },
    ],
  });
}

const ticketCalls = () => net.fn.mock.calls.filter(([url]) => String(url).startsWith('api/login/ticket?'));

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  net.route('2FAStatus', { body: { ret: 0, twoFAEnable: false } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('login link (ticket)', () => {
  it('sends the ticket once without a token, stores the session and goes home', async () => {
    net.route('api/login/ticket', { body: { ret: 0, msg: 'ok', token: 'jwt-ticket' } });
    const { router } = renderLogin('/login?ticket=T1abc');
    expect(await screen.findByText('status page')).toBeTruthy();
    expect(getItem('token')).toBe('jwt-ticket');
    expect(ticketCalls()).toHaveLength(1);
    const [, init] = ticketCalls()[0] as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ ticket: 'T1abc' });
    expect((init.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(router.state.location.search).toBe('');
  });

  it('a refused ticket shows why, leaves the address without it and keeps the password form', async () => {
    net.route('api/login/ticket', {
      status: 401,
      body: { ret: 1, code: 'ticketInvalid', msg: 'the login link is used, expired or unknown' },
    });
    const { router } = renderLogin('/login?ticket=used');
    const refused = await screen.findByTestId('login-ticket-refused');
    expect(refused.textContent).toContain(zh.login.ticketInvalid);
    expect(screen.getByTestId('login-form')).toBeTruthy();
    expect(screen.getByTestId('login-submit')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('');
    expect(getItem('token')).toBeUndefined();
    await waitFor(() => expect(ticketCalls()).toHaveLength(1));
  });

  it('without a ticket nothing is sent and no link notice shows', async () => {
    renderLogin('/login');
    await screen.findByTestId('login-form');
    expect(screen.queryByTestId('login-ticket-pending')).toBeNull();
    expect(ticketCalls()).toHaveLength(0);
  });
});
