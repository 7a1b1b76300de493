import type { FilebrowserEntry } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import { clickSelect, emptySelection, moveFocus, pruneSelection, selectAll, visibleEntries } from './listModel';
import { crumbsOf, freeName, joinPath, parentOf } from './paths';

const file = (name: string, size = 0, mtimeMs = 0): FilebrowserEntry => ({
  name,
  kind: 'file',
  size,
  mtimeMs,
  type: 'other',
  etag: name,
});
const dir = (name: string): FilebrowserEntry => ({ ...file(name), kind: 'dir', type: 'dir' });

describe('file manager list model', () => {
  const entries = [file('b10.txt', 5, 3), file('b2.txt', 50, 1), dir('zeta'), file('A.txt', 500, 2), dir('alpha')];

  it('sorts folders first, names naturally and case-blind, sizes and times both ways', () => {
    const names = (key: 'name' | 'size' | 'mtime', desc = false) =>
      visibleEntries(entries, '', { key, desc }).map((e) => e.name);
    expect(names('name')).toEqual(['alpha', 'zeta', 'A.txt', 'b2.txt', 'b10.txt']);
    expect(names('name', true)).toEqual(['zeta', 'alpha', 'b10.txt', 'b2.txt', 'A.txt']);
    expect(names('size', true)).toEqual(['zeta', 'alpha', 'A.txt', 'b2.txt', 'b10.txt']);
    expect(names('mtime')).toEqual(['alpha', 'zeta', 'b2.txt', 'A.txt', 'b10.txt']);
    expect(visibleEntries(entries, ' B1 ', { key: 'name', desc: false }).map((e) => e.name)).toEqual(['b10.txt']);
  });

  it('selects by click, toggles by ctrl-click, takes ranges by shift-click and the arrows', () => {
    const rows = visibleEntries(entries, '', { key: 'name', desc: false });
    let s = clickSelect(emptySelection, rows, 'zeta', { toggle: false, range: false });
    s = clickSelect(s, rows, 'b2.txt', { toggle: false, range: true });
    expect([...s.names]).toEqual(['zeta', 'A.txt', 'b2.txt']);
    s = clickSelect(s, rows, 'A.txt', { toggle: true, range: false });
    expect([...s.names].sort()).toEqual(['b2.txt', 'zeta']);
    s = moveFocus(s, rows, 1, false);
    expect([...s.names]).toEqual(['b2.txt']);
    s = moveFocus(s, rows, 1, true);
    expect([...s.names]).toEqual(['b2.txt', 'b10.txt']);
    expect(moveFocus(s, rows, 1, false).focus).toBe('b10.txt');
    expect(selectAll(rows, s).names.size).toBe(5);
    const pruned = pruneSelection(
      s,
      rows.filter((e) => e.name !== 'b10.txt'),
    );
    expect([...pruned.names]).toEqual(['b2.txt']);
    expect(pruned.focus).toBeUndefined();
  });

  it('joins, splits and picks free names', () => {
    expect(joinPath('/', 'a')).toBe('/a');
    expect(joinPath('/a', 'b')).toBe('/a/b');
    expect(parentOf('/a/b')).toBe('/a');
    expect(parentOf('/a')).toBe('/');
    expect(crumbsOf('/a/b')).toEqual([
      { name: 'a', path: '/a' },
      { name: 'b', path: '/a/b' },
    ]);
    expect(freeName('new.txt', new Set(['new.txt', 'new (1).txt']))).toBe('new (2).txt');
    expect(freeName('folder', new Set(['folder']))).toBe('folder (1)');
  });
});
