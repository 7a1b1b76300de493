import { afterEach, describe, expect, it } from 'vitest';
import { clearAll, getItem, removeItem, STORAGE_KEY, setItem, setItems } from './storage';

describe('storage', () => {
  afterEach(() => window.localStorage.clear());

  it('keeps every value under the one "lucky" key as a JSON object', () => {
    setItem('lang', 'en_US');
    setItem('token', 'abc');
    setItem('lastVersion', ['2.1.0', '2.2.0-beta']);
    expect(Object.keys(window.localStorage)).toEqual([STORAGE_KEY]);
    expect(JSON.parse(window.localStorage.getItem('lucky') ?? '')).toEqual({
      lang: 'en_US',
      token: 'abc',
      lastVersion: ['2.1.0', '2.2.0-beta'],
    });
    expect(getItem('token')).toBe('abc');
    expect(getItem('lastVersion')).toEqual(['2.1.0', '2.2.0-beta']);
  });

  it('sets several values at once without losing the others', () => {
    setItem('token', 't');
    setItems({ showAboutView: true, showLocalView: false, V2L: 'x' });
    expect(getItem('token')).toBe('t');
    expect(getItem('showAboutView')).toBe(true);
    expect(getItem('showLocalView')).toBe(false);
  });

  it('removes one value and leaves the rest', () => {
    setItem('token', 't');
    setItem('lang', 'zh_CN');
    removeItem('token');
    expect(getItem('token')).toBeUndefined();
    expect(getItem('lang')).toBe('zh_CN');
  });

  it('clear removes only our key, not other apps on the same origin', () => {
    window.localStorage.setItem('other-app', 'keep me');
    setItem('token', 't');
    clearAll();
    expect(window.localStorage.getItem('lucky')).toBeNull();
    expect(window.localStorage.getItem('other-app')).toBe('keep me');
    expect(getItem('token')).toBeUndefined();
  });

  it('survives a corrupted or foreign value', () => {
    window.localStorage.setItem('lucky', '{not json');
    expect(getItem('token')).toBeUndefined();
    setItem('token', 'fresh');
    expect(getItem('token')).toBe('fresh');
    window.localStorage.setItem('lucky', '[1,2]');
    expect(getItem('token')).toBeUndefined();
  });

  it('never stores a password for "remember"', () => {
    setItems({ rememberAccount: true, loginAccount: 'admin' });
    expect(window.localStorage.getItem('lucky')).not.toMatch(/password/i);
  });
});
