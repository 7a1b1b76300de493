import { X509Certificate } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../config/atomicWrite.js';
import { makeSelfSigned } from './selfSigned.js';

export interface KeyPair {
  cert: string;
  key: string;
}

/**
 * The admin listener's certificate: a self-signed EC certificate made on first
 * start (10 years, SANs localhost, loopback and the host name) and kept 0600
 * in `<config dir>/tls/`. It is renewed when fewer than 30 days remain.
 */
export async function loadAdminCertificate(configDir: string): Promise<KeyPair> {
  const dir = path.join(configDir, 'tls');
  const certFile = path.join(dir, 'admin.crt');
  const keyFile = path.join(dir, 'admin.key');
  try {
    const [cert, key] = await Promise.all([fs.readFile(certFile, 'utf8'), fs.readFile(keyFile, 'utf8')]);
    const x = new X509Certificate(cert);
    if (Date.parse(x.validTo) - Date.now() > 30 * 86400_000) return { cert, key };
  } catch {
    // missing or unreadable: make a new one
  }
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const host = os.hostname();
  const pems = makeSelfSigned({
    commonName: 'Lucky console',
    dnsNames: ['localhost', ...(host && host !== 'localhost' && /^[a-z0-9.-]+$/i.test(host) ? [host] : [])],
    ips: ['127.0.0.1', '::1'],
    days: 10 * 365,
  });
  await writeFileAtomic(keyFile, pems.key, 0o600);
  await writeFileAtomic(certFile, pems.cert, 0o644);
  return { cert: pems.cert, key: pems.key };
}
