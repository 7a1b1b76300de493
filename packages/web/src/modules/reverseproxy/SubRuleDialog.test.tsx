import type { ReverseproxySubRuleView } from '@lucky/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { SubRuleDialog } from './SubRuleDialog';
import { ruleView, subRule } from './testData';

let net: FakeFetch;
const RULE = ruleView();
const SUBS = `api/reverseproxy/rules/${RULE.key}/subrules`;

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
const save = () => userEvent.click(screen.getByTestId('rp-sub-save'));
/** Long text in one go: typing it key by key is slow in jsdom and tests nothing more. */
const fill = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

function open(sub?: ReverseproxySubRuleView) {
  const onSaved = vi.fn();
  renderWithProviders(<SubRuleDialog open rule={RULE} sub={sub} onClose={() => {}} onSaved={onSaved} />);
  return { onSaved };
}

describe('sub rule dialog', () => {
  it('refuses an empty domain list and a proxy without back ends (spec messages), sending nothing', async () => {
    open();
    await screen.findByTestId('rp-sub-form');
    expect(screen.getByText('添加子规则 · Home')).toBeTruthy();
    await save();
    expect(await within(itemOf(screen.getByTestId('rp-domains'))).findByText('子规则的域名不能为空')).toBeTruthy();
    expect(within(itemOf(screen.getByTestId('rp-targets'))).getByText('反向代理至少需要一个后端地址')).toBeTruthy();
    // Blank lines are no domain either.
    fill('rp-domains', '\n  \n');
    await save();
    expect(await within(itemOf(screen.getByTestId('rp-domains'))).findByText('子规则的域名不能为空')).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
  });

  it('names a domain that is not exact or a one-level wildcard', async () => {
    open();
    await screen.findByTestId('rp-sub-form');
    fill('rp-domains', 'app.test\n*.*.example.com');
    expect(
      await within(itemOf(screen.getByTestId('rp-domains'))).findByText(
        '不是有效的域名（精确域名或 *. 通配）：*.*.example.com',
      ),
    ).toBeTruthy();
  });

  it('adds a reverse proxy for a domain and path', async () => {
    const saved = ruleView();
    net.route(SUBS, { body: { ret: 0, rule: saved } });
    const { onSaved } = open();
    await userEvent.type(await screen.findByTestId('rp-sub-name'), 'App');
    fill('rp-domains', 'App.Test\n\n');
    fill('rp-path-prefix', '/api');
    fill('rp-targets', 'http://127.0.0.1:9000\nhttp://127.0.0.1:9001');
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(bodyOf(sent('POST')[0])).toMatchObject({
      name: 'App',
      enabled: true,
      domains: ['app.test'],
      pathPrefix: '/api',
      serviceType: 'proxy',
      targets: ['http://127.0.0.1:9000', 'http://127.0.0.1:9001'],
      keepHost: true,
      websocket: true,
    });
  });

  it('shows a server field error on its item, opening the folded panel', async () => {
    net.route(SUBS, {
      status: 400,
      body: {
        ret: 1,
        msg: 'log.capacity: must be at most 102400',
        field: 'log.capacity',
        code: 'tooBig',
        params: { max: 102400 },
      },
    });
    const { onSaved } = open();
    await screen.findByTestId('rp-sub-form');
    fill('rp-domains', 'app.test');
    fill('rp-targets', 'http://127.0.0.1:9000');
    const capacity = screen.getByTestId('rp-log-capacity');
    expect(capacity.closest('.ant-collapse-item-active')).toBeNull();
    await save();
    expect(await within(itemOf(capacity)).findByText('不能大于 102400')).toBeTruthy();
    expect(capacity.closest('.ant-collapse-item-active')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('a file server needs a mount with a folder', async () => {
    open();
    await screen.findByTestId('rp-sub-form');
    fill('rp-domains', 'files.test');
    await userEvent.click(screen.getByText('文件服务'));
    await save();
    expect(await within(screen.getByTestId('rp-mounts')).findByText('文件服务至少需要一个挂载目录')).toBeTruthy();
    await userEvent.click(screen.getByTestId('rp-mount-add'));
    await save();
    expect(await within(itemOf(screen.getByTestId('rp-mount-dir-0'))).findByText('请填写本机目录')).toBeTruthy();
    expect(sent('POST')).toHaveLength(0);
  });

  it('an edit sends a stored credential header value back masked, as read', async () => {
    const sub = subRule({
      requestHeaders: [
        { name: 'Authorization', value: 'Bearer ******' },
        { name: 'X-Plain', value: 'v' },
      ],
    });
    const saved = ruleView();
    net.route(`${SUBS}/${sub.key}`, { body: { ret: 0, rule: saved } });
    const { onSaved } = open(sub);
    await screen.findByTestId('rp-sub-form');
    const values = screen.getAllByLabelText('值') as HTMLInputElement[];
    expect(values.map((v) => v.value)).toEqual(['Bearer ******', 'v']);
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(bodyOf(sent('PUT')[0]).requestHeaders).toEqual([
      { name: 'Authorization', value: 'Bearer ******' },
      { name: 'X-Plain', value: 'v' },
    ]);
  });

  it('an edit sends a stored password back as the mask it reads, and basic auth needs a user', async () => {
    const sub = subRule({
      basicAuth: { enabled: true, user: 'me', password: '******', paths: ['/admin'] },
    });
    const saved = ruleView();
    net.route(`${SUBS}/${sub.key}`, { body: { ret: 0, rule: saved } });
    const { onSaved } = open(sub);
    await screen.findByTestId('rp-sub-form');
    expect(screen.getByText(`编辑子规则 · ${RULE.name}`)).toBeTruthy();
    expect((screen.getByTestId('rp-domains') as HTMLTextAreaElement).value).toBe('nas.example.com');
    const password = screen.getByTestId('rp-auth-password') as HTMLInputElement;
    expect(password.value).toBe('******');
    // Without a user the form refuses and opens the panel.
    fill('rp-auth-user', '');
    await save();
    expect(
      await within(itemOf(screen.getByTestId('rp-auth-user'))).findByText('启用 BasicAuth 时用户名不能为空'),
    ).toBeTruthy();
    expect(screen.getByTestId('rp-auth-user').closest('.ant-collapse-item-active')).toBeTruthy();
    fill('rp-auth-user', 'admin');
    await save();
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(bodyOf(sent('PUT')[0]).basicAuth).toEqual({
      enabled: true,
      user: 'admin',
      password: '******',
      paths: ['/admin'],
    });
  });
});
