import { describe, expect, it } from 'vitest';
import { listedForm } from './knock.js';

describe('knock: the entry a caller gets', () => {
  it('is an IPv4 address itself (mapped ones too), and an IPv6 address its /64', () => {
    expect(listedForm('203.0.113.7')).toBe('203.0.113.7');
    expect(listedForm('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(listedForm('2001:db8:1:2:a1b2:c3d4:e5f6:789')).toBe('2001:db8:1:2::/64');
    expect(listedForm('2001:DB8:1:2::1')).toBe('2001:db8:1:2::/64');
  });
});
