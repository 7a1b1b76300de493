// Certificates made in the test: EC P-256, self-signed, with the DNS names given.
import { generate } from 'selfsigned';

export interface TestCert {
  cert: string;
  key: string;
}

export async function makeCert(
  names: string[],
  opts: { notBefore?: Date; notAfter?: Date; cn?: string; san?: boolean } = {},
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
            { name: 'subjectAltName', altNames: names.map((value) => ({ type: 2 as const, value })) },
          ],
  });
  return { cert: pems.cert, key: pems.private };
}

export const b64 = (s: string) => Buffer.from(s).toString('base64');
