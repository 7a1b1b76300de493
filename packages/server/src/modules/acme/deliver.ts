// What happens to an issued certificate besides the store: the export folder (cert.pem,
// chain.pem, fullchain.pem, key.pem, each written atomically with the configured mode) and the
// command after renewal (`sh -c`, bounded in time and output).
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AcmeCertificate } from '@lucky/shared';
import { writeFileAtomic } from '../../core/config/atomicWrite.js';
import type { TemplateVars } from '../../core/webhook/template.js';
import { detailOf, OrderFailure, reason } from './reasons.js';

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The leaf and the rest of a PEM chain. */
export function splitChain(fullchain: string): { cert: string; chain: string } {
  const blocks = fullchain.match(PEM_CERT) ?? [];
  return {
    cert: `${blocks[0] ?? ''}\n`,
    chain: blocks.length > 1 ? `${blocks.slice(1).join('\n')}\n` : '',
  };
}

/** Writes the four files; answers the folder. */
export async function exportFiles(cert: AcmeCertificate, fullchain: string, keyPem: string): Promise<string> {
  const dir = cert.export.dir;
  const certMode = Number.parseInt(cert.export.certMode, 8);
  const keyMode = Number.parseInt(cert.export.keyMode, 8);
  const { cert: leaf, chain } = splitChain(fullchain);
  let at = dir;
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o755 });
    for (const [name, text, mode] of [
      ['cert.pem', leaf, certMode],
      ['chain.pem', chain, certMode],
      ['fullchain.pem', fullchain, certMode],
      ['key.pem', keyPem, keyMode],
    ] as const) {
      at = path.join(dir, name);
      await writeFileAtomic(at, text, mode);
    }
  } catch (err) {
    throw new OrderFailure(reason('exportFailed', { path: at, detail: detailOf(err) }));
  }
  return dir;
}

/** Output kept of a command (the rest is cut). */
const OUTPUT_MAX = 4096;

/**
 * Runs the command with LUCKY_CERT_DIR (the export folder, '' without export), LUCKY_CERT_NAME and
 * LUCKY_CERT_DOMAINS (comma-separated); killed after its timeout. Answers exit code and output.
 */
export function runCommand(
  cert: AcmeCertificate,
  signal: AbortSignal,
): Promise<{ code: number; output: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', cert.command], {
      env: {
        ...process.env,
        LUCKY_CERT_DIR: cert.export.enabled ? cert.export.dir : '',
        LUCKY_CERT_NAME: cert.name,
        LUCKY_CERT_DOMAINS: cert.names.join(','),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const take = (d: Buffer) => {
      if (output.length < OUTPUT_MAX) output += d.toString('utf8').slice(0, OUTPUT_MAX - output.length);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    let timedOut = false;
    // The whole process group: a shell's children go too.
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, cert.commandTimeout * 1000);
    signal.addEventListener('abort', kill, { once: true });
    child.on('error', (err) => {
      output += err.message;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', kill);
      resolve({ code: code ?? -1, output: output.trim(), timedOut });
    });
  });
}

/** The webhook's variables: #{name} #{names} #{notAfter} #{event} #{reason}. */
export function acmeWebhookVars(
  cert: Pick<AcmeCertificate, 'name' | 'names'>,
  event: 'success' | 'failure' | 'expiring',
  notAfter: string,
  why: string,
): TemplateVars {
  return { name: cert.name, names: cert.names.join(','), notAfter, event, reason: why };
}
