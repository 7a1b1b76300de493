// The words the server writes for the FTP screen — field issues, reasons, log lines — have a
// translation in both languages, with the params of the server's English, and the log drawer
// shows coded lines in the UI language (zh_CN here), not in the server's English.
import { FTPSERVER_LOG, FTPSERVER_MESSAGES, FTPSERVER_REASONS, fillTemplate, type LogEntryView } from '@lucky/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetClient } from '../../api/client';
import { setItem } from '../../api/storage';
import { ServiceLogDrawer } from '../../components/ruleLog/ServiceLogDrawer';
import enUS from '../../i18n/en_US.json';
import zhCN from '../../i18n/zh_CN.json';
import { installFakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { fetchLogs, ftpKeys } from './api';

const LOCALES = {
  zh_CN: zhCN.ftpserver as Record<string, string>,
  en_US: enUS.ftpserver as Record<string, string>,
};
const names = (template: string, re: RegExp) => [...template.matchAll(re)].map((m) => m[1]).sort();

describe('FTP server words in both languages', () => {
  const codes: [string, string, string][] = [
    ...Object.entries(FTPSERVER_MESSAGES).map(([c, en]): [string, string, string] => ['err', c, en]),
    ...Object.entries(FTPSERVER_REASONS).map(([c, en]): [string, string, string] => ['reason', c, en]),
    ...Object.entries(FTPSERVER_LOG).map(([c, en]): [string, string, string] => ['log', c, en]),
  ];

  it.each(codes)('%s_%s is translated, with the params of the English template', (kind, code, english) => {
    for (const [lang, ns] of Object.entries(LOCALES)) {
      const text = ns[`${kind}_${code}`];
      expect(text, `${lang} ftpserver.${kind}_${code}`).toBeTruthy();
      const sent = names(english, /\{(\w+)\}/g);
      expect(names(text, /\{\{(\w+)\}\}/g), `${lang} ${kind}_${code}`).toEqual(sent);
    }
  });
});

beforeEach(() => {
  resetClient();
  setItem('token', 't');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const line = (seq: number, code: keyof typeof FTPSERVER_LOG, params: Record<string, unknown>): LogEntryView => ({
  seq,
  time: '2024-05-01T10:00:00.000Z',
  level: 4,
  code,
  params,
  text: fillTemplate(FTPSERVER_LOG[code], params),
});

describe('the log drawer (zh_CN)', () => {
  it('shows coded lines in Chinese; a line without a code keeps its text', async () => {
    const net = installFakeFetch();
    const login = line(3, 'loginOk', { client: '192.168.1.20:50123', user: 'alice' });
    const refused = line(2, 'refusedLan', { client: '203.0.113.9:41000' });
    const plain = { seq: 1, time: '2024-05-01T10:00:00.000Z', level: 4 as const, text: 'an uncoded line' };
    net.route('api/ftpserver/logs', {
      body: { ret: 0, total: 3, page: 1, pageSize: 50, order: 'newest', logs: [login, refused, plain] },
    });
    renderWithProviders(
      <ServiceLogDrawer
        open
        intervalMs={60_000}
        onClose={() => {}}
        onClear={async () => true}
        ns="ftpserver"
        queryKey={ftpKeys.logs}
        fetchLogs={fetchLogs}
        testIdPrefix="ftp"
      />,
    );
    const table = await screen.findByTestId('ftp-log-table');
    expect(await within(table).findByText('192.168.1.20:50123 以 alice 身份登录')).toBeTruthy();
    expect(within(table).getByText('已拒绝 203.0.113.9:41000：不是局域网地址（仅限局域网）')).toBeTruthy();
    expect(within(table).queryByText(login.text)).toBeNull();
    expect(within(table).getByText('an uncoded line')).toBeTruthy();
  });
});
