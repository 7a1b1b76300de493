import { type ReverseproxyRuleView, reverseproxyIssues } from '@lucky/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { RuleDialog } from './RuleDialog';
import { ruleView, service, subRule } from './testData';

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
/** The form item (label, control, message) around a control. */
const itemOf = (el: HTMLElement) => el.closest('.ant-form-item') as HTMLElement;
const save = () => userEvent.click(screen.getByTestId('rp-rule-save'));

function open(rule?: ReverseproxyRuleView) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  renderWithProviders(<RuleDialog open rule={rule} onClose={onClose} onSaved={onSaved} />);
  return { onSaved, onClose };
}

async function setPort(port: string) {
  const input = screen.getByTestId('rp-port');
  await userEvent.clear(input);
  await userEvent.type(input, port);
}

describe('rule dialog', () => {
  it('refuses a listening address that is not an IP, with the spec message, and sends nothing', async () => {
    open();
    const address = await screen.findByTestId('rp-address');
    await userEvent.type(address, '192.168.1.300');
    expect(await within(itemOf(address)).findByText('监听地址格式错误')).toBeTruthy();
    await save();
    expect(sent('POST')).toHaveLength(0);
    await userEvent.clear(address);
    await userEvent.type(address, 'fd00::1');
    await waitFor(() => expect(within(itemOf(address)).queryByText('监听地址格式错误')).toBeNull());
  });

  it('adds a rule: listener fields and the default rule service, cleaned', async () => {
    const saved = ruleView({ key: 'NEW' });
    net.route('api/reverseproxy/rules', { body: { ret: 0, key: 'NEW', rule: saved } });
    const { onSaved } = open();
    await userEvent.type(await screen.findByTestId('rp-rule-name'), ' Home ');
    await userEvent.type(screen.getByTestId('rp-address'), '127.0.0.1');
    await setPort('18080');
    await userEvent.click(screen.getByText('HTTP + HTTPS'));
    // HTTPS options show for HTTPS listeners; HTTP/3 says it is not supported.
    expect(await screen.findByText(/当前运行环境不支持 HTTP\/3/)).toBeTruthy();
    await userEvent.click(screen.getByText('文本输出'));
    await userEvent.type(screen.getByTestId('rp-text'), 'hello');
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(bodyOf(sent('POST')[0])).toMatchObject({
      name: 'Home',
      address: '127.0.0.1',
      port: 18080,
      listenTypes: 'both',
      http2: true,
      h2c: false,
      http3: false,
      defaultRule: { serviceType: 'text', text: 'hello', log: { capacity: 1000, level: 4, showLatest: 10 } },
      subRules: [],
    });
  });

  it('takes the PROXY protocol senders as a list of addresses, and names one that is not', async () => {
    const saved = ruleView({ key: 'NEW' });
    net.route('api/reverseproxy/rules', { body: { ret: 0, key: 'NEW', rule: saved } });
    const { onSaved } = open();
    const field = await screen.findByTestId('rp-proxy-protocol-from');
    const input = within(field).getByRole('combobox');
    await userEvent.type(input, '10.0.0.2 nope,');
    await userEvent.tab();
    expect(await within(itemOf(field)).findByText('不是有效的 IP 或 CIDR：nope')).toBeTruthy();
    await save();
    expect(sent('POST')).toHaveLength(0);
    // Remove the bad entry (its tag's close button), add a network, save.
    const bad = within(field).getByText('nope').closest('.tag-list-entry') as HTMLElement;
    await userEvent.click(bad.querySelector('.ant-tag-close-icon') as HTMLElement);
    await userEvent.type(input, '192.168.1.0/24 ');
    await waitFor(() => expect(within(itemOf(field)).queryByText(/不是有效的 IP 或 CIDR/)).toBeNull());
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(bodyOf(sent('POST')[0])).toMatchObject({ proxyProtocolFrom: ['10.0.0.2', '192.168.1.0/24'] });
  });

  it("puts the server's refusal on the field it names and stays open", async () => {
    net.route('api/reverseproxy/rules', {
      status: 409,
      body: {
        ret: 1,
        msg: 'port: another rule (web) listens on this address and port',
        field: 'port',
        code: 'portConflict',
        params: { rule: 'web' },
      },
    });
    const { onSaved, onClose } = open();
    await setPort('18080');
    await save();
    const port = screen.getByTestId('rp-port');
    expect(await within(itemOf(port)).findByText('另一条规则（web）已在此地址和端口监听')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('names the back end the server refused by index, on the default rule', async () => {
    net.route('api/reverseproxy/rules', {
      status: 400,
      body: {
        ret: 1,
        msg: 'defaultRule.targets.1: back-end address must be http(s)://host[:port][/path]: http://b.lan',
        field: 'defaultRule.targets.1',
        code: 'targetInvalid',
        params: { token: 'http://b.lan' },
      },
    });
    open();
    fireEvent.change(await screen.findByTestId('rp-targets'), { target: { value: 'http://a.lan\nhttp://b.lan' } });
    await save();
    const item = itemOf(screen.getByTestId('rp-targets'));
    expect(await within(item).findByText('后端地址格式应为 http(s)://主机[:端口][/路径]：http://b.lan')).toBeTruthy();
  });

  it('an edit sends the sub rules as the server has them now, with their keys and masked passwords', async () => {
    const listed = ruleView({
      defaultRule: service({ basicAuth: { enabled: true, user: 'me', password: '******', paths: [] } }),
    });
    const now = ruleView({ subRules: [subRule(), subRule({ key: 'SUB0000000000002', domains: ['new.test'] })] });
    net.route(`api/reverseproxy/rules/${listed.key}`, (_url, init) =>
      init.method === 'PUT' ? { body: { ret: 0, rule: now } } : { body: { ret: 0, rule: now } },
    );
    const { onSaved } = open(listed);
    await screen.findByTestId('rp-rule-form');
    // A stored password is never shown: it reads as the mask, and the field says so.
    await userEvent.click(
      screen.getByText('BasicAuth 认证', { selector: '.ant-collapse-title *, .ant-collapse-title' }),
    );
    expect(((await screen.findByTestId('rp-auth-password')) as HTMLInputElement).value).toBe('******');
    expect(screen.getByText('已保存的密码显示为掩码，不修改则保留原密码。')).toBeTruthy();
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(now));
    const body = bodyOf(sent('PUT')[0]);
    expect(body.defaultRule.basicAuth).toEqual({ enabled: true, user: 'me', password: '******', paths: [] });
    expect(body.subRules.map((s: { key: string }) => s.key)).toEqual(['SUB0000000000001', 'SUB0000000000002']);
    expect(body).not.toHaveProperty('status');
    expect(body).not.toHaveProperty('lastLogs');
  });

  it('network type: IPv4 + IPv6 by default, sent as chosen; an address of the other family is refused', async () => {
    const saved = ruleView({ key: 'NEW' });
    net.route('api/reverseproxy/rules', { body: { ret: 0, key: 'NEW', rule: saved } });
    const { onSaved } = open();
    const network = await screen.findByTestId('rp-network');
    expect((within(network).getByLabelText('IPv4 + IPv6') as HTMLInputElement).checked).toBe(true);
    const address = screen.getByTestId('rp-address');
    await userEvent.type(address, '192.168.1.2');
    await userEvent.click(within(network).getByText('仅 IPv6'));
    expect(await within(itemOf(address)).findByText('监听地址与网络类型的 IPv4/IPv6 不匹配')).toBeTruthy();
    await save();
    expect(sent('POST')).toHaveLength(0);
    await userEvent.click(within(network).getByText('仅 IPv4'));
    await waitFor(() => expect(within(itemOf(address)).queryByText(/不匹配/)).toBeNull());
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(bodyOf(sent('POST')[0])).toMatchObject({ network: 'tcp4', address: '192.168.1.2' });
  });

  it('custom config: checked line by line as typed, sent as written, a server refusal opens its panel', async () => {
    net.route('api/reverseproxy/rules', {
      status: 400,
      body: {
        ret: 1,
        msg: `defaultRule.customConfig: ${reverseproxyIssues.describe('customConfigHeader', { line: 2, token: 'X-Blocked' })}`,
        field: 'defaultRule.customConfig',
        code: 'customConfigHeader',
        params: { line: 2, token: 'X-Blocked' },
      },
    });
    const { onSaved } = open();
    await screen.findByTestId('rp-rule-form');
    await userEvent.click(screen.getByText('自定义配置', { selector: '.ant-collapse-title *, .ant-collapse-title' }));
    const box = await screen.findByTestId('rp-custom-config');
    fireEvent.change(box, { target: { value: 'add_header A b\nproxy_pass http://x;' } });
    expect(await within(itemOf(box)).findByText('第 2 行：不支持的指令 proxy_pass')).toBeTruthy();
    await save();
    expect(sent('POST')).toHaveLength(0);
    const text = 'proxy_set_header X-Site "home lab";\nproxy_hide_header X-Blocked';
    fireEvent.change(box, { target: { value: text } });
    await waitFor(() => expect(within(itemOf(box)).queryByText(/不支持的指令/)).toBeNull());
    // The panel's header counts the directives.
    expect(screen.getByText('2 条指令')).toBeTruthy();
    // Folded again: the server's refusal opens it and lands beside the box.
    await userEvent.click(screen.getByText('自定义配置', { selector: '.ant-collapse-title *, .ant-collapse-title' }));
    await waitFor(() =>
      expect(box.closest('.ant-collapse-item')?.classList.contains('ant-collapse-item-active')).toBe(false),
    );
    await save();
    expect(await within(itemOf(box)).findByText('第 2 行：无效或不可设置的头名 X-Blocked')).toBeTruthy();
    expect(box.closest('.ant-collapse-item')?.classList.contains('ant-collapse-item-active')).toBe(true);
    expect(bodyOf(sent('POST')[0]).defaultRule.customConfig).toBe(text);
    expect(onSaved).not.toHaveBeenCalled();
  });
});
