// The server's English templates and the locale files name the same params, so every word the
// runtime writes has its translation filled in (a dropped `{name}` would show a hole).
import { DDNS_LOG_MESSAGES, DDNS_REASONS } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import enUS from '../../i18n/en_US.json';
import zhCN from '../../i18n/zh_CN.json';

const server = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const locale = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('DDNS runtime words', () => {
  for (const [kind, templates] of [
    ['reason', DDNS_REASONS],
    ['log', DDNS_LOG_MESSAGES],
  ] as const) {
    it(`${kind}: every code is translated with the params of its English template`, () => {
      for (const [code, english] of Object.entries(templates)) {
        for (const [lang, ns] of [
          ['zh_CN', zhCN.ddns],
          ['en_US', enUS.ddns],
        ] as const) {
          const text = (ns as Record<string, string>)[`${kind}_${code}`];
          expect(text, `${lang} ddns.${kind}_${code}`).toBeTypeOf('string');
          expect(locale(text), `${lang} ddns.${kind}_${code}`).toEqual(server(english));
        }
      }
    });
  }
});
