import { describe, expect, it } from 'vitest';
import { compareVersions, newestVersion } from './version';

describe('versions', () => {
  it('compares numerically, ignoring a v prefix and pre-release tags', () => {
    expect(compareVersions('2.10.0', '2.9.1')).toBe(1);
    expect(compareVersions('v1.2', '1.2.0')).toBe(0);
    expect(compareVersions('1.2.3-beta', '1.2.4')).toBe(-1);
    expect(compareVersions('unknow', '1.0.0')).toBeNull();
  });
  it('picks the newest real version', () => {
    expect(newestVersion(['2.1.0', '2.3.0-beta'])).toBe('2.3.0-beta');
    expect(newestVersion(['unknow', 'unknow'])).toBeNull();
  });
});
