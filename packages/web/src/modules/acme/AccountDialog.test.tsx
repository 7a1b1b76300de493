import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { AccountDialog } from './AccountDialog';
import { accountView } from './testData';

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

async function pickCa(label: string) {
  await userEvent.click(within(await screen.findByTestId('acme-account-ca')).getByRole('combobox'));
  const options = await screen.findAllByText(label, { selector: '.ant-select-item-option-content' });
  await userEvent.click(options[0]);
}

function open() {
  const onSaved = vi.fn();
  renderWithProviders(<AccountDialog open onClose={vi.fn()} onSaved={onSaved} />);
  return { onSaved };
}

describe('account dialog', () => {
  it('shows the directory of the chosen CA, and asks for EAB only where needed', async () => {
    open();
    expect((await screen.findByTestId('acme-account-directory')).textContent).toBe(
      'https://acme-v02.api.letsencrypt.org/directory',
    );
    expect(screen.queryByTestId('acme-account-eab-kid')).toBeNull();
    await pickCa('ZeroSSL');
    expect(await screen.findByTestId('acme-account-eab-kid')).toBeTruthy();
    expect(screen.getByTestId('acme-account-directory').textContent).toBe('https://acme.zerossl.com/v2/DV90');
  });

  it('refuses ZeroSSL without EAB on both fields and sends nothing', async () => {
    open();
    await userEvent.type(await screen.findByTestId('acme-account-name'), 'zs');
    await pickCa('ZeroSSL');
    await userEvent.click(screen.getByTestId('acme-account-save'));
    const kid = screen.getByTestId('acme-account-eab-kid');
    const text = i18next.t('acme.err_eabRequired');
    expect(await within(itemOf(kid)).findByText(text)).toBeTruthy();
    expect(within(itemOf(screen.getByTestId('acme-account-eab-hmac'))).getByText(text)).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
  });

  it('sends a custom directory with its CA certificate and no EAB', async () => {
    net.route('api/acme/accounts', { body: { ret: 0, account: accountView({ ca: 'custom' }) } });
    const { onSaved } = open();
    await userEvent.type(await screen.findByTestId('acme-account-name'), 'lab');
    await pickCa('自定义目录');
    await userEvent.click(await screen.findByTestId('acme-account-directory-url'));
    await userEvent.paste('https://127.0.0.1:14000/dir');
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
    await userEvent.click(screen.getByTestId('acme-account-ca-cert'));
    await userEvent.paste(pem);
    await userEvent.click(screen.getByTestId('acme-account-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(bodyOf(sent('POST')[0])).toMatchObject({
      name: 'lab',
      ca: 'custom',
      directoryUrl: 'https://127.0.0.1:14000/dir',
      eab: { kid: '', hmacKey: '' },
      caCertPem: pem,
    });
  });
});
