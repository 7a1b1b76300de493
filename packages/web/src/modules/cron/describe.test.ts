// A schedule in words, in both languages, from the pickers' model.
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import enUS from '../../i18n/en_US.json';
import zhCN from '../../i18n/zh_CN.json';
import { parseSchedule, type Schedule } from './cronFields';
import { describeSchedule } from './describe';

const inst = i18next.createInstance();
await inst.init({
  lng: 'en_US',
  resources: { en_US: { translation: enUS }, zh_CN: { translation: zhCN } },
  interpolation: { escapeValue: false },
  initAsync: false,
});
const words = (lng: 'en_US' | 'zh_CN', expr: string) =>
  describeSchedule(inst.getFixedT(lng), lng === 'en_US' ? 'en' : 'zh-CN', parseSchedule(expr) as Schedule);

describe('describeSchedule', () => {
  it('says a daily time', () => {
    expect(words('en_US', '30 2 * * *')).toBe('Every day, at 02:30');
    expect(words('zh_CN', '30 2 * * *')).toBe('每天，02:30');
  });

  it('says steps, ranges and weekday names', () => {
    expect(words('en_US', '*/5 9-17 * * 1-5')).toBe('Mon to Fri, every 5 minutes, from 09:00 to 17:59');
    expect(words('zh_CN', '*/5 9-17 * * 1-5')).toBe('周一至周五，每隔 5 分钟，09:00 至 17:59');
  });

  it('says every minute without a day', () => {
    expect(words('en_US', '* * * * *')).toBe('Every minute');
  });

  it('names months and days of the month', () => {
    expect(words('en_US', '0 8 1,15 1 *')).toBe('On day 1, 15 of the month, in Jan, at 08:00');
  });
});
