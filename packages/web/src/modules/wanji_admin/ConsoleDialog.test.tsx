// The add dialog with a scripted server: pin mode refuses without a fingerprint; "check
// certificate" shows what the console presents; the user's confirmation pins it and it is sent.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import zh from '../../i18n/zh_CN.json';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { ConsoleDialog } from './ConsoleDialog';
import { consoleView, FP_NEW } from './testData';

let net: FakeFetch;

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const calls = (method: string, path: string) =>
  net.fn.mock.calls.filter(
    ([url, init]) => String(url).split('?')[0] === path && (init as RequestInit)?.method === method,
  );
const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body));

describe('wanji_admin console dialog', () => {
  it('checks the certificate, pins the fingerprint the user confirms, and sends it with the console', async () => {
    net.route('api/wanji_admin/probe', {
      body: {
        ret: 0,
        fingerprint: FP_NEW,
        subject: 'CN=lucky',
        issuer: 'CN=lucky',
        validFrom: '2026-01-01T00:00:00Z',
        validTo: '2036-01-01T00:00:00Z',
        altNames: ['127.0.0.1'],
        selfSigned: true,
        caValid: false,
        caError: 'self-signed certificate',
      },
    });
    net.route('api/wanji_admin/consoles', (_u, init) => ({
      body: { ret: 0, console: consoleView({ ...JSON.parse(String(init.body)), key: 'n1' }) },
    }));
    const onSaved = vi.fn();
    renderWithProviders(<ConsoleDialog open onClose={() => {}} onSaved={onSaved} />);
    const url = await screen.findByTestId('wanji-console-url');
    fireEvent.change(url, { target: { value: 'https://127.0.0.1:16601' } });
    fireEvent.change(screen.getByTestId('wanji-console-name'), { target: { value: 'B' } });
    fireEvent.change(screen.getByTestId('wanji-console-token'), { target: { value: 'lkt_abc' } });
    // Without a fingerprint the pin mode refuses before sending.
    fireEvent.click(screen.getByTestId('wanji-console-save'));
    expect(await screen.findByText(zh.wanji_admin.err_fingerprintRequired)).toBeTruthy();
    expect(calls('POST', 'api/wanji_admin/consoles')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('wanji-console-probe'));
    expect((await screen.findByTestId('wanji-console-seen-fingerprint')).textContent).toContain(FP_NEW);
    expect(bodyOf(calls('POST', 'api/wanji_admin/probe')[0])).toEqual({ url: 'https://127.0.0.1:16601', ca: '' });
    expect(screen.getByTestId('wanji-console-probe-result').textContent).toContain(zh.wanji_admin.dialog_confirmPin);
    fireEvent.click(screen.getByTestId('wanji-console-trust'));
    await waitFor(() =>
      expect((screen.getByTestId('wanji-console-fingerprint') as HTMLInputElement).value).toBe(FP_NEW),
    );
    expect(screen.getByTestId('wanji-console-probe-result').textContent).toContain(zh.wanji_admin.dialog_pinned);
    await act(async () => {
      fireEvent.click(screen.getByTestId('wanji-console-save'));
    });
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(bodyOf(calls('POST', 'api/wanji_admin/consoles')[0])).toMatchObject({
      name: 'B',
      url: 'https://127.0.0.1:16601',
      token: 'lkt_abc',
      tls: { mode: 'pin', fingerprint: FP_NEW, ca: '' },
      enabled: true,
    });
  });
});
