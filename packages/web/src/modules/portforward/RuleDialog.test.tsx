import { SECRET_MASK } from '@lucky/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { RuleDialog } from './RuleDialog';
import { ruleView } from './testData';

let net: FakeFetch;

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const posts = () => net.fn.mock.calls.filter(([, init]) => (init as RequestInit)?.method === 'POST');
const puts = () => net.fn.mock.calls.filter(([, init]) => (init as RequestInit)?.method === 'PUT');
const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body));

function open(rule = undefined as Parameters<typeof RuleDialog>[0]['rule']) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(<RuleDialog open rule={rule} onClose={onClose} onSaved={onSaved} />);
  return { onSaved, onClose };
}

/** The form item (label, control, message) around a control. */
const itemOf = (el: HTMLElement) => el.closest('.ant-form-item') as HTMLElement;
const save = () => userEvent.click(screen.getByTestId('pf-rule-save'));

async function addTarget(text: string) {
  const input = within(screen.getByTestId('pf-target-addresses')).getByRole('combobox');
  await userEvent.type(input, `${text}{Enter}`);
}

describe('rule dialog: checks while typing and on save', () => {
  it('an empty form shows the spec messages and sends nothing', async () => {
    open();
    await screen.findByTestId('pf-rule-form');
    await userEvent.click(screen.getByTestId('pf-type-tcp'));
    await save();
    expect(await screen.findByText('至少选择一种转发类型')).toBeTruthy();
    expect(screen.getByText('监听端口不能为空')).toBeTruthy();
    expect(screen.getByText('目标地址不能为空')).toBeTruthy();
    expect(screen.getByText('目标端口不能为空')).toBeTruthy();
    expect(posts()).toHaveLength(0);
  });

  it('names a bad port item as it is typed', async () => {
    open();
    const ports = await screen.findByTestId('pf-listen-ports');
    await userEvent.type(ports, '80,90-85');
    expect(await within(itemOf(ports)).findByText(/端口格式错误：90-85/)).toBeTruthy();
    await userEvent.clear(ports);
    await userEvent.type(ports, '80,8080-8082');
    await waitFor(() => expect(within(itemOf(ports)).queryByText(/端口格式错误/)).toBeNull());
    expect(screen.getByTestId('pf-listen-summary').textContent).toBe('4 个端口 × 1 种类型 = 4 个监听');
  });

  it('wants one target port or as many as listen ports', async () => {
    open();
    await userEvent.type(await screen.findByTestId('pf-listen-ports'), '80,81,82');
    const target = screen.getByTestId('pf-target-ports');
    await userEvent.type(target, '8080,8081');
    expect(await within(itemOf(target)).findByText('目标端口应为一个，或与监听端口数量相同（3 个）')).toBeTruthy();
    await userEvent.type(target, ',8082');
    await waitFor(() => expect(within(itemOf(target)).queryByText(/目标端口应为/)).toBeNull());
  });

  it('checks the listen address as an IP of the chosen family', async () => {
    open();
    const label = await screen.findByText('监听地址');
    const input = within(itemOf(label)).getByRole('textbox');
    await userEvent.type(input, '192.168.1.300');
    expect(await within(itemOf(label)).findByText('监听地址格式错误')).toBeTruthy();
    await userEvent.clear(input);
    await userEvent.type(input, '192.168.1.3');
    // Dual-stack TCP (the default) listens on an IPv4 address; TCP6 cannot.
    await userEvent.click(screen.getByTestId('pf-type-tcp6'));
    expect(await within(itemOf(label)).findByText('监听地址与转发类型的 IPv4/IPv6 不匹配')).toBeTruthy();
    await userEvent.click(screen.getByTestId('pf-type-tcp4'));
    await userEvent.click(screen.getByTestId('pf-type-tcp6'));
    await waitFor(() => expect(within(itemOf(label)).queryByText(/不匹配/)).toBeNull());
  });

  it('marks a target that is not an IP or host name', async () => {
    open();
    await screen.findByTestId('pf-rule-form');
    await addTarget('bad_host!');
    const item = itemOf(screen.getByTestId('pf-target-addresses'));
    expect(await within(item).findByText('不是有效的 IP 或主机名：bad_host!')).toBeTruthy();
  });

  it('starts as dual-stack TCP, which TCP4/TCP6 replace and which clears them again', async () => {
    open();
    await screen.findByTestId('pf-rule-form');
    const box = (type: string) => screen.getByTestId(`pf-type-${type}`) as HTMLInputElement;
    expect(['tcp4', 'tcp6', 'tcp', 'udp4', 'udp6', 'udp'].filter((x) => box(x).checked)).toEqual(['tcp']);
    await userEvent.click(box('tcp4'));
    await userEvent.click(box('tcp6'));
    expect(box('tcp').checked).toBe(false);
    expect(box('tcp4').checked && box('tcp6').checked).toBe(true);
    await userEvent.click(box('tcp'));
    expect(box('tcp').checked).toBe(true);
    expect(box('tcp4').checked || box('tcp6').checked).toBe(false);
  });
});

describe('rule dialog: saving', () => {
  it('adds a rule with clean values and speed limits in bytes/s', async () => {
    const saved = ruleView({ key: 'NEWKEY0000000000' });
    net.route('api/portforward/rules', { body: { ret: 0, key: saved.key, rule: saved } });
    const { onSaved } = open();
    await userEvent.type(await screen.findByLabelText('名称'), ' NAS ');
    await userEvent.click(screen.getByTestId('pf-type-udp4'));
    await userEvent.type(screen.getByTestId('pf-listen-ports'), '8080');
    await addTarget('192.168.1.10');
    await addTarget('nas.lan');
    await userEvent.type(screen.getByTestId('pf-target-ports'), '80');
    await userEvent.click(screen.getByText('连接数与限速'));
    const speedIn = within(screen.getByTestId('pf-speed-in')).getByRole('spinbutton');
    await userEvent.clear(speedIn);
    await userEvent.type(speedIn, '250');
    fireEvent.blur(speedIn);
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(posts()).toHaveLength(1);
    expect(bodyOf(posts()[0])).toMatchObject({
      name: 'NAS',
      enabled: true,
      forwardTypes: ['udp4', 'tcp'],
      listenAddress: '',
      listenPorts: '8080',
      targetAddresses: ['192.168.1.10', 'nas.lan'],
      targetPorts: '80',
      speedLimitIn: 250_000,
      speedLimitOut: 0,
      maxTcpConnections: 256,
      logLevel: 4,
    });
  });

  it('keeps an address typed without Enter', async () => {
    const saved = ruleView();
    net.route('api/portforward/rules', { body: { ret: 0, key: saved.key, rule: saved } });
    const { onSaved } = open();
    await userEvent.type(await screen.findByTestId('pf-listen-ports'), '8080');
    await userEvent.type(within(screen.getByTestId('pf-target-addresses')).getByRole('combobox'), '10.0.0.7');
    await userEvent.type(screen.getByTestId('pf-target-ports'), '80');
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(bodyOf(posts()[0]).targetAddresses).toEqual(['10.0.0.7']);
  });

  it('puts the server refusal on the field it names and stays open', async () => {
    net.route('api/portforward/rules', {
      status: 409,
      body: {
        ret: 1,
        msg: 'listenPorts: tcp port 8080 is already used by rule web',
        field: 'listenPorts',
        code: 'portConflict',
        params: { port: 8080, protocol: 'tcp', rule: 'web' },
      },
    });
    const { onSaved, onClose } = open();
    await userEvent.type(await screen.findByTestId('pf-listen-ports'), '8080');
    await addTarget('10.0.0.2');
    await userEvent.type(screen.getByTestId('pf-target-ports'), '80');
    await save();
    const item = itemOf(screen.getByTestId('pf-listen-ports'));
    expect(await within(item).findByText('TCP 端口 8080 已被规则“web”使用')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByTestId('pf-rule-form')).toBeTruthy();
  });

  it('opens the folded panel of a refused advanced field (edit)', async () => {
    const rule = ruleView({ tlsMode: 'terminate', tlsCert: 'CERT', tlsKey: SECRET_MASK });
    net.route(`api/portforward/rules/${rule.key}`, {
      status: 400,
      body: { ret: 1, msg: 'tlsCert: not a valid PEM pair', field: 'tlsCert', code: 'tlsPairInvalid', params: {} },
    });
    open(rule);
    await screen.findByTestId('pf-rule-form');
    await save();
    const cert = await screen.findByTestId('pf-tls-cert');
    expect(await within(itemOf(cert)).findByText('证书和私钥不是有效的 PEM 配对')).toBeTruthy();
    expect(cert.closest('.ant-collapse-item-active')).toBeTruthy();
    // The stored key is shown as the mask and sent back so: the server keeps it.
    expect(puts()).toHaveLength(1);
    expect(bodyOf(puts()[0])).toMatchObject({ tlsMode: 'terminate', tlsCert: 'CERT', tlsKey: SECRET_MASK });
    expect(bodyOf(puts()[0])).not.toHaveProperty('key');
    expect(bodyOf(puts()[0])).not.toHaveProperty('proxies');
  });

  it('names the list entry the server refused by index', async () => {
    net.route('api/portforward/rules', {
      status: 400,
      body: { ret: 1, msg: 'bad', field: 'targetAddresses.1', code: 'targetAddressInvalid', params: {} },
    });
    open();
    await userEvent.type(await screen.findByTestId('pf-listen-ports'), '8080');
    await addTarget('10.0.0.2');
    await addTarget('nas.lan');
    await userEvent.type(screen.getByTestId('pf-target-ports'), '80');
    await save();
    const item = itemOf(screen.getByTestId('pf-target-addresses'));
    expect(await within(item).findByText('不是有效的 IP 或主机名：nas.lan')).toBeTruthy();
  });
});
