// Prints the closing line CI reads, `N passed, N failed`, from vitest's JSON
// report plus the static checks that ran before it (each failed check counts once).
import { existsSync, readFileSync } from 'node:fs';

const [report, ...checks] = process.argv.slice(2);
let passed = 0;
let failed = 0;
if (report && existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed = r.numPassedTests ?? 0;
  // Failed tests, plus test files that failed without a failing test (import or hook errors).
  const brokenFiles = (r.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  failed = (r.numFailedTests ?? 0) + brokenFiles;
  if (!r.success && failed === 0) failed = 1;
} else {
  failed = 1;
  console.log('no test report was written (the test run did not start)');
}
for (const c of checks) {
  const [name, rc] = c.split('=');
  if (rc === '0') passed++;
  else {
    failed++;
    console.log(`check failed: ${name}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
