// The words the server writes for the STUN screen — field issues, reasons, log lines — and the
// words of its own enumerations have a translation in both languages, with only the params the
// server's English has (the webhook's codes in the shared webhook namespace); a coded line
// renders in the UI language (zh_CN here), nested words too.
import {
  MAPPING_STATES,
  NAT_FILTERINGS,
  NAT_MAPPINGS,
  NAT_VERDICTS,
  NATPMP_METHODS,
  STUN_LOG,
  STUN_MESSAGES,
  STUN_REASONS,
} from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { codedText } from '../../i18n/coded';
import enUS from '../../i18n/en_US.json';
import zhCN from '../../i18n/zh_CN.json';

const LOCALES = {
  zh_CN: zhCN.stun as Record<string, string>,
  en_US: enUS.stun as Record<string, string>,
};
/** The webhook's own codes read from the shared `webhook` namespace (i18n/coded.ts). */
const WEBHOOK_LOCALES: Record<string, Record<string, string>> = {
  zh_CN: zhCN.webhook as Record<string, string>,
  en_US: enUS.webhook as Record<string, string>,
};
const names = (template: string, re: RegExp) => [...template.matchAll(re)].map((m) => m[1] as string);

describe('STUN words in both languages', () => {
  const coded: [string, string, string][] = [
    ...Object.entries(STUN_MESSAGES).map(([c, en]): [string, string, string] => ['err', c, en]),
    ...Object.entries(STUN_REASONS).map(([c, en]): [string, string, string] => ['reason', c, en]),
    ...Object.entries(STUN_LOG).map(([c, en]): [string, string, string] => ['log', c, en]),
  ];

  it.each(coded)('%s_%s is translated, with the params of the English template', (kind, code, english) => {
    const sent = names(english, /\{(\w+)\}/g);
    for (const [lang, ns] of Object.entries(LOCALES)) {
      const text = ns[`${kind}_${code}`] ?? WEBHOOK_LOCALES[lang]?.[`${kind}_${code}`];
      expect(text, `${lang} stun.${kind}_${code}`).toBeTruthy();
      for (const n of names(text ?? '', /\{\{(\w+)\}\}/g))
        expect(sent, `${lang} ${kind}_${code}: {{${n}}}`).toContain(n);
    }
  });

  const enums: string[] = [
    ...NAT_VERDICTS.flatMap((v) => [`verdict_${v}`, `verdictName_${v}`]),
    ...NAT_MAPPINGS.map((m) => `natMapping_${m}`),
    ...NAT_FILTERINGS.map((f) => `natFiltering_${f}`),
    ...MAPPING_STATES.map((s) => `mapping_${s}`),
    ...['running', 'starting', 'error', 'stopped', 'disabled'].map((s) => `state_${s}`),
    ...NATPMP_METHODS.map((m) => `natpmpMethod_${m}`),
    ...['upnp', 'natpmp', 'pcp'].map((m) => `method_${m}`),
  ];
  it.each(enums)('%s is translated', (key) => {
    for (const [lang, ns] of Object.entries(LOCALES)) expect(ns[key], `${lang} stun.${key}`).toBeTruthy();
  });

  it('a coded line reads in Chinese, the NAT type line with its verdict and behaviour in words', () => {
    expect(
      codedText('stun', 'log', {
        code: 'addressChanged',
        params: { proto: 'udp', previous: '203.0.113.5:4000', public: '203.0.113.9:4100' },
        text: 'udp: public address changed from 203.0.113.5:4000 to 203.0.113.9:4100',
      }),
    ).toBe('udp：公网地址从 203.0.113.5:4000 变为 203.0.113.9:4100');
    expect(
      codedText('stun', 'log', {
        code: 'natType',
        params: { verdict: 'symmetric', mapping: 'addressPortDependent', filtering: 'addressDependent' },
        text: 'NAT type: symmetric (mapping addressPortDependent, filtering addressDependent)',
      }),
    ).toBe('NAT 类型：NAT4 对称型（映射 地址和端口相关，过滤 地址相关）');
  });

  it('a code this build does not know shows the server’s English', () => {
    expect(codedText('stun', 'reason', { code: 'somethingNew', text: 'something new happened' })).toBe(
      'something new happened',
    );
  });
});
