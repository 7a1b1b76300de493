// The listing as the screen shows it: filtered by name, sorted (folders first), and the
// selection rules of a desktop file manager (click, ctrl/cmd-click, shift-click ranges).
import type { FilebrowserEntry } from '@lucky/shared';

export type SortKey = 'name' | 'size' | 'mtime';
export interface Sort {
  key: SortKey;
  desc: boolean;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function visibleEntries(entries: readonly FilebrowserEntry[], filter: string, sort: Sort): FilebrowserEntry[] {
  const f = filter.trim().toLocaleLowerCase();
  const shown = f ? entries.filter((e) => e.name.toLocaleLowerCase().includes(f)) : [...entries];
  const dir = sort.desc ? -1 : 1;
  const by = (a: FilebrowserEntry, b: FilebrowserEntry) =>
    sort.key === 'size' ? a.size - b.size : sort.key === 'mtime' ? a.mtimeMs - b.mtimeMs : 0;
  return shown.sort((a, b) => {
    // Folders stay on top whichever way the column sorts.
    if (a.kind !== b.kind) return a.kind === 'dir' ? -1 : 1;
    return dir * (by(a, b) || collator.compare(a.name, b.name));
  });
}

export interface Selection {
  names: ReadonlySet<string>;
  /** Where a shift-click range starts, and where the keyboard is. */
  anchor?: string;
  focus?: string;
}
export const emptySelection: Selection = { names: new Set() };

export interface ClickMods {
  toggle: boolean;
  range: boolean;
}

/** A click on `name` (or the keyboard landing there with these modifiers). */
export function clickSelect(
  sel: Selection,
  rows: readonly FilebrowserEntry[],
  name: string,
  mods: ClickMods,
): Selection {
  if (mods.range && sel.anchor !== undefined) {
    const a = rows.findIndex((e) => e.name === sel.anchor);
    const b = rows.findIndex((e) => e.name === name);
    if (a >= 0 && b >= 0) {
      const [lo, hi] = a < b ? [a, b] : [b, a];
      const names = new Set(mods.toggle ? sel.names : []);
      for (let i = lo; i <= hi; i++) names.add(rows[i].name);
      return { names, anchor: sel.anchor, focus: name };
    }
  }
  if (mods.toggle) {
    const names = new Set(sel.names);
    if (names.has(name)) names.delete(name);
    else names.add(name);
    return { names, anchor: name, focus: name };
  }
  return { names: new Set([name]), anchor: name, focus: name };
}

/** The checkbox column: toggles one row, keeps the rest. */
export function toggleSelect(sel: Selection, name: string): Selection {
  return clickSelect(sel, [], name, { toggle: true, range: false });
}

export function selectAll(rows: readonly FilebrowserEntry[], sel: Selection): Selection {
  return { names: new Set(rows.map((e) => e.name)), anchor: sel.anchor, focus: sel.focus };
}

/** Arrow keys: the focus moves by `step` rows (shift extends the range from the anchor). */
export function moveFocus(sel: Selection, rows: readonly FilebrowserEntry[], step: number, extend: boolean): Selection {
  if (rows.length === 0) return sel;
  const at = sel.focus === undefined ? -1 : rows.findIndex((e) => e.name === sel.focus);
  const next = at < 0 ? (step > 0 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step));
  return clickSelect(sel, rows, rows[next].name, { toggle: false, range: extend });
}

/** Names still present after a reload (a renamed or deleted entry drops out of the selection). */
export function pruneSelection(sel: Selection, rows: readonly FilebrowserEntry[]): Selection {
  const present = new Set(rows.map((e) => e.name));
  const names = [...sel.names].filter((n) => present.has(n));
  if (names.length === sel.names.size && (sel.focus === undefined || present.has(sel.focus))) return sel;
  return {
    names: new Set(names),
    anchor: sel.anchor !== undefined && present.has(sel.anchor) ? sel.anchor : undefined,
    focus: sel.focus !== undefined && present.has(sel.focus) ? sel.focus : undefined,
  };
}
