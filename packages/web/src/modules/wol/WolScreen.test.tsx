import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import zh from '../../i18n/zh_CN.json';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { DeviceDialog } from './DeviceDialog';
import { DEVICE_KEY, deviceView, listReply } from './testData';
import WolScreen from './WolScreen';

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
const itemOf = (el: HTMLElement) => el.closest('.ant-form-item') as HTMLElement;
const fill = (text: string, vars: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, k) => String(vars[k]));

async function enter(el: HTMLElement, text: string) {
  await userEvent.click(el);
  await userEvent.paste(text);
}

function openDialog(otherNames: string[] = []) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(
    <DeviceDialog
      open
      otherNames={otherNames}
      interfaces={[
        { name: 'eth0', address: '192.168.1.2', cidr: '192.168.1.0/24', broadcast: '192.168.1.255', mac: '' },
      ]}
      sshAvailable
      pingAvailable
      onClose={onClose}
      onSaved={onSaved}
    />,
  );
  return { onSaved, onClose };
}

describe('Wake-on-LAN device dialog', () => {
  it('refuses an empty name and MAC list, a bad MAC line and a taken name before sending', async () => {
    openDialog(['NAS']);
    await userEvent.click(await screen.findByTestId('wol-device-save'));
    expect(await screen.findByText(zh.wol.err_nameRequired)).toBeTruthy();
    expect(screen.getByText(zh.wol.err_macRequired)).toBeTruthy();
    await enter(screen.getByTestId('wol-device-name'), 'nas');
    expect(await screen.findByText(fill(zh.wol.err_nameTaken, { name: 'NAS' }))).toBeTruthy();
    await enter(screen.getByTestId('wol-device-macs'), '00:11:22:33:44:55\n00:11:22:33:44');
    const macs = itemOf(screen.getByTestId('wol-device-macs'));
    expect(await within(macs).findByText(fill(zh.wol.err_macInvalid, { mac: '00:11:22:33:44' }))).toBeTruthy();
    expect(calls('POST', 'api/wol/devices')).toHaveLength(0);
  });

  it('sends a new device with the SSH shutdown it asks for, and shows a server refusal beside its field', async () => {
    net.route('api/wol/devices', (_url, init) =>
      calls('POST', 'api/wol/devices').length === 1
        ? {
            status: 400,
            body: {
              ret: 1,
              msg: 'shutdown.ssh.user: the SSH user is required',
              field: 'shutdown.ssh.user',
              code: 'sshUserRequired',
            },
          }
        : { body: { ret: 0, device: deviceView({ name: JSON.parse(String(init.body)).name }) } },
    );
    const { onSaved } = openDialog();
    await enter(await screen.findByTestId('wol-device-name'), ' PC ');
    await enter(screen.getByTestId('wol-device-macs'), 'AA-BB-CC-DD-EE-FF');
    await enter(screen.getByTestId('wol-device-host'), '192.168.1.20');
    await userEvent.click(within(screen.getByTestId('wol-device-method')).getByText('SSH'));
    await enter(await screen.findByTestId('wol-device-ssh-user'), 'root');
    await enter(
      screen.getByTestId('wol-device-ssh-key'),
      '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----',
    );
    await userEvent.click(screen.getByTestId('wol-device-save'));
    // The server's own refusal (here made up) goes beside the field it names.
    await waitFor(() => expect(calls('POST', 'api/wol/devices')).toHaveLength(1));
    const user = itemOf(screen.getByTestId('wol-device-ssh-user'));
    expect(await within(user).findByText(zh.wol.err_sshUserRequired)).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
    await userEvent.click(screen.getByTestId('wol-device-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = bodyOf(calls('POST', 'api/wol/devices')[1]);
    expect(body).toMatchObject({
      name: 'PC',
      macs: ['AA-BB-CC-DD-EE-FF'],
      port: 9,
      check: { host: '192.168.1.20', tcpPort: 0 },
      shutdown: { method: 'ssh', ssh: { user: 'root', port: 22 } },
      relay: { enabled: false },
    });
    expect(body.shutdown.ssh.privateKey).toContain('BEGIN OPENSSH PRIVATE KEY');
  });
});

describe('Wake-on-LAN screen', () => {
  it('shows each device’s badge and wakes with a wait; the button counts down and spins while the server waits', async () => {
    const deadline = new Date(Date.now() + 60_000).toISOString();
    let woke = false;
    net.route('api/wol/devices', () => ({
      body: listReply([
        deviceView(
          {},
          woke
            ? { online: 'offline', wake: { phase: 'waiting', startedAt: new Date().toISOString(), deadline } }
            : { online: 'offline' },
        ),
        deviceView({ key: 'Dev0002', name: 'TV', macs: ['00:11:22:33:44:66'] }, { online: 'unknown' }),
      ]),
    }));
    net.route(`api/wol/devices/${DEVICE_KEY}/wake`, () => {
      woke = true;
      return { body: { ret: 0, sent: 3, target: '255.255.255.255:9' } };
    });
    renderWithProviders(<WolScreen />);
    const badge = await screen.findByTestId(`wol-online-${DEVICE_KEY}`);
    expect(badge.textContent).toBe(zh.wol.ui_online_offline);
    expect(screen.getByTestId('wol-online-Dev0002').textContent).toBe(zh.wol.ui_online_unknown);
    await userEvent.click(screen.getByTestId(`wol-wake-${DEVICE_KEY}`));
    await waitFor(() => expect(calls('POST', `api/wol/devices/${DEVICE_KEY}/wake`)).toHaveLength(1));
    expect(String(calls('POST', `api/wol/devices/${DEVICE_KEY}/wake`)[0][0])).toMatch(/[?&]wait=120\b/);
    const button = screen.getByTestId(`wol-wake-${DEVICE_KEY}`);
    await waitFor(() => expect(button.textContent).toMatch(/还剩 \d+ 秒/));
    expect(button.classList.contains('ant-btn-loading')).toBe(true);
  });

  it('asks before shutting down and keeps Shutdown off for a device without a method', async () => {
    net.route('api/wol/devices', {
      body: listReply([
        deviceView({ shutdown: { ...deviceView().shutdown, method: 'agent' } }),
        deviceView({ key: 'Dev0002', name: 'TV', macs: ['00:11:22:33:44:66'] }),
      ]),
    });
    net.route(`api/wol/devices/${DEVICE_KEY}/shutdown`, { body: { ret: 0, ok: true } });
    renderWithProviders(<WolScreen />);
    expect(((await screen.findByTestId('wol-shutdown-Dev0002')) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(screen.getByTestId(`wol-shutdown-${DEVICE_KEY}`));
    expect(calls('POST', `api/wol/devices/${DEVICE_KEY}/shutdown`)).toHaveLength(0);
    // The confirmation's own button (the card's is the first of that name).
    const confirm = await screen.findByRole('tooltip');
    await userEvent.click(within(confirm).getByRole('button', { name: zh.wol.ui_shutdown }));
    await waitFor(() => expect(calls('POST', `api/wol/devices/${DEVICE_KEY}/shutdown`)).toHaveLength(1));
  });
});
