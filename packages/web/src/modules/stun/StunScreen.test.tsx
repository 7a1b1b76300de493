import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import enUS from '../../i18n/en_US.json';
import { popconfirm } from '../../test/antd';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import StunScreen from './StunScreen';
import { listReply, mapping, RULE_KEY, ruleView } from './testData';

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
afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('zh_CN');
});

/** A rule whose TCP mapping is open and whose UDP mapping broke: the STUN channel failed. */
const mixedRule = () =>
  ruleView({
    state: 'error',
    reason: { code: 'rulesFailed', params: { count: 1 } },
    error: '1 rule(s) have no working mapping; see the STUN list',
    mappings: [
      mapping({
        portMaps: [{ method: 'upnp', ok: true, externalAddress: '203.0.113.5', externalPort: 40000 }],
      }),
      mapping({
        protocol: 'udp',
        state: 'broken',
        publicAddress: '203.0.113.5:40999',
        reason: { code: 'channelBroken', params: { detail: 'ETIMEDOUT' } },
        error: 'penetration channel malfunction: ETIMEDOUT',
        connections: 0,
        changes: 3,
      }),
    ],
    natType: {
      at: Date.parse('2024-05-01T09:00:00Z'),
      verdict: 'fullCone',
      mapping: 'endpointIndependent',
      filtering: 'endpointIndependent',
      publicAddress: '203.0.113.5:40000',
      detail: 'endpoint-independent mapping and filtering',
    },
    lastNotify: {
      at: Date.parse('2024-05-01T10:00:00Z'),
      webhook: { code: 'webhookCallError', params: { cause: { code: 'answerNotSuccess', params: { status: 500 } } } },
      script: { code: 'scriptOk', params: { output: 'done' } },
    },
    lastLogs: [
      {
        seq: 4,
        time: '2024-05-01T10:00:00.000Z',
        level: 3,
        code: 'lost',
        params: { proto: 'udp', detail: 'ETIMEDOUT', seconds: 10 },
        text: 'udp: mapping lost: ETIMEDOUT; trying again in 10 s',
      },
    ],
  });

describe('STUN rule list', () => {
  it('shows an open TCP mapping with its public address to copy, and a broken UDP one with its reason', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    vi.stubGlobal('isSecureContext', true);
    net.route('api/stun/rules', { body: listReply([mixedRule()]) });
    renderWithProviders(<StunScreen />);

    const card = await screen.findByTestId(`stun-rule-${RULE_KEY}`);
    expect(within(card).getByTestId(`stun-rule-name-${RULE_KEY}`).textContent).toBe('NAS ssh');
    expect(within(card).getByTestId(`stun-rule-state-${RULE_KEY}`).textContent).toBe('错误');
    expect(within(card).getByTestId(`stun-rule-reason-${RULE_KEY}`).textContent).toContain('1 条规则没有可用的映射');
    expect(within(card).getByTestId(`stun-rule-route-${RULE_KEY}`).textContent).toContain('192.168.1.10:22');

    const tcp = within(card).getByTestId(`stun-mapping-${RULE_KEY}-tcp`);
    expect(within(tcp).getByTestId(`stun-mapping-state-${RULE_KEY}-tcp`).textContent).toBe('已穿透');
    expect(within(tcp).getByTestId(`stun-public-${RULE_KEY}-tcp`).textContent).toBe('203.0.113.5:51234');
    expect(within(tcp).queryByTestId(`stun-mapping-reason-${RULE_KEY}-tcp`)).toBeNull();
    expect(tcp.textContent).toContain('1.23 MB');
    expect(tcp.textContent).toContain('2.05 KB/s');
    expect(within(tcp).getByTestId(`stun-portmap-${RULE_KEY}-tcp-upnp`).textContent).toContain('203.0.113.5:40000');
    await userEvent.click(within(tcp).getByTestId(`stun-copy-${RULE_KEY}-tcp`));
    expect(writeText).toHaveBeenCalledWith('203.0.113.5:51234');

    const udp = within(card).getByTestId(`stun-mapping-${RULE_KEY}-udp`);
    expect(within(udp).getByTestId(`stun-mapping-state-${RULE_KEY}-udp`).textContent).toBe('已中断');
    expect(within(udp).getByTestId(`stun-mapping-reason-${RULE_KEY}-udp`).textContent).toBe('穿透通道故障：ETIMEDOUT');

    expect(within(card).getByTestId(`stun-rule-nattype-${RULE_KEY}`).textContent).toContain('NAT1 全锥形');
    // The last announcement: the webhook's failure with its cause, the script's output.
    const notified = within(card).getByTestId(`stun-rule-notify-${RULE_KEY}`).textContent;
    expect(notified).toContain('HTTP 500：答复不表示成功');
    expect(notified).toContain('脚本已执行：done');
    // The newest log line in Chinese, from its code.
    expect(within(card).getByText(/udp：映射丢失：ETIMEDOUT；10 秒后重试/)).toBeTruthy();
  });

  it('shows the same reasons in English when the UI is in English', async () => {
    i18next.addResourceBundle('en_US', 'translation', enUS, true, true);
    await i18next.changeLanguage('en_US');
    net.route('api/stun/rules', { body: listReply([mixedRule()]) });
    renderWithProviders(<StunScreen />);
    const card = await screen.findByTestId(`stun-rule-${RULE_KEY}`);
    expect(within(card).getByTestId(`stun-mapping-state-${RULE_KEY}-udp`).textContent).toBe('Broken');
    expect(within(card).getByTestId(`stun-mapping-reason-${RULE_KEY}-udp`).textContent).toBe(
      'Penetration channel malfunction: ETIMEDOUT',
    );
    expect(within(card).getByTestId(`stun-rule-state-${RULE_KEY}`).textContent).toBe('Error');
    expect(within(card).getByTestId(`stun-rule-nattype-${RULE_KEY}`).textContent).toContain('NAT1 full cone');
  });

  it('says a mapping is not yet obtained while it starts', async () => {
    const starting = ruleView({
      state: 'starting',
      mappings: [mapping({ state: 'starting', publicAddress: undefined, reason: { code: 'notObtained' }, error: 'x' })],
    });
    net.route('api/stun/rules', { body: listReply([starting]) });
    renderWithProviders(<StunScreen />);
    const tcp = await screen.findByTestId(`stun-mapping-${RULE_KEY}-tcp`);
    expect(within(tcp).getByTestId(`stun-mapping-reason-${RULE_KEY}-tcp`).textContent).toBe('尚未获取');
    expect(tcp.textContent).toContain('尚无公网地址');
    expect(within(tcp).queryByTestId(`stun-copy-${RULE_KEY}-tcp`)).toBeNull();
  });

  it('says when the module is off and switches it on through the module switch', async () => {
    let on = false;
    net.route('api/stun/rules', () => ({ body: listReply([ruleView({ state: 'stopped' })], on) }));
    net.route('api/modules/stun/enabled', (_url, init) => {
      on = JSON.parse(String(init.body)).enabled;
      return { body: { ret: 0, status: { key: 'stun', state: on ? 'running' : 'disabled', enabled: on } } };
    });
    renderWithProviders(<StunScreen />);
    const banner = await screen.findByTestId('stun-module-disabled');
    expect(banner.textContent).toContain('STUN 模块已禁用');
    expect(screen.getByTestId('stun-open-nat-type').hasAttribute('disabled')).toBe(true);
    await userEvent.click(within(banner).getByTestId('stun-module-enable'));
    await waitFor(() => expect(screen.queryByTestId('stun-module-disabled')).toBeNull());
    const [, init] = callsTo('PUT', 'api/modules/stun/enabled')[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ enabled: true });
    expect(screen.getByTestId('stun-module-switch').getAttribute('aria-checked')).toBe('true');
  });

  it('re-opens a rule’s mappings and shows a refusal in the user language', async () => {
    net.route('api/stun/rules', { body: listReply([ruleView()]) });
    net.route(`api/stun/rules/${RULE_KEY}/reopen`, {
      status: 409,
      body: { ret: 1, msg: 'STUN module disabled', code: 'moduleDisabled' },
    });
    renderWithProviders(<StunScreen />);
    await userEvent.click(await screen.findByTestId(`stun-rule-reopen-${RULE_KEY}`));
    await waitFor(() => expect(callsTo('POST', `api/stun/rules/${RULE_KEY}/reopen`)).toHaveLength(1));
    expect(await screen.findByText('STUN 模块已禁用', { selector: '.ant-message *' })).toBeTruthy();
  });

  it('deletes a rule after confirmation', async () => {
    let list = [ruleView()];
    net.route('api/stun/rules', () => ({ body: listReply(list) }));
    net.route(`api/stun/rules/${RULE_KEY}`, () => {
      list = [];
      return { body: { ret: 0 } };
    });
    renderWithProviders(<StunScreen />);
    await userEvent.click(await screen.findByTestId(`stun-rule-delete-${RULE_KEY}`));
    expect(callsTo('DELETE', `api/stun/rules/${RULE_KEY}`)).toHaveLength(0);
    await userEvent.click((await popconfirm()).getByRole('button', { name: '确定' }));
    await waitFor(() => expect(callsTo('DELETE', `api/stun/rules/${RULE_KEY}`)).toHaveLength(1));
    expect(await screen.findByText('还没有穿透规则')).toBeTruthy();
  });

  it('reports a failed list query', async () => {
    net.route('api/stun/rules', { status: 500, body: { ret: 1, msg: 'boom' } });
    renderWithProviders(<StunScreen />);
    expect((await screen.findByTestId('stun-load-error')).textContent).toContain('STUN 规则列表出错');
  });
});
