import { describe, expect, it } from 'vitest';
import { daysLeft, daysLeftType } from './format';
import { certView, listAnswer } from './testData';
import { ORDER_POLL_MS, pollInterval } from './useAcme';

describe('certificate facts', () => {
  const now = Date.parse('2026-01-10T12:00:00Z');
  it('counts whole days left, negative once expired', () => {
    expect(daysLeft('2026-01-20T12:00:00Z', now)).toBe(10);
    expect(daysLeft('2026-01-11T11:00:00Z', now)).toBe(0);
    expect(daysLeft('2026-01-08T12:00:00Z', now)).toBe(-2);
    expect(daysLeft(undefined, now)).toBeUndefined();
  });

  it('colours the days left: red under a week, orange within the warning window', () => {
    expect(daysLeftType(3, 14)).toBe('danger');
    expect(daysLeftType(10, 14)).toBe('warning');
    expect(daysLeftType(40, 14)).toBeUndefined();
  });

  it('fetches the list quicker while an order runs, at the chosen interval otherwise', () => {
    const idle = listAnswer({ certificates: [certView({}, { state: 'valid' })] });
    const busy = listAnswer({ certificates: [certView({}, { state: 'renewing', step: 'validation' })] });
    expect(pollInterval(idle, 30_000)).toBe(30_000);
    expect(pollInterval(busy, 30_000)).toBe(ORDER_POLL_MS);
    expect(pollInterval(busy, 1000)).toBe(1000);
    expect(pollInterval(undefined, 5000)).toBe(5000);
  });
});
