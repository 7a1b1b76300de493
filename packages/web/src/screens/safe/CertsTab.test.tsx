import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { CertsTab } from './CertsTab';
import type { CertView } from './certs';
import { CERT_PEM, certView, ENCRYPTED_KEY_PEM, KEY_PEM } from './certTestData';

// Texts by key: the same lookup the screen makes, whatever the locale file holds.
const tx = (key: string, vars?: Record<string, unknown>) => i18next.t(key, vars);

let net: FakeFetch;
let list: CertView[];

/** Every call to api/ssl: method and query. */
const sslCalls = () =>
  net.fn.mock.calls
    .filter(([url]) => String(url).split('?')[0] === 'api/ssl')
    .map(([url, init]) => {
      const q = new URLSearchParams(String(url).split('?')[1]);
      q.delete('_');
      return {
        method: (init as RequestInit)?.method ?? 'GET',
        query: Object.fromEntries(q),
        body: (init as RequestInit)?.body ? JSON.parse(String((init as RequestInit).body)) : undefined,
      };
    });
const writes = () => sslCalls().filter((c) => c.method !== 'GET');

/** api/ssl answers: the list on GET, `ok` to anything else unless `onWrite` says otherwise. */
function serve(onWrite?: (method: string, url: string, init: RequestInit) => { status?: number; body: unknown }) {
  net.route('api/ssl', (url, init) => {
    const method = init.method ?? 'GET';
    if (method === 'GET') return { body: { ret: 0, list } };
    return onWrite?.(method, url, init) ?? { body: { ret: 0 } };
  });
}

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
  list = [];
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('certificate list', () => {
  it('shows domains, validity with days left, expiry tags, issuer and a short fingerprint', async () => {
    list = [
      certView({ Key: 'OK', untilDays: 80.5, Remark: 'home' }),
      certView({
        Key: 'SOON',
        untilDays: 12.5,
        domains: ['b.test', '*.b.test', 'c.test', 'd.test', 'e.test', 'f.test'],
      }),
      certView({ Key: 'OLD', untilDays: -3.5, Enable: false }),
      { ...certView({ Key: 'BAD' }), CertsInfo: [], Fingerprint: '', Expired: true },
    ];
    list[0].CertsInfo.push({ Domains: ['r3'], NotBeforeTime: '', NotAfterTime: '' });
    serve();
    renderWithProviders(<CertsTab />);

    const domains = await screen.findByTestId('cert-domains-OK');
    expect([...domains.querySelectorAll('.ant-tag')].map((e) => e.textContent)).toEqual(['a.test', 'www.a.test']);
    // Past four names the rest fold into "+n".
    const many = screen.getByTestId('cert-domains-SOON');
    expect([...many.querySelectorAll('.ant-tag')].map((e) => e.textContent)).toEqual([
      'b.test',
      '*.b.test',
      'c.test',
      'd.test',
      '+2',
    ]);

    const ok = screen.getByTestId('cert-validity-OK');
    expect(ok.textContent).toContain(tx('safe.certDaysLeft', { count: 80 }));
    expect(ok.textContent).not.toContain(tx('safe.certTagSoon'));
    expect(ok.textContent).not.toContain(tx('safe.certTagExpired'));
    const soon = screen.getByTestId('cert-validity-SOON');
    expect(soon.textContent).toContain(tx('safe.certTagSoon'));
    expect(soon.textContent).toContain(tx('safe.certDaysLeft', { count: 12 }));
    const old = screen.getByTestId('cert-validity-OLD');
    expect(old.textContent).toContain(tx('safe.certTagExpired'));
    expect(old.textContent).toContain(tx('safe.certExpiredAgo', { count: 4 }));
    expect(screen.getByTestId('cert-validity-BAD').textContent).toContain(tx('safe.certTagUnreadable'));

    expect(screen.getByTestId('cert-issuer-OK').textContent).toBe(tx('safe.certIssuedBy', { name: 'r3' }));
    expect(screen.queryByTestId('cert-issuer-SOON')).toBeNull();
    expect(screen.getByTestId('cert-fingerprint-OK').textContent).toBe('AB:12:CD:34…CD:9F');
    expect(screen.getByTestId('cert-remark-OK').textContent).toContain('home');
    expect(screen.getByTestId('cert-enable-OK').getAttribute('aria-checked')).toBe('true');
    expect(screen.getByTestId('cert-enable-OLD').getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('cert-row-OLD').className).toContain('cert-row-off');
    // The SNI / no-restart explanation is on the tab.
    expect(screen.getByText(tx('safe.certsHelp'))).toBeTruthy();
  });

  it('says when there is none yet and opens the add dialog from there', async () => {
    serve();
    renderWithProviders(<CertsTab />);
    const empty = await screen.findByTestId('certs-empty');
    expect(empty.textContent).toContain(tx('safe.certsEmpty'));
    await userEvent.click(within(empty).getByRole('button', { name: new RegExp(tx('safe.certAdd')) }));
    expect(await screen.findByTestId('cert-add-form')).toBeTruthy();
  });
});

describe('row actions', () => {
  it('the switch turns a certificate off through PUT field=enable', async () => {
    list = [certView({ Key: 'K1' })];
    serve((method) => {
      if (method === 'PUT') list = [{ ...list[0], Enable: false }];
      return { body: { ret: 0 } };
    });
    renderWithProviders(<CertsTab />);
    const sw = await screen.findByTestId('cert-enable-K1');
    await userEvent.click(sw);
    await waitFor(() =>
      expect(writes()).toEqual([
        { method: 'PUT', query: { key: 'K1', field: 'enable', value: 'false' }, body: undefined },
      ]),
    );
    await waitFor(() => expect(screen.getByTestId('cert-enable-K1').getAttribute('aria-checked')).toBe('false'));
    expect(await screen.findByText(tx('safe.certSwitchedOff'))).toBeTruthy();
  });

  it('a refused switch shows the reason and goes back to what the server has', async () => {
    list = [certView({ Key: 'K1' })];
    serve(() => ({ status: 404, body: { ret: 1, msg: 'no such certificate' } }));
    renderWithProviders(<CertsTab />);
    await userEvent.click(await screen.findByTestId('cert-enable-K1'));
    expect(await screen.findByText('no such certificate')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('cert-enable-K1').getAttribute('aria-checked')).toBe('true'));
  });

  it('edits the remark in place through PUT field=remark', async () => {
    list = [certView({ Key: 'K1', Remark: 'old' })];
    serve((method, url) => {
      const value = new URLSearchParams(url.split('?')[1]).get('value') ?? '';
      if (method === 'PUT') list = [{ ...list[0], Remark: value }];
      return { body: { ret: 0 } };
    });
    renderWithProviders(<CertsTab />);
    const cell = await screen.findByTestId('cert-remark-K1');
    await userEvent.click(cell.querySelector('.ant-typography-edit') as HTMLElement);
    const box = within(cell).getByRole('textbox');
    fireEvent.change(box, { target: { value: '  NAS, renew in May ' } });
    // antd's editable text confirms on the keyCode of Enter, which user-event leaves at 0.
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 13 });
    fireEvent.keyUp(box, { key: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(writes()).toEqual([
        { method: 'PUT', query: { key: 'K1', field: 'remark', value: 'NAS, renew in May' }, body: undefined },
      ]),
    );
    await waitFor(() => expect(screen.getByTestId('cert-remark-K1').textContent).toContain('NAS, renew in May'));
  });

  it('deletes after confirmation through DELETE ?key=', async () => {
    list = [certView({ Key: 'K1' })];
    serve((method) => {
      if (method === 'DELETE') list = [];
      return { body: { ret: 0 } };
    });
    renderWithProviders(<CertsTab />);
    await userEvent.click(await screen.findByTestId('cert-delete-K1'));
    // Nothing is sent before the confirmation.
    const confirm = await screen.findByText(tx('safe.certDeleteConfirm'));
    expect(writes()).toEqual([]);
    const pop = confirm.closest('.ant-popover') as HTMLElement;
    await userEvent.click(pop.querySelector('.ant-popconfirm-buttons .ant-btn-primary') as HTMLElement);
    await waitFor(() => expect(writes()).toEqual([{ method: 'DELETE', query: { key: 'K1' }, body: undefined }]));
    expect(await screen.findByTestId('certs-empty')).toBeTruthy();
  });
});

describe('add dialog', () => {
  async function openDialog() {
    serve();
    renderWithProviders(<CertsTab />);
    await userEvent.click(await screen.findByTestId('cert-add'));
    return screen.findByTestId('cert-add-form');
  }
  const setBox = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
  const itemOf = (testId: string) => screen.getByTestId(testId).closest('.ant-form-item') as HTMLElement;
  const save = () => userEvent.click(screen.getByTestId('cert-add-save'));

  it('refuses text that is not PEM, and each PEM in the wrong box, without calling the server', async () => {
    await openDialog();
    await save();
    expect(await within(itemOf('cert-add-cert')).findByText(tx('safe.certRequired'))).toBeTruthy();
    expect(within(itemOf('cert-add-key')).getByText(tx('safe.certKeyRequired'))).toBeTruthy();

    setBox('cert-add-cert', 'hello');
    setBox('cert-add-key', 'world');
    expect(await within(itemOf('cert-add-cert')).findByText(tx('safe.certNotPem'))).toBeTruthy();
    expect(await within(itemOf('cert-add-key')).findByText(tx('safe.certKeyNotPem'))).toBeTruthy();

    setBox('cert-add-cert', KEY_PEM);
    setBox('cert-add-key', CERT_PEM);
    expect(await within(itemOf('cert-add-cert')).findByText(tx('safe.certIsKey'))).toBeTruthy();
    expect(await within(itemOf('cert-add-key')).findByText(tx('safe.certKeyIsCert'))).toBeTruthy();

    setBox('cert-add-cert', CERT_PEM);
    setBox('cert-add-key', ENCRYPTED_KEY_PEM);
    expect(await within(itemOf('cert-add-key')).findByText(tx('safe.certKeyEncrypted'))).toBeTruthy();
    await save();
    expect(writes()).toEqual([]);
  });

  it('sends the PEM texts and the remark, then lists the new certificate', async () => {
    await openDialog();
    serve((method) => {
      list = [certView({ Key: 'NEW', Remark: 'web' })];
      return { body: method === 'POST' ? { ret: 0, key: 'NEW' } : { ret: 0 } };
    });
    setBox('cert-add-cert', `\n${CERT_PEM}\n`);
    setBox('cert-add-key', KEY_PEM);
    await userEvent.type(screen.getByTestId('cert-add-remark'), ' web ');
    await save();
    await waitFor(() =>
      expect(writes()).toEqual([
        { method: 'POST', query: {}, body: { Remark: 'web', CertBase64: CERT_PEM, KeyBase64: KEY_PEM } },
      ]),
    );
    expect(await screen.findByTestId('cert-domains-NEW')).toBeTruthy();
    expect(await screen.findByText(tx('safe.certAdded'))).toBeTruthy();
    // The dialog closes (motion is off in tests, so it is gone at once).
    await waitFor(() => expect(screen.queryByTestId('cert-add-form')).toBeNull());
  });

  it('puts the server refusal on the field it names, in the user language', async () => {
    await openDialog();
    let answer = {
      status: 400,
      body: {
        ret: 2,
        msg: 'the private key does not belong to the certificate',
        field: 'KeyBase64',
        code: 'certInvalid',
      },
    };
    serve(() => answer);
    setBox('cert-add-cert', CERT_PEM);
    setBox('cert-add-key', KEY_PEM);
    await save();
    expect(await within(itemOf('cert-add-key')).findByText(tx('safe.certErrKeyMismatch'))).toBeTruthy();
    expect(within(itemOf('cert-add-cert')).queryByRole('alert')).toBeNull();

    answer = {
      status: 409,
      body: { ret: 2, msg: 'this certificate is already stored (key K1)', field: 'CertBase64', code: 'certDuplicate' },
    };
    await save();
    expect(await within(itemOf('cert-add-cert')).findByText(tx('safe.certErrDuplicate'))).toBeTruthy();
    // The dialog stays open with what was typed.
    expect((screen.getByTestId('cert-add-cert') as HTMLTextAreaElement).value).toBe(CERT_PEM);
    // Field errors only: no English server text in a message.
    expect(screen.queryByText(/already stored \(key/)).toBeNull();
  });

  it('splits a file holding both the chain and the key into the two boxes', async () => {
    await openDialog();
    setBox('cert-add-cert', `${CERT_PEM}\n${KEY_PEM}\n`);
    await waitFor(() => expect((screen.getByTestId('cert-add-key') as HTMLTextAreaElement).value).toBe(KEY_PEM));
    expect((screen.getByTestId('cert-add-cert') as HTMLTextAreaElement).value).toBe(CERT_PEM);
  });
});
