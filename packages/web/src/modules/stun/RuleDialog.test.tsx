import { SECRET_MASK } from '@lucky/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { RuleDialog } from './RuleDialog';
import { listReply, RULE_KEY, ruleView, settings } from './testData';

let net: FakeFetch;

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
  net.route('api/stun/settings', { body: { ret: 0, settings: settings(), summary: listReply([]).summary } });
  net.route('api/stun/ddns-tasks', { body: { ret: 0, tasks: [{ key: 'Task1', name: 'home A record' }] } });
  net.route('api/netinterfaces', {
    body: {
      ret: 0,
      data: {
        IPv4NewInterfaces: [{ NetInterfaceName: 'eth0', HardwareAddr: '', AddressList: ['192.168.1.2'] }],
        IPv6NewInterfaces: [],
      },
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const calls = (method: string, path: string) =>
  net.fn.mock.calls.filter(
    ([url, init]) => String(url).split('?')[0] === path && (init as RequestInit)?.method === method,
  );
const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body));

function open(rule?: Parameters<typeof RuleDialog>[0]['rule'], otherNames: string[] = []) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(<RuleDialog open rule={rule} otherNames={otherNames} onClose={onClose} onSaved={onSaved} />);
  return { onSaved, onClose };
}

/** The form item (label, control, message) around a control. */
const itemOf = (el: HTMLElement) => el.closest('.ant-form-item') as HTMLElement;
const save = () => userEvent.click(screen.getByTestId('stun-rule-save'));

/** Puts text into a field at once (typing re-renders the dialog per key, which only costs time here). */
async function enter(el: HTMLElement, text: string) {
  await userEvent.click(el);
  await userEvent.paste(text);
}

async function fillBasics(name: string) {
  await enter(await screen.findByTestId('stun-rule-name'), name);
  await enter(screen.getByTestId('stun-target-address'), '192.168.1.10');
  await enter(screen.getByTestId('stun-target-port'), '22');
}

describe('STUN rule dialog', () => {
  it('sends a new rule with the schema defaults, both protocols and the global fall-backs as 0 / empty', async () => {
    const saved = ruleView({ key: 'NewRule1' });
    net.route('api/stun/rules', { body: { ret: 0, key: saved.key, rule: saved } });
    const { onSaved } = open();
    await fillBasics(' NAS ssh ');
    await userEvent.click(within(screen.getByTestId('stun-protocols')).getByLabelText('UDP'));
    await userEvent.clear(screen.getByTestId('stun-local-port'));
    await enter(screen.getByTestId('stun-local-port'), '40000');
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(calls('POST', 'api/stun/rules')).toHaveLength(1);
    expect(bodyOf(calls('POST', 'api/stun/rules')[0])).toEqual({
      name: 'NAS ssh',
      enabled: true,
      protocols: ['tcp', 'udp'],
      autoWhitelist: false,
      channelMode: 'ip',
      channelIp: '',
      channelInterface: '',
      localPort: 40000,
      upnp: false,
      upnpGateway: '',
      natpmp: false,
      natpmpMethod: 'auto',
      natpmpGateway: '',
      leaseSec: 3600,
      disableForwarding: false,
      targetAddress: '192.168.1.10',
      targetPort: 22,
      maxConnections: 256,
      perIpMaxConnections: 64,
      udpTimeoutMs: 60_000,
      tcpIdleTimeoutMs: 1_800_000,
      script: '',
      webhook: expect.objectContaining({ enabled: false, method: 'GET', headers: [], successStrings: [] }),
      ddnsTask: '',
      stunServers: [],
      timeoutMs: 5000,
      heartbeatSec: 0,
      retrySec: 0,
      logLevel: 4,
      logCapacity: 1024,
      logShowLatest: 16,
    });
  });

  it('shows the server’s refusal of a taken name beside the name and stays open', async () => {
    net.route('api/stun/rules', {
      status: 400,
      body: {
        ret: 1,
        msg: 'rules.1.name: rule name must be unique: another rule is called nas',
        field: 'rules.1.name',
        code: 'nameTaken',
        params: { name: 'nas' },
      },
    });
    const { onSaved, onClose } = open();
    await fillBasics('NAS');
    await save();
    const item = itemOf(screen.getByTestId('stun-rule-name'));
    expect(await within(item).findByText('规则名称必须唯一：已有规则叫“nas”')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    // Editing the name takes the refusal away.
    await userEvent.type(screen.getByTestId('stun-rule-name'), '2');
    await waitFor(() => expect(within(item).queryByText(/必须唯一/)).toBeNull());
  });

  it('puts a local port another rule holds beside the local port', async () => {
    net.route('api/stun/rules', {
      status: 409,
      body: {
        ret: 1,
        msg: 'localPort: UDP local port 40000 is already used by rule game',
        field: 'localPort',
        code: 'localPortTaken',
        params: { protocol: 'UDP', port: 40000, rule: 'game' },
      },
    });
    open();
    await fillBasics('NAS');
    await save();
    const item = itemOf(screen.getByTestId('stun-local-port'));
    expect(await within(item).findByText('UDP 本地端口 40000 已被规则“game”使用')).toBeTruthy();
  });

  it('opens the folded group of a refused field: a bad STUN server, named by the server', async () => {
    net.route('api/stun/rules', {
      status: 400,
      body: {
        ret: 1,
        msg: 'stunServers.0: a STUN server is host or host:port, IPv4 or a name (stun:bad)',
        field: 'stunServers.0',
        code: 'serverInvalid',
        params: { entry: 'stun:bad' },
      },
    });
    open();
    await fillBasics('NAS');
    await save();
    const servers = await screen.findByTestId('stun-rule-servers');
    expect(
      await within(itemOf(servers)).findByText('STUN 服务器应为 host 或 host:port（IPv4 或域名）：stun:bad'),
    ).toBeTruthy();
    expect(servers.closest('.ant-collapse-item-active')).toBeTruthy();
  });

  it('refuses what the schema refuses before sending: empty name and target, a name another rule has', async () => {
    open(undefined, ['Web']);
    await screen.findByTestId('stun-rule-form');
    await save();
    expect(await screen.findByText('规则名称不能为空')).toBeTruthy();
    expect(screen.getByText('目标地址不能为空')).toBeTruthy();
    await enter(screen.getByTestId('stun-rule-name'), 'web');
    expect(await screen.findByText('规则名称必须唯一：已有规则叫“Web”')).toBeTruthy();
    expect(calls('POST', 'api/stun/rules')).toHaveLength(0);
  });

  it('edits a rule: sends its fields back (masked secrets kept), not its key or live state; global values as placeholders', async () => {
    const rule = ruleView({
      heartbeatSec: 0,
      retrySec: 30,
      webhook: {
        ...ruleView().webhook,
        enabled: true,
        url: 'https://hook.example/x',
        successStrings: ['ok'],
        proxy: { type: 'http', address: '10.0.0.1:3128', user: 'u', password: SECRET_MASK },
      },
    });
    net.route(`api/stun/rules/${RULE_KEY}`, { body: { ret: 0, rule } });
    const { onSaved } = open(rule);
    const heartbeat = await screen.findByTestId('stun-rule-heartbeat');
    await waitFor(() => expect((heartbeat as HTMLInputElement).placeholder).toBe('全局：25'));
    expect((heartbeat as HTMLInputElement).value).toBe('');
    expect((screen.getByTestId('stun-rule-retry') as HTMLInputElement).value).toBe('30');
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(rule));
    const body = bodyOf(calls('PUT', `api/stun/rules/${RULE_KEY}`)[0]);
    expect(body).toMatchObject({
      name: 'NAS ssh',
      protocols: ['tcp', 'udp'],
      heartbeatSec: 0,
      retrySec: 30,
      webhook: { enabled: true, successStrings: ['ok'], proxy: { password: SECRET_MASK } },
    });
    for (const live of ['key', 'state', 'mappings', 'lastLogs']) expect(body).not.toHaveProperty(live);
  });

  it('explains what turning off the built-in forwarding means', async () => {
    open();
    await screen.findByTestId('stun-rule-form');
    expect(screen.queryByTestId('stun-forwarding-off-note')).toBeNull();
    await userEvent.click(screen.getByTestId('stun-disable-forwarding'));
    expect((await screen.findByTestId('stun-forwarding-off-note')).textContent).toContain('路由器或内核');
  });
});
