import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import AcmeScreen from './AcmeScreen';
import { CERT_KEY, certView, listAnswer } from './testData';

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
const inDays = (d: number) => new Date(Date.now() + d * 86_400_000 + 3_600_000).toISOString();

describe('ACME screen', () => {
  it('shows each certificate state, the translated failure, the days left and the running step', async () => {
    net.route('api/acme', {
      body: listAnswer({
        certificates: [
          certView(
            { key: 'Valid1', name: 'site', names: ['example.com', '*.example.com'], challenge: 'dns-01' },
            {
              state: 'valid',
              notAfter: inDays(60),
              lastIssuedAt: inDays(-30),
              nextRenewalAt: inDays(30),
              ariWindow: { start: inDays(29), end: inDays(31) },
            },
          ),
          certView(
            { key: 'Fail1', name: 'nas' },
            {
              state: 'failing',
              failures: 3,
              lastError: {
                code: 'validationFailed',
                params: { name: 'nas.example.com', type: 'http-01', detail: 'connection refused' },
                text: 'the CA could not validate nas.example.com by http-01: connection refused',
              },
            },
          ),
          certView({ key: 'Run1', name: 'run' }, { state: 'ordering', step: 'validation' }),
        ],
      }),
    });
    renderWithProviders(<AcmeScreen />);
    const valid = await screen.findByTestId('acme-cert-state-Valid1');
    expect(valid.textContent).toBe('有效');
    expect(screen.getByText('*.example.com')).toBeTruthy();
    expect(screen.getByTestId('acme-cert-expiry-Valid1').textContent).toContain('剩余 60 天');
    expect(screen.getByText('ARI')).toBeTruthy();
    expect(screen.getByTestId('acme-cert-reason-Fail1').textContent).toBe(
      i18next.t('acme.reason_validationFailed', {
        name: 'nas.example.com',
        type: 'http-01',
        detail: 'connection refused',
      }),
    );
    expect(screen.getByTestId('acme-cert-state-Fail1').textContent).toContain('连续失败 3 次');
    expect(screen.getByTestId('acme-cert-state-Run1').textContent).toBe('申请中CA 正在验证');
    // A valid one is renewed, a never-issued one issued; only an issued one can be revoked.
    expect(screen.getByTestId('acme-cert-issue-Valid1').textContent).toBe('立即续期');
    expect(screen.getByTestId('acme-cert-issue-Fail1').textContent).toBe('立即申请');
    await userEvent.click(screen.getByTestId('acme-cert-more-Fail1'));
    const revoke = (await screen.findByText('吊销')).closest('li') as HTMLElement;
    expect(revoke.getAttribute('aria-disabled')).toBe('true');
  });

  it('switches a certificate, issues it, and revokes it with the chosen reason', async () => {
    const valid = certView({}, { state: 'valid', notAfter: inDays(80), serial: '01', storeKey: 's1' });
    net.route('api/acme', { body: listAnswer({ certificates: [valid] }) });
    net.route(`api/acme/certificates/${CERT_KEY}/enable`, {
      body: { ret: 0, certificate: { ...valid, enabled: false } },
    });
    net.route(`api/acme/certificates/${CERT_KEY}/issue`, { body: { ret: 0, certificate: valid } });
    net.route(`api/acme/certificates/${CERT_KEY}/revoke`, {
      body: { ret: 0, certificate: { ...valid, status: { ...valid.status, state: 'revoked' } } },
    });
    renderWithProviders(<AcmeScreen />);
    await userEvent.click(await screen.findByTestId(`acme-cert-issue-${CERT_KEY}`));
    await waitFor(() => expect(sent('POST')).toHaveLength(1));
    expect(bodyOf(sent('POST')[0])).toEqual({ force: true });

    await userEvent.click(screen.getByTestId(`acme-cert-more-${CERT_KEY}`));
    await userEvent.click(await screen.findByText('吊销'));
    const dialog = await screen.findByTestId('acme-revoke-dialog');
    await userEvent.click(within(dialog).getByRole('combobox'));
    await userEvent.click((await screen.findAllByText('私钥泄露', { selector: '.ant-select-item-option-content' }))[0]);
    await userEvent.click(screen.getByTestId('acme-revoke-confirm'));
    await waitFor(() => expect(sent('POST')).toHaveLength(2));
    expect(String(sent('POST')[1][0])).toContain('/revoke');
    expect(bodyOf(sent('POST')[1])).toEqual({ reason: 'keyCompromise' });

    await userEvent.click(screen.getByTestId(`acme-cert-switch-${CERT_KEY}`));
    await waitFor(() => expect(sent('PUT')).toHaveLength(1));
    expect(bodyOf(sent('PUT')[0])).toEqual({ enabled: false });
  });
});
