import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { CertificateDialog } from './CertificateDialog';
import { accountView, CERT_KEY, certView } from './testData';

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
const save = () => userEvent.click(screen.getByTestId('acme-cert-save'));

function open(certificate?: Parameters<typeof CertificateDialog>[0]['certificate']) {
  const onSaved = vi.fn();
  renderWithProviders(
    <CertificateDialog
      open
      certificate={certificate}
      accounts={[accountView()]}
      providers={['cloudflare', 'powerdns', 'rfc2136']}
      onClose={vi.fn()}
      onSaved={onSaved}
    />,
  );
  return { onSaved };
}

async function typeNames(text: string) {
  const box = within(await screen.findByTestId('acme-cert-names')).getByRole('combobox');
  await userEvent.type(box, `${text} `);
  return box;
}

describe('certificate dialog', () => {
  it('an empty form names what is missing on its fields and sends nothing', async () => {
    open();
    await screen.findByTestId('acme-cert-form');
    await save();
    expect(await screen.findByText('名称不能为空')).toBeTruthy();
    expect(screen.getByText('至少填写一个域名')).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
  });

  it('refuses a wildcard by HTTP-01 with the message on the names, and offers DNS-01', async () => {
    open();
    await userEvent.type(await screen.findByTestId('acme-cert-name'), 'wild');
    const names = await typeNames('*.example.com');
    expect(await screen.findByTestId('acme-cert-wildcard-hint')).toBeTruthy();
    await save();
    expect(
      await within(itemOf(names)).findByText(i18next.t('acme.err_wildcardNeedsDns', { name: '*.example.com' })),
    ).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
    // One click to DNS-01: the provider's fields show and the hint goes.
    await userEvent.click(screen.getByRole('button', { name: '改用 DNS-01' }));
    expect(await screen.findByTestId('acme-cert-dns')).toBeTruthy();
    expect(screen.getByText('API Token')).toBeTruthy();
    expect(screen.queryByTestId('acme-cert-wildcard-hint')).toBeNull();
  });

  it('marks a name that is no name, and tells which', async () => {
    open();
    await userEvent.type(await screen.findByTestId('acme-cert-name'), 'bad');
    const names = await typeNames('bad_name');
    await save();
    expect(
      await within(itemOf(names)).findByText(i18next.t('acme.err_domainInvalid', { name: 'bad_name' })),
    ).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
  });

  it('sends a new certificate with the first account and its names', async () => {
    net.route('api/acme/certificates', { body: { ret: 0, certificate: certView() } });
    const { onSaved } = open();
    await userEvent.type(await screen.findByTestId('acme-cert-name'), 'home');
    await typeNames('Home.Example.com');
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = bodyOf(sent('POST')[0]);
    expect(body).toMatchObject({ name: 'home', account: 'Acct1', names: ['home.example.com'], challenge: 'http-01' });
  });

  it('puts a server refusal on the field it names', async () => {
    net.route(`api/acme/certificates/${CERT_KEY}`, {
      body: {
        ret: 1,
        msg: 'name: another item is called home',
        code: 'nameTaken',
        field: 'name',
        params: { name: 'home' },
      },
    });
    open(certView());
    const name = await screen.findByTestId('acme-cert-name');
    await save();
    expect(await within(itemOf(name)).findByText(/home/)).toBeTruthy();
    expect(sent('PUT')).toHaveLength(1);
  });
});
