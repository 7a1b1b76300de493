import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { ApiTokensTab } from './ApiTokensTab';

const tx = (key: string, vars?: Record<string, unknown>) => i18next.t(key, vars);
let net: FakeFetch;
const posts: unknown[] = [];

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
  posts.length = 0;
  net.route('api/apitokens', (_url, init) => {
    if ((init.method ?? 'GET') === 'GET')
      return {
        body: {
          ret: 0,
          list: [
            {
              id: 'a1',
              name: 'ha',
              createdAt: '2026-11-01T10:00:00Z',
              lastUsedAt: '2026-11-20T08:00:00Z',
              lastUsedIp: '192.168.1.50',
            },
            { id: 'b2', name: 'ci', createdAt: '2026-11-01T10:00:00Z', lastUsedAt: null, lastUsedIp: null },
          ],
        },
      };
    const body = JSON.parse(String(init.body));
    posts.push(body);
    if (body.currentPassword !== 'right')
      return {
        status: 400,
        body: { ret: 1, msg: 'the current password is wrong', field: 'currentPassword', code: 'currentPasswordWrong' },
      };
    return { body: { ret: 0, id: 'c3', token: 'lkt_0123456789ab_secretsecretsecretsecret' } };
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('API tokens tab', () => {
  it("shows each token's last use with its client address", async () => {
    renderWithProviders(<ApiTokensTab />);
    expect(await screen.findByText(/192\.168\.1\.50/)).toBeTruthy();
    expect(screen.getByText(tx('safe.neverUsed'))).toBeTruthy();
  });

  it('asks for the current password, sends it, and puts a wrong-password answer beside the field', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ApiTokensTab />);
    await user.type(screen.getByPlaceholderText(tx('safe.tokenName')), 'backup');
    await user.click(screen.getByRole('button', { name: tx('safe.createToken') }));
    expect(await screen.findByText(tx('safe.tokenPasswordRequired'))).toBeTruthy();
    expect(posts).toHaveLength(0);
    await user.type(screen.getByTestId('token-password'), 'wrong');
    await user.click(screen.getByRole('button', { name: tx('safe.createToken') }));
    await waitFor(() => expect(posts).toEqual([{ name: 'backup', currentPassword: 'wrong' }]));
    expect((await screen.findAllByText(tx('errors.currentPasswordWrong'))).length).toBeGreaterThan(0);
    await user.clear(screen.getByTestId('token-password'));
    await user.type(screen.getByTestId('token-password'), 'right');
    await user.click(screen.getByRole('button', { name: tx('safe.createToken') }));
    expect(await screen.findByDisplayValue('lkt_0123456789ab_secretsecretsecretsecret')).toBeTruthy();
  });
});
