import { describe, expect, it } from 'vitest';
import { prefixForm, underPrefix } from './pathPrefix.js';

describe('path prefixes', () => {
  it('matches path prefixes on segment boundaries', () => {
    expect(underPrefix('/app', '/app')).toBe(true);
    expect(underPrefix('/app/x', '/app/')).toBe(true);
    expect(underPrefix('/apple', '/app')).toBe(false);
    expect(underPrefix('/anything', '/')).toBe(true);
  });

  it('puts configured prefixes in canonical form', () => {
    expect(prefixForm('/%61pi//v1/')).toBe('/api/v1/');
    expect(prefixForm('/app;x')).toBe('/app');
    expect(prefixForm('/a%2fb')).toBe('/a%2fb');
  });
});
