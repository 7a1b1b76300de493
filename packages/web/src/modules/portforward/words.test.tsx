// The words the server writes for the port-forwarding screen — log lines, port and rule
// reasons — have a translation in both languages, with the same params as the server's English,
// and the screen shows them in the UI language (zh_CN here), not in the server's English.
import {
  BIND_REASON_CODES,
  fillTemplate,
  PORTFORWARD_LOG,
  PORTFORWARD_REASONS,
  type PortforwardLogEntry,
} from '@lucky/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import enUS from '../../i18n/en_US.json';
import zhCN from '../../i18n/zh_CN.json';
import { type FakeFetch, installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { LogDrawer } from './LogDrawer';
import PortforwardScreen from './PortforwardScreen';
import { listReply, proxy, ruleView } from './testData';

const LOCALES = {
  zh_CN: zhCN.portforward as Record<string, string>,
  en_US: enUS.portforward as Record<string, string>,
};
const names = (template: string, re: RegExp) => [...template.matchAll(re)].map((m) => m[1]).sort();

describe('port-forwarding words in both languages', () => {
  const codes: [string, string, string | undefined][] = [
    ...Object.entries(PORTFORWARD_LOG).map(([c, en]): [string, string, string] => ['log', c, en]),
    ...Object.entries(PORTFORWARD_REASONS).map(([c, en]): [string, string, string] => ['reason', c, en]),
    ...BIND_REASON_CODES.flatMap((c): [string, string, undefined][] => [
      ['log', c, undefined],
      ['reason', c, undefined],
    ]),
  ];

  it.each(codes)('%s_%s is translated, with the params of the English template', (kind, code, english) => {
    for (const [lang, ns] of Object.entries(LOCALES)) {
      const text = ns[`${kind}_${code}`];
      expect(text, `${lang} portforward.${kind}_${code}`).toBeTruthy();
      // Every placeholder the translation uses is one the server sends.
      if (english) {
        const sent = names(english, /\{(\w+)\}/g);
        for (const n of names(text, /\{\{(\w+)\}\}/g)) expect(sent, `${lang} ${kind}_${code}: {{${n}}}`).toContain(n);
      }
    }
  });
});

let net: FakeFetch;
beforeEach(() => {
  net = installFakeFetch();
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** A coded line as the server writes it: code, params and the English text from the same template. */
const line = (
  seq: number,
  code: keyof typeof PORTFORWARD_LOG,
  params: Record<string, unknown>,
): PortforwardLogEntry => ({
  seq,
  time: '2024-05-01T10:00:00.000Z',
  level: 4,
  code,
  params,
  text: fillTemplate(PORTFORWARD_LOG[code], params),
});

describe('coded lines and reasons on screen (zh_CN)', () => {
  it('the log drawer shows a coded line in Chinese; a line without a code keeps its text', async () => {
    const closed = line(2, 'closed', {
      id: 'tcp4@:8080',
      client: '192.168.1.5:51000',
      seconds: '0.1',
      in: '533 B',
      out: '310 B',
    });
    expect(closed.text).toBe('tcp4@:8080 192.168.1.5:51000 closed after 0.1 s, in 533 B, out 310 B');
    const plain = { seq: 1, time: '2024-05-01T10:00:00.000Z', level: 4 as const, text: 'an uncoded line' };
    net.route('api/portforward/rules/KEY/logs', {
      body: { ret: 0, total: 2, page: 1, pageSize: 50, order: 'newest', logs: [closed, plain] },
    });
    renderWithProviders(
      <LogDrawer
        rule={{ key: 'KEY', name: 'NAS' }}
        intervalMs={60_000}
        onClose={() => {}}
        onClear={async () => true}
      />,
    );
    const table = await screen.findByTestId('pf-log-table');
    expect(
      await within(table).findByText('tcp4@:8080 192.168.1.5:51000 已关闭，持续 0.1 秒，上行 533 B，下行 310 B'),
    ).toBeTruthy();
    expect(within(table).queryByText(closed.text)).toBeNull();
    expect(within(table).getByText('an uncoded line')).toBeTruthy();
  });

  it('the rule card shows port and rule reasons and the recent lines in Chinese', async () => {
    const refused = line(3, 'ruleTcpLimit', { id: 'tcp6@:8080', client: '[fd00::5]:40000', cap: 2 });
    const rule = ruleView({
      state: 'error',
      reason: { code: 'portsFailed', params: { failed: 1, total: 2 } },
      error: '1 of 2 port(s) not running: cannot listen on [::]:8081: the port is in use (EADDRINUSE)',
      listenPorts: '8080-8081',
      targetPorts: '80-81',
      proxies: [
        proxy(),
        proxy({
          id: 'tcp6@:8081',
          listen: '[::]:8081',
          port: 8081,
          targetPort: 81,
          state: 'error',
          reason: { code: 'portInUse', params: { address: '[::]:8081', port: 8081, errno: 'EADDRINUSE' } },
          error: 'cannot listen on [::]:8081: the port is in use by another program or rule (EADDRINUSE)',
        }),
      ],
      lastLogs: [refused],
    });
    net.route('api/portforward/rules', { body: listReply([rule]) });
    renderWithProviders(<PortforwardScreen />);
    const card = await screen.findByTestId(`pf-rule-${rule.key}`);
    expect(within(card).getByTestId(`pf-rule-error-${rule.key}`).textContent).toContain(
      '2 个端口中有 1 个未运行：无法监听 [::]:8081：端口已被其他程序或规则占用',
    );
    expect(within(card).getByTestId('pf-proxy-tcp6@:8081').textContent).toContain(
      '无法监听 [::]:8081：端口已被其他程序或规则占用',
    );
    expect(within(card).getByText(/拒绝了 \[fd00::5\]:40000：已达本规则 TCP 连接上限 2/)).toBeTruthy();
    expect(card.textContent).not.toContain('rule limit of 2');
    expect(card.textContent).not.toContain('EADDRINUSE');
  });
});
