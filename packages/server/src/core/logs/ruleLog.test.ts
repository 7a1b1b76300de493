import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { LogRing } from './ring.js';
import { RuleLog } from './ruleLog.js';

const quiet = createLogger({ stdout: false, level: 'debug' });
const texts = (l: { text: string }[]) => l.map((e) => e.text);

describe('RuleLog', () => {
  it('keeps entries up to its level (2 Error … 6 Trace)', () => {
    const log = new RuleLog({ level: 3, capacity: 10, toConsole: false }, quiet);
    log.error('e');
    log.warn('w');
    log.info('i');
    log.debug('d');
    log.trace('t');
    expect(texts(log.newest(10))).toEqual(['w', 'e']);
    expect(log.wants(3)).toBe(true);
    expect(log.wants(4)).toBe(false);
  });

  it('is a ring: at capacity the oldest goes; pages newest or oldest first', () => {
    const log = new RuleLog({ level: 6, capacity: 4, toConsole: false }, quiet);
    for (let i = 1; i <= 6; i++) log.info(`l${i}`);
    expect(log.size).toBe(4);
    expect(texts(log.page(1, 3, 'newest').logs)).toEqual(['l6', 'l5', 'l4']);
    expect(texts(log.page(2, 3, 'newest').logs)).toEqual(['l3']);
    expect(texts(log.page(1, 3, 'oldest').logs)).toEqual(['l3', 'l4', 'l5']);
    expect(log.page(3, 3, 'oldest')).toEqual({ total: 4, logs: [] });
    expect(log.newest(1)[0].seq).toBe(6);
  });

  it('changing the capacity keeps the newest entries; 0 keeps none', () => {
    const log = new RuleLog({ level: 6, capacity: 5, toConsole: false }, quiet);
    for (let i = 1; i <= 5; i++) log.info(`l${i}`);
    log.configure({ level: 6, capacity: 2, toConsole: false });
    expect(texts(log.newest(5))).toEqual(['l5', 'l4']);
    log.info('l6');
    expect(texts(log.page(1, 5, 'oldest').logs)).toEqual(['l5', 'l6']);
    log.configure({ level: 6, capacity: 8, toConsole: false });
    log.info('l7');
    expect(texts(log.page(1, 5, 'oldest').logs)).toEqual(['l5', 'l6', 'l7']);
    log.configure({ level: 6, capacity: 0, toConsole: false });
    log.info('dropped');
    expect(log.size).toBe(0);
    expect(log.wants(4)).toBe(false);
  });

  it('keeps order, sequence numbers and times when a wrapped ring is resized, and after a clear', () => {
    const log = new RuleLog({ level: 6, capacity: 3, toConsole: false }, quiet);
    const at = (i: number) => Date.UTC(2026, 0, 1, 0, 0, i);
    for (let i = 1; i <= 5; i++) log.add(4, `l${i}`, at(i));
    expect(texts(log.page(1, 5, 'oldest').logs)).toEqual(['l3', 'l4', 'l5']);
    log.configure({ level: 6, capacity: 4, toConsole: false });
    log.add(4, 'l6', at(6));
    log.add(4, 'l7', at(7));
    const page = log.page(1, 5, 'oldest');
    expect(page.total).toBe(4);
    expect(texts(page.logs)).toEqual(['l4', 'l5', 'l6', 'l7']);
    expect(page.logs.map((e) => e.seq)).toEqual([4, 5, 6, 7]);
    expect(page.logs[0].time).toBe('2026-01-01T00:00:04.000Z');
    expect(page.logs.map((e) => e.level)).toEqual([4, 4, 4, 4]);
    log.clear();
    expect(log.size).toBe(0);
    log.info('after');
    expect(texts(log.newest(5))).toEqual(['after']);
    expect(log.newest(1)[0].seq).toBe(8);
  });

  it('copies to the program log when asked, with the level mapped', () => {
    const ring = new LogRing(100);
    const program = createLogger({ ring, stdout: false, level: 'debug' });
    const log = new RuleLog({ level: 6, capacity: 0, toConsole: true }, program.child('my rule'));
    log.error('bad thing');
    log.trace('fine detail');
    const lines = ring.since().map((l) => l.log);
    expect(lines[0]).toMatch(/ERROR \[my rule\] bad thing$/);
    expect(lines[1]).toMatch(/DEBUG \[my rule\] fine detail$/);
  });

  it('keeps code and params of coded lines (also across a resize); plain lines have none', () => {
    const log = new RuleLog({ level: 6, capacity: 3, toConsole: false }, quiet);
    log.info('plain');
    log.coded(3, 'ruleTcpLimit', { id: 'tcp4@:80', cap: 2 }, 'tcp4@:80 refused x: rule limit of 2 TCP connections');
    log.configure({ level: 6, capacity: 2, toConsole: false });
    const [coded, plain] = log.newest(2);
    expect(coded).toMatchObject({ level: 3, code: 'ruleTcpLimit', params: { id: 'tcp4@:80', cap: 2 } });
    expect(coded.text).toMatch(/rule limit of 2/);
    expect(plain).toEqual({ seq: 1, time: plain.time, level: 4, text: 'plain' });
  });
});
