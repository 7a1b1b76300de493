// The words the server writes for the WebDAV screen — field issues, reasons, log lines — have a
// translation in both languages, with the params of the server's English (the bind reasons with
// the params the core's bind reason carries).
import { WEBDAV_BIND_REASONS, WEBDAV_LOG, WEBDAV_MESSAGES, WEBDAV_REASONS } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import enUS from '../../i18n/en_US.json';
import zhCN from '../../i18n/zh_CN.json';

const LOCALES = {
  zh_CN: zhCN.webdav as Record<string, string>,
  en_US: enUS.webdav as Record<string, string>,
};
const names = (template: string, re: RegExp) => [...template.matchAll(re)].map((m) => m[1]).sort();

describe('WebDAV words in both languages', () => {
  const codes: [string, string, string[]][] = [
    ...Object.entries(WEBDAV_MESSAGES).map(([c, en]): [string, string, string[]] => [
      'err',
      c,
      names(en, /\{(\w+)\}/g),
    ]),
    ...Object.entries(WEBDAV_REASONS).map(([c, en]): [string, string, string[]] => [
      'reason',
      c,
      names(en, /\{(\w+)\}/g),
    ]),
    ...Object.entries(WEBDAV_LOG).map(([c, en]): [string, string, string[]] => ['log', c, names(en, /\{(\w+)\}/g)]),
  ];

  it.each(codes)('%s_%s is translated, with the params of the English template', (kind, code, sent) => {
    for (const [lang, ns] of Object.entries(LOCALES)) {
      const text = ns[`${kind}_${code}`];
      expect(text, `${lang} webdav.${kind}_${code}`).toBeTruthy();
      expect(names(text, /\{\{(\w+)\}\}/g), `${lang} ${kind}_${code}`).toEqual(sent);
    }
  });

  it.each(WEBDAV_BIND_REASONS)(
    'the bind reason %s reads as a reason and as a log line, naming only the params it has',
    (code) => {
      // core/net/bindPort.ts bindReason: {address, port, errno}.
      const allowed = ['address', 'errno', 'port'];
      for (const [lang, ns] of Object.entries(LOCALES)) {
        for (const kind of ['reason', 'log']) {
          const text = ns[`${kind}_${code}`];
          expect(text, `${lang} webdav.${kind}_${code}`).toBeTruthy();
          for (const n of names(text, /\{\{(\w+)\}\}/g)) expect(allowed, `${lang} ${kind}_${code}`).toContain(n);
        }
      }
    },
  );
});
