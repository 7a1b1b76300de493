// Storage paths as the screen handles them: `/`, `/a/b` (the server canonicalises; these only join
// and split what it answered).

export function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/** The breadcrumb: `/a/b` → [{name:'a', path:'/a'}, {name:'b', path:'/a/b'}]. */
export function crumbsOf(path: string): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  let at = '';
  for (const part of path.split('/').filter(Boolean)) {
    at += `/${part}`;
    out.push({ name: part, path: at });
  }
  return out;
}

/** `a.txt` taken → `a (1).txt`, `a (2).txt` … (a new folder or text file's default name). */
export function freeName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const ext = dot > 0 ? base.slice(dot) : '';
  for (let i = 1; ; i++) {
    const n = `${stem} (${i})${ext}`;
    if (!taken.has(n)) return n;
  }
}
