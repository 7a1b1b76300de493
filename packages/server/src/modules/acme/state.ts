// Where each certificate stands between orders, in `<configDir>/acme/state.json` (written
// atomically, 0600): the issued leaf's facts, the next renewal, ARI's window, the failures in a
// row and the last one's coded reason. Certificate PEMs live in the certificate store, not here.
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AcmeCertificateStatus, AcmeReasonCode, CodedText } from '@lucky/shared';
import { writeFileAtomic } from '../../core/config/atomicWrite.js';

export interface CertState {
  notBefore?: string;
  notAfter?: string;
  serial?: string;
  issuer?: string;
  /** The names the issued certificate carries (a changed list orders again). */
  names?: string[];
  lastIssuedAt?: string;
  /** The scheduler's next try (ISO): renewal time or the back-off's. */
  nextRenewalAt?: string;
  ariWindow?: { start: string; end: string; explanationUrl?: string };
  /** When to ask the CA's renewalInfo again (its Retry-After). */
  ariCheckAt?: string;
  /** The random time picked inside ARI's window (kept while the window stays the same). */
  ariPick?: string;
  lastAttemptAt?: string;
  lastError?: CodedText & { code: AcmeReasonCode };
  failures: number;
  revoked?: boolean;
  /** The notAfter an expiry warning was sent for (one warning per issued certificate). */
  warnedFor?: string;
}

const FILE = 'state.json';

export class AcmeStateFile {
  private states: Record<string, CertState> = {};
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly dir: string) {}

  async load(): Promise<void> {
    try {
      const raw = JSON.parse(await fs.readFile(path.join(this.dir, FILE), 'utf8')) as unknown;
      if (raw && typeof raw === 'object' && !Array.isArray(raw)) this.states = raw as Record<string, CertState>;
    } catch (err) {
      // No file yet (first start), or a torn one from before atomic writes: start empty.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.states = {};
    }
  }

  get(key: string): CertState {
    return this.states[key] ?? { failures: 0 };
  }

  /** Change one certificate's state and write the file (writes run one after another). */
  update(key: string, fn: (s: CertState) => CertState): Promise<void> {
    this.states[key] = fn(this.get(key));
    return this.save();
  }

  /** Forget certificates no longer configured. */
  retain(keys: Set<string>): Promise<void> {
    let changed = false;
    for (const k of Object.keys(this.states))
      if (!keys.has(k)) {
        delete this.states[k];
        changed = true;
      }
    return changed ? this.save() : Promise.resolve();
  }

  private save(): Promise<void> {
    const text = `${JSON.stringify(this.states, null, 1)}\n`;
    this.writing = this.writing
      .catch(() => {})
      .then(async () => {
        await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
        await writeFileAtomic(path.join(this.dir, FILE), text);
      });
    return this.writing;
  }
}

/** The states as last written, read at once (the routes' view while the module is off). */
export function readStates(configDir: string): Record<string, CertState> {
  try {
    const raw = JSON.parse(readFileSync(path.join(configDir, 'acme', FILE), 'utf8')) as unknown;
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, CertState>) : {};
  } catch {
    return {};
  }
}

/** The status view of a state (the runtime adds `state`, `step` and `storeKey`). */
export function statusFields(s: CertState): Omit<AcmeCertificateStatus, 'state'> {
  const out: Omit<AcmeCertificateStatus, 'state'> = { failures: s.failures };
  for (const k of [
    'notBefore',
    'notAfter',
    'serial',
    'issuer',
    'lastIssuedAt',
    'nextRenewalAt',
    'ariWindow',
    'lastAttemptAt',
    'lastError',
  ] as const) {
    if (s[k] !== undefined) (out as Record<string, unknown>)[k] = s[k];
  }
  return out;
}
