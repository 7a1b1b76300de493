// A self-signed EC (P-256) certificate (or a CA, without `san`) and its key, written as PEM files
// by openssl. Shared by the browser tests (e2e/harness.ts) and the benchmarks (bench/).
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * @param {string} dir where the files go
 * @param {{ cn: string, san?: string, days?: number, cert?: string, key?: string }} opts
 *   `san` as openssl takes it (`DNS:a.test,IP:127.0.0.1`); file names default to cert.pem / key.pem
 * @returns {{ cert: string, key: string }} the paths of the certificate and the key
 */
export function selfSignedCert(dir, opts) {
  const cert = path.join(dir, opts.cert ?? 'cert.pem');
  const key = path.join(dir, opts.key ?? 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-subj',
      `/CN=${opts.cn}`,
      ...(opts.san ? ['-addext', `subjectAltName=${opts.san}`] : []),
      '-days',
      String(opts.days ?? 2),
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'pipe' },
  );
  return { cert, key };
}
