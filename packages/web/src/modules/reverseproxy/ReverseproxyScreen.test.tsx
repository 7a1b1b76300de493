import { formatSize, reverseproxyReason } from '@lucky/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { dialogFooter, popconfirm } from '../../test/antd';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import ReverseproxyScreen from './ReverseproxyScreen';
import { listReply, logLine, ruleView, service, subRule } from './testData';

let net: FakeFetch;
const RULE = 'api/reverseproxy/rules/RULE000000000001';
const SUB = `${RULE}/subrules/SUB0000000000001`;

const callsTo = (method: string, path: string) =>
  net.fn.mock.calls.filter(
    ([url, init]) => String(url).split('?')[0] === path && ((init as RequestInit)?.method ?? 'GET') === method,
  );
const bodyOf = (call: unknown[]) => JSON.parse(String((call[1] as RequestInit).body));
/** antd puts a space between the two characters of a two-character Chinese button label. */
const confirmButton = async () => (await popconfirm()).getByRole('button', { name: /^确\s*定$/ });

beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('web service screen', () => {
  it('shows each rule with its state, listener, default rule, sub rules and newest log lines', async () => {
    const rule = ruleView({
      listenTypes: 'both',
      address: '192.168.1.2',
      port: 443,
      http3: true,
      defaultRule: service({ serviceType: 'redirect', redirectTarget: 'https://example.com', redirectCode: 301 }),
      subRules: [
        subRule({
          pathPrefix: '/admin',
          basicAuth: { enabled: true, user: 'u', password: '******', paths: [] },
        }),
        subRule({
          key: 'SUB0000000000002',
          name: '',
          enabled: false,
          domains: ['*.files.test'],
          serviceType: 'files',
          mounts: [{ urlPath: '/', type: 'local', dir: '/srv/share', name: '' }],
        }),
      ],
      status: {
        state: 'running',
        warnings: [reverseproxyReason('http3Unsupported'), { code: 'somethingNew', text: 'something new' }],
        port: 443,
      },
      lastLogs: {
        default: [
          logLine(1, '[10.0.0.9][10.0.0.9] GET http://x/ 404 1ms ""'),
          logLine(3, 'refused 403 [10.0.0.9] GET x/', 3, {
            code: 'refused',
            params: { status: 403, client: '10.0.0.9', method: 'GET', host: 'x', url: '/' },
          }),
        ],
        SUB0000000000001: [logLine(2, '[10.0.0.9][10.0.0.9] GET http://nas.example.com/ 200 3ms ""')],
      },
    });
    const broken = ruleView({
      key: 'RULE000000000002',
      name: 'Busy',
      subRules: [],
      status: {
        state: 'error',
        reason: {
          code: 'portInUse',
          params: { address: '*:80', port: 80, errno: 'EADDRINUSE' },
          text: 'cannot listen on *:80: the port is in use by another program or rule (EADDRINUSE)',
        },
        retryAt: Date.now() + 10_000,
        warnings: [],
      },
      lastLogs: { default: [] },
    });
    net.route('api/reverseproxy/rules', { body: listReply([rule, broken]) });
    renderWithProviders(<ReverseproxyScreen />);

    const card = await screen.findByTestId('rp-rule-RULE000000000001');
    expect(within(card).getByText('Home')).toBeTruthy();
    expect(within(card).getByTestId('rp-rule-state-RULE000000000001').textContent).toBe('运行中');
    expect(within(card).getByTestId('rp-rule-listen-RULE000000000001').textContent).toBe('HTTPHTTPS192.168.1.2:443');
    // Warnings (coded) in the user's language; one the screen does not know as the server wrote it.
    const warnings = within(card).getByTestId('rp-rule-warnings-RULE000000000001');
    expect(warnings.textContent).toContain('当前运行环境不支持 HTTP/3');
    expect(warnings.textContent).toContain('something new');
    expect(within(card).getByTestId('rp-rule-default-RULE000000000001').textContent).toBe(
      '默认规则重定向301 → https://example.com',
    );
    const nas = within(card).getByTestId('rp-sub-SUB0000000000001');
    expect(nas.textContent).toContain('nas.example.com');
    expect(nas.textContent).toContain('/admin');
    expect(nas.textContent).toContain('反向代理');
    expect(nas.textContent).toContain('http://192.168.1.10:5000');
    expect(nas.textContent).toContain('认证');
    const files = within(card).getByTestId('rp-sub-SUB0000000000002');
    expect(files.textContent).toContain('*.files.test');
    expect(files.textContent).toContain('/srv/share');
    expect(within(files).getByTestId('rp-sub-switch-SUB0000000000002').getAttribute('aria-checked')).toBe('false');
    // The newest line of all sites is previewed (a coded line in the user's language); unfolded,
    // each line names its site.
    expect(within(card).getByText('最近日志（3）')).toBeTruthy();
    expect(card.querySelector('.rp-recent-preview')?.textContent).toContain('已拒绝 403 [10.0.0.9] GET x/');
    await userEvent.click(within(card).getByText('最近日志（3）'));
    const lines = await within(card).findByTestId('rp-recent-lines');
    expect(lines.textContent).toMatch(/默认规则.*已拒绝 403.*NAS.*nas\.example\.com\/ 200.*默认规则.*404/);
    expect(lines.textContent).not.toContain('refused');

    const bad = screen.getByTestId('rp-rule-RULE000000000002');
    expect(within(bad).getByTestId('rp-rule-state-RULE000000000002').textContent).toBe('错误');
    const error = within(bad).getByTestId('rp-rule-error-RULE000000000002').textContent;
    expect(error).toContain('端口已被其他程序或规则占用');
    expect(error).toContain('EADDRINUSE');
    expect(error).toContain('每 10 秒重试');
    expect(within(bad).getByTestId('rp-sub-empty-RULE000000000002')).toBeTruthy();
  });

  it("shows a listening rule's live figures: connections, requests and bytes with their rates", async () => {
    const traffic = {
      connections: 3,
      requests: 1234,
      requestRate: 12,
      bytesIn: 2048,
      rateIn: 100,
      bytesOut: 5_000_000,
      rateOut: 250_000,
    };
    net.route('api/reverseproxy/rules', {
      body: listReply([ruleView({ status: { state: 'running', warnings: [], port: 8080, traffic } })]),
    });
    renderWithProviders(<ReverseproxyScreen />);
    const figures = await screen.findByTestId('rp-rule-figures-RULE000000000001');
    const text = figures.textContent ?? '';
    for (const part of [
      '连接数3',
      '请求数1234',
      '12/秒',
      `接收${formatSize(2048)}`,
      `${formatSize(100)}/秒`,
      `发送${formatSize(5_000_000)}`,
      `${formatSize(250_000)}/秒`,
    ])
      expect(text).toContain(part);
  });

  it('shows no figures for a rule that is not listening', async () => {
    net.route('api/reverseproxy/rules', {
      body: listReply([ruleView({ enabled: false, status: { state: 'disabled', warnings: [] } })]),
    });
    renderWithProviders(<ReverseproxyScreen />);
    expect(await screen.findByTestId('rp-rule-RULE000000000001')).toBeTruthy();
    expect(screen.queryByTestId('rp-rule-figures-RULE000000000001')).toBeNull();
  });

  it('switches a rule and a sub rule through the API and shows the answer', async () => {
    let enabled = true;
    let subEnabled = true;
    const current = () =>
      ruleView({
        enabled,
        status: { state: enabled ? 'running' : 'disabled', warnings: [] },
        subRules: [subRule({ enabled: subEnabled })],
      });
    net.route('api/reverseproxy/rules', () => ({ body: listReply([current()]) }));
    net.route(`${RULE}/enable`, (_url, init) => {
      enabled = JSON.parse(String(init.body)).enabled;
      return { body: { ret: 0, rule: current() } };
    });
    net.route(`${SUB}/enable`, (_url, init) => {
      subEnabled = JSON.parse(String(init.body)).enabled;
      return { body: { ret: 0, rule: current() } };
    });
    renderWithProviders(<ReverseproxyScreen />);
    const sw = await screen.findByTestId('rp-rule-switch-RULE000000000001');
    await userEvent.click(sw);
    await waitFor(() => expect(callsTo('PUT', `${RULE}/enable`)).toHaveLength(1));
    expect(bodyOf(callsTo('PUT', `${RULE}/enable`)[0])).toEqual({ enabled: false });
    await waitFor(() => expect(sw.getAttribute('aria-checked')).toBe('false'));
    expect((await screen.findByTestId('rp-rule-state-RULE000000000001')).textContent).toBe('已停用');

    const subSw = screen.getByTestId('rp-sub-switch-SUB0000000000001');
    await userEvent.click(subSw);
    await waitFor(() => expect(callsTo('PUT', `${SUB}/enable`)).toHaveLength(1));
    expect(bodyOf(callsTo('PUT', `${SUB}/enable`)[0])).toEqual({ enabled: false });
    await waitFor(() => expect(subSw.getAttribute('aria-checked')).toBe('false'));
  });

  it('shows the module switch and turns the module off and on through the module call', async () => {
    let on = true;
    net.route('api/reverseproxy/rules', () => ({ body: listReply([ruleView()], on) }));
    net.route('api/modules/reverseproxy/enabled', (_url, init) => {
      on = JSON.parse(String(init.body)).enabled;
      return { body: { ret: 0, status: { key: 'reverseproxy', state: on ? 'running' : 'disabled', enabled: on } } };
    });
    renderWithProviders(<ReverseproxyScreen />);
    const sw = await screen.findByTestId('rp-module-switch');
    expect(sw.getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText('模块开关')).toBeTruthy();
    expect(screen.queryByTestId('rp-module-off')).toBeNull();
    await userEvent.click(sw);
    await waitFor(() => expect(callsTo('PUT', 'api/modules/reverseproxy/enabled')).toHaveLength(1));
    expect(bodyOf(callsTo('PUT', 'api/modules/reverseproxy/enabled')[0])).toEqual({ enabled: false });
    await waitFor(() => expect(sw.getAttribute('aria-checked')).toBe('false'));
    expect((await screen.findByTestId('rp-module-off')).textContent).toContain('Web 服务已关闭');
    await userEvent.click(sw);
    await waitFor(() => expect(callsTo('PUT', 'api/modules/reverseproxy/enabled')).toHaveLength(2));
    expect(bodyOf(callsTo('PUT', 'api/modules/reverseproxy/enabled')[1])).toEqual({ enabled: true });
    await waitFor(() => expect(screen.queryByTestId('rp-module-off')).toBeNull());
  });

  it('deletes a sub rule and then the rule, each after confirmation', async () => {
    let list = [ruleView()];
    net.route('api/reverseproxy/rules', () => ({ body: listReply(list) }));
    net.route(SUB, () => {
      list = [ruleView({ subRules: [] })];
      return { body: { ret: 0, rule: list[0] } };
    });
    net.route(RULE, () => {
      list = [];
      return { body: { ret: 0 } };
    });
    renderWithProviders(<ReverseproxyScreen />);
    await userEvent.click(await screen.findByTestId('rp-sub-delete-SUB0000000000001'));
    expect(await screen.findByText('确定删除子规则“NAS”？')).toBeTruthy();
    expect(callsTo('DELETE', SUB)).toHaveLength(0);
    await userEvent.click(await confirmButton());
    await waitFor(() => expect(callsTo('DELETE', SUB)).toHaveLength(1));
    expect(await screen.findByTestId('rp-sub-empty-RULE000000000001')).toBeTruthy();

    await userEvent.click(screen.getByTestId('rp-rule-delete-RULE000000000001'));
    await userEvent.click(await confirmButton());
    await waitFor(() => expect(callsTo('DELETE', RULE)).toHaveLength(1));
    expect(await screen.findByTestId('rp-empty')).toBeTruthy();
    expect(screen.getByText('还没有 Web 服务规则')).toBeTruthy();
  });

  it('replaces a domain in every sub rule and says how many changed', async () => {
    net.route('api/reverseproxy/rules', { body: listReply([ruleView()]) });
    net.route('api/reverseproxy/domains/replace', { body: { ret: 0, changed: 3 } });
    renderWithProviders(<ReverseproxyScreen />);
    await userEvent.click(await screen.findByTestId('rp-batch-open'));
    await userEvent.click(await screen.findByTestId('rp-batch-save'));
    // antd shows each field's message on its own render pass: wait for both.
    await waitFor(() => expect(screen.getAllByText('旧域名和新域名都不能为空')).toHaveLength(2));
    expect(callsTo('POST', 'api/reverseproxy/domains/replace')).toHaveLength(0);
    await userEvent.type(screen.getByTestId('rp-batch-old'), 'old.example.com');
    await userEvent.type(screen.getByTestId('rp-batch-new'), 'New.Example.com');
    await userEvent.click(screen.getByTestId('rp-batch-save'));
    await waitFor(() => expect(callsTo('POST', 'api/reverseproxy/domains/replace')).toHaveLength(1));
    expect(bodyOf(callsTo('POST', 'api/reverseproxy/domains/replace')[0])).toEqual({
      oldDomain: 'old.example.com',
      newDomain: 'New.Example.com',
    });
    expect(await screen.findByText('已替换 3 条子规则的域名')).toBeTruthy();
  });

  it('opens the sub rule dialog for the right rule and the access log of a sub rule', async () => {
    net.route('api/reverseproxy/rules', { body: listReply([ruleView()]) });
    net.route(`${RULE}/logs`, { body: { ret: 0, total: 0, page: 1, pageSize: 50, logs: [] } });
    renderWithProviders(<ReverseproxyScreen />);
    await userEvent.click(await screen.findByTestId('rp-rule-add-sub-RULE000000000001'));
    const title = await screen.findByText('添加子规则 · Home');
    await userEvent.click(dialogFooter(title).getByRole('button', { name: /^取\s*消$/ }));
    await userEvent.click(screen.getByTestId('rp-sub-logs-SUB0000000000001'));
    await waitFor(() => expect(callsTo('GET', `${RULE}/logs`)).toHaveLength(1));
    const q = new URLSearchParams(String(callsTo('GET', `${RULE}/logs`)[0][0]).split('?')[1]);
    expect(q.get('site')).toBe('SUB0000000000001');
  });

  it('shows the empty state with an add-rule call to action', async () => {
    net.route('api/reverseproxy/rules', { body: listReply([]) });
    renderWithProviders(<ReverseproxyScreen />);
    const empty = await screen.findByTestId('rp-empty');
    await userEvent.click(within(empty).getByRole('button', { name: /添加规则/ }));
    expect(await screen.findByText('添加规则', { selector: '.ant-modal-title' })).toBeTruthy();
  });

  it('reports a failed list query', async () => {
    net.route('api/reverseproxy/rules', { status: 500, body: { ret: 1, msg: 'boom' } });
    renderWithProviders(<ReverseproxyScreen />);
    expect((await screen.findByTestId('rp-load-error')).textContent).toContain('规则列表出错');
  });
});
