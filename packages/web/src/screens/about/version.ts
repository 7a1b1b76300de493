/**
 * Compares dotted versions numerically ("2.10.0" > "2.9.1"); a leading "v" and
 * pre-release suffixes are ignored. Returns null when either is not a version.
 */
export function compareVersions(a: string, b: string): number | null {
  const parse = (v: string) => {
    const m = /^v?(\d+(?:\.\d+)*)/.exec(v.trim());
    return m ? m[1].split('.').map(Number) : null;
  };
  const pa = parse(a);
  const pb = parse(b);
  if (!pa || !pb) return null;
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d > 0 ? 1 : -1;
  }
  return 0;
}

/** The newer of the announced versions that are real versions, or null. */
export function newestVersion(versions: readonly string[]): string | null {
  let best: string | null = null;
  for (const v of versions) {
    if (compareVersions(v, v) === null) continue;
    if (best === null || (compareVersions(v, best) ?? 0) > 0) best = v;
  }
  return best;
}
