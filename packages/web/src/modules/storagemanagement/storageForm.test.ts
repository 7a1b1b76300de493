import { describe, expect, it } from 'vitest';
import { checkStorage, isRootPath, newStorageValues, valuesToInput } from './storageForm';

const input = (over: Partial<ReturnType<typeof newStorageValues>> = {}) =>
  valuesToInput({ ...newStorageValues(), ...over });

describe('storage form', () => {
  it('checks with the codes the server answers, on the chosen kind only', () => {
    expect(checkStorage(input())).toEqual([
      { field: 'name', code: 'nameRequired', params: expect.any(Object) },
      { field: 'local.path', code: 'pathRequired', params: expect.any(Object) },
    ]);
    expect(checkStorage(input({ name: 'a', local: { path: 'rel' } })).map((f) => f.code)).toEqual(['pathNotAbsolute']);
    expect(checkStorage(input({ name: 'a', local: { path: '/mnt' } }))).toEqual([]);
    const dav = { url: 'https://me:pw@nas/dav/', user: '', password: '', tlsVerify: true };
    expect(checkStorage(input({ name: 'a', kind: 'webdav', webdav: dav })).map((f) => f.code)).toEqual([
      'urlHasCredentials',
    ]);
    // A half-typed local path does not stop a WebDAV entry.
    expect(
      checkStorage(input({ name: 'a', kind: 'webdav', local: { path: 'x' }, webdav: { ...dav, url: 'http://nas/' } })),
    ).toEqual([]);
  });

  it('refuses a name another storage has', () => {
    expect(checkStorage(input({ name: 'Photos', local: { path: '/p' } }), ['Photos'])).toEqual([
      { field: 'name', code: 'nameTaken', params: { name: 'Photos' } },
    ]);
  });

  it('trims what it sends', () => {
    expect(input({ name: ' a ', local: { path: ' /mnt ' } })).toMatchObject({ name: 'a', local: { path: '/mnt' } });
  });

  it('knows the whole file system in its spellings', () => {
    for (const p of ['/', '//', '/.', ' / ', '/..', '/mnt/..']) expect(isRootPath(p), p).toBe(true);
    for (const p of ['/mnt', '', 'x', '/mnt/../srv', '..']) expect(isRootPath(p), p).toBe(false);
  });
});
