import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { dialogFooter, popconfirm } from '../../test/antd';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import PortforwardScreen from './PortforwardScreen';
import { listReply, proxy, ruleView } from './testData';

let net: FakeFetch;

const callsTo = (method: string, path: string) =>
  net.fn.mock.calls.filter(
    ([url, init]) => String(url).split('?')[0] === path && ((init as RequestInit)?.method ?? 'GET') === method,
  );

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('rule list', () => {
  it('shows each port with its state, and the reason next to a failed one', async () => {
    const rule = ruleView({
      state: 'error',
      error: '1 of 2 port(s) not running: listen EADDRINUSE: address already in use :::8081',
      listenPorts: '8080-8081',
      targetPorts: '80-81',
      connections: 3,
      bytesIn: 1_234_567,
      rateIn: 2048,
      proxies: [
        proxy({ connections: 3, bytesIn: 1_234_567, rateIn: 2048, accepted: 5 }),
        proxy({
          id: 'tcp6@:8081',
          listen: '[::]:8081',
          port: 8081,
          targetPort: 81,
          state: 'error',
          error: 'listen EADDRINUSE: address already in use :::8081',
        }),
      ],
      lastLogs: [{ seq: 7, time: '2024-05-01T10:00:00.000Z', level: 2, text: 'port 8081: address in use' }],
    });
    net.route('api/portforward/rules', { body: listReply([rule]) });
    renderWithProviders(<PortforwardScreen />);

    const card = await screen.findByTestId('pf-rule-AAAAAAAAAAAAAAAA');
    expect(within(card).getByText('NAS web')).toBeTruthy();
    expect(within(card).getByTestId('pf-rule-state-AAAAAAAAAAAAAAAA').textContent).toBe('错误');
    expect(within(card).getByTestId('pf-rule-route-AAAAAAAAAAAAAAAA').textContent).toContain(
      '*:8080-8081→192.168.1.10:80-81',
    );
    const bad = within(card).getByTestId('pf-proxy-tcp6@:8081');
    expect(bad.textContent).toContain('错误');
    expect(bad.textContent).toContain('EADDRINUSE');
    expect(within(card).getByTestId('pf-proxy-tcp6@:8080').textContent).toContain('运行中');
    // Live figures in base 1000 (spec §9) with the rate.
    expect(within(card).getByTestId('pf-rule-figures-AAAAAAAAAAAAAAAA').textContent).toContain('1.23 MB');
    expect(within(card).getByTestId('pf-rule-figures-AAAAAAAAAAAAAAAA').textContent).toContain('2.05 KB/s');
    expect(within(card).getByTestId('pf-rule-error-AAAAAAAAAAAAAAAA').textContent).toContain('EADDRINUSE');
    // The newest log line is previewed; the lines unfold.
    expect(within(card).getByText(/port 8081: address in use/)).toBeTruthy();
    await userEvent.click(within(card).getByText('最近日志（1）'));
    expect(await within(card).findByTestId('pf-recent-lines')).toBeTruthy();
  });

  it('switches a rule through the API and shows the answer', async () => {
    let enabled = true;
    net.route('api/portforward/rules', () => ({
      body: listReply([ruleView({ enabled, state: enabled ? 'running' : 'disabled' })]),
    }));
    net.route('api/portforward/rules/AAAAAAAAAAAAAAAA/enable', (_url, init) => {
      enabled = JSON.parse(String(init.body)).enabled;
      return { body: { ret: 0, rule: ruleView({ enabled, state: 'disabled' }) } };
    });
    renderWithProviders(<PortforwardScreen />);
    const sw = await screen.findByTestId('pf-rule-switch-AAAAAAAAAAAAAAAA');
    expect(sw.getAttribute('aria-checked')).toBe('true');
    await userEvent.click(sw);
    await waitFor(() => expect(callsTo('PUT', 'api/portforward/rules/AAAAAAAAAAAAAAAA/enable')).toHaveLength(1));
    const [, init] = callsTo('PUT', 'api/portforward/rules/AAAAAAAAAAAAAAAA/enable')[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ enabled: false });
    await waitFor(() => expect(sw.getAttribute('aria-checked')).toBe('false'));
    expect((await screen.findByTestId('pf-rule-state-AAAAAAAAAAAAAAAA')).textContent).toBe('已停用');
  });

  it('shows a refused switch-on in the user language and keeps the rule off', async () => {
    net.route('api/portforward/rules', { body: listReply([ruleView({ enabled: false, state: 'disabled' })]) });
    net.route('api/portforward/rules/AAAAAAAAAAAAAAAA/enable', {
      status: 409,
      body: {
        ret: 1,
        msg: 'listenPorts: tcp port 8080 is already used by rule other',
        field: 'listenPorts',
        code: 'portConflict',
        params: { port: 8080, protocol: 'tcp', rule: 'other' },
      },
    });
    renderWithProviders(<PortforwardScreen />);
    const sw = await screen.findByTestId('pf-rule-switch-AAAAAAAAAAAAAAAA');
    await userEvent.click(sw);
    expect(await screen.findByText('TCP 端口 8080 已被规则“other”使用')).toBeTruthy();
    expect(sw.getAttribute('aria-checked')).toBe('false');
  });

  it('says when the module is off and switches it on through the module switch', async () => {
    let on = false;
    net.route('api/portforward/rules', () => ({ body: listReply([ruleView({ state: 'stopped' })], on) }));
    net.route('api/modules/portforward/enabled', (_url, init) => {
      on = JSON.parse(String(init.body)).enabled;
      return { body: { ret: 0, status: { key: 'portforward', state: on ? 'running' : 'disabled', enabled: on } } };
    });
    renderWithProviders(<PortforwardScreen />);
    const banner = await screen.findByTestId('pf-module-disabled');
    expect(banner.textContent).toContain('端口转发模块已禁用');
    await userEvent.click(within(banner).getByTestId('pf-module-enable'));
    await waitFor(() => expect(screen.queryByTestId('pf-module-disabled')).toBeNull());
    const [, init] = callsTo('PUT', 'api/modules/portforward/enabled')[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ enabled: true });
    expect(screen.getByTestId('pf-module-switch').getAttribute('aria-checked')).toBe('true');
  });

  it('deletes a rule after confirmation', async () => {
    let list = [ruleView()];
    net.route('api/portforward/rules', () => ({ body: listReply(list) }));
    net.route('api/portforward/rules/AAAAAAAAAAAAAAAA', () => {
      list = [];
      return { body: { ret: 0 } };
    });
    renderWithProviders(<PortforwardScreen />);
    await userEvent.click(await screen.findByTestId('pf-rule-delete-AAAAAAAAAAAAAAAA'));
    expect(callsTo('DELETE', 'api/portforward/rules/AAAAAAAAAAAAAAAA')).toHaveLength(0);
    await userEvent.click((await popconfirm()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(callsTo('DELETE', 'api/portforward/rules/AAAAAAAAAAAAAAAA')).toHaveLength(1));
    expect(await screen.findByText('还没有转发规则')).toBeTruthy();
  });

  it('opens the add dialog empty after an edit was cancelled', async () => {
    net.route('api/portforward/rules', { body: listReply([ruleView()]) });
    renderWithProviders(<PortforwardScreen />);
    await userEvent.click(await screen.findByTestId('pf-rule-edit-AAAAAAAAAAAAAAAA'));
    expect(((await screen.findByTestId('pf-listen-ports')) as HTMLInputElement).value).toBe('8080');
    // One changed character is the point (each keystroke re-renders the whole dialog).
    await userEvent.type(screen.getByLabelText('名称'), 'x');
    await userEvent.click(dialogFooter(screen.getByTestId('pf-rule-form')).getByRole('button', { name: '取消' }));
    await userEvent.click(screen.getByTestId('pf-add-rule'));
    expect(await screen.findByText('添加规则', { selector: '.ant-modal-title' })).toBeTruthy();
    expect((screen.getByLabelText('名称') as HTMLInputElement).value).toBe('');
    expect((screen.getByTestId('pf-listen-ports') as HTMLInputElement).value).toBe('');
  });

  it('reports a failed list query with the spec topic', async () => {
    net.route('api/portforward/rules', { status: 500, body: { ret: 1, msg: 'boom' } });
    renderWithProviders(<PortforwardScreen />);
    expect((await screen.findByTestId('pf-load-error')).textContent).toContain('端口转发配置查询出错');
  });
});
