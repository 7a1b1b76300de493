// Certificates made in the test: EC P-256, self-signed, with the DNS names given.
import { generate } from 'selfsigned';
import { parseCertPair } from '../src/core/certs/parse.js';
import { CertResolver } from '../src/core/certs/resolver.js';
import type { LoadedCert } from '../src/core/certs/store.js';

export interface TestCert {
  cert: string;
  key: string;
}

export async function makeCert(
  names: string[],
  opts: { notBefore?: Date; notAfter?: Date; cn?: string; san?: boolean; ips?: string[] } = {},
): Promise<TestCert> {
  const pems = await generate([{ name: 'commonName', value: opts.cn ?? names[0] ?? 'test' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: opts.notBefore ?? new Date(Date.now() - 86400_000),
    notAfterDate: opts.notAfter ?? new Date(Date.now() + 90 * 86400_000),
    extensions:
      opts.san === false
        ? [{ name: 'basicConstraints', cA: false }]
        : [
            { name: 'basicConstraints', cA: false },
            {
              name: 'subjectAltName',
              altNames: [
                ...names.map((value) => ({ type: 2 as const, value })),
                ...(opts.ips ?? []).map((ip) => ({ type: 7 as const, ip })),
              ],
            },
          ],
  });
  return { cert: pems.cert, key: pems.private };
}

export const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A certificate resolver holding one new certificate for `names` (what ctx.certs is with one stored). */
export async function resolverWith(names: string[]): Promise<{ resolver: CertResolver; cert: TestCert }> {
  const cert = await makeCert(names);
  const parsed = parseCertPair(cert.cert, cert.key);
  const loaded: LoadedCert = {
    record: { key: 'test', enable: true, remark: '', certPem: cert.cert, keyPem: cert.key, addTime: '' },
    parsed,
    leaf: parsed.chain[0],
  };
  return { resolver: new CertResolver({ loaded: () => [loaded], onChange: () => () => {} }), cert };
}
