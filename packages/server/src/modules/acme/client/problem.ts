// Failures of calls to the CA, as errors the order runner can turn into a reason of the shared
// contract (ACME_REASONS): the CA's problem documents (RFC 8555 §6.7) and network failures
// (unreachable, timed out) with the step they hit.
import type { AcmeProblemDocument, AcmeReason, AcmeStep } from './types.js';

const PREFIX = 'urn:ietf:params:acme:error:';

/** A problem document the CA answered, as an error. */
export class AcmeProblem extends Error {
  /** The short type (`badNonce`, `rateLimited`), or the full URI of a non-ACME type. */
  readonly type: string;
  readonly detail: string;
  readonly status: number;
  readonly subproblems: AcmeProblemDocument[];
  /** Seconds from the answer's Retry-After, if any. */
  readonly retryAfter: number | undefined;

  constructor(
    doc: AcmeProblemDocument,
    status: number,
    readonly step: AcmeStep,
    retryAfter?: number,
  ) {
    const type = doc.type?.startsWith(PREFIX) ? doc.type.slice(PREFIX.length) : (doc.type ?? 'about:blank');
    const detail = doc.detail ?? `HTTP ${status}`;
    super(`${type}: ${detail}`);
    this.name = 'AcmeProblem';
    this.type = type;
    this.detail = detail;
    this.status = doc.status ?? status;
    this.subproblems = doc.subproblems ?? [];
    this.retryAfter = retryAfter;
  }

  /** The detail with the subproblems' identifiers and details (a multi-name order's "which name"). */
  fullDetail(): string {
    const subs = this.subproblems.map((s) => `${s.identifier?.value ?? '?'}: ${s.detail ?? s.type ?? ''}`);
    return subs.length ? `${this.detail} (${subs.join('; ')})` : this.detail;
  }
}

/** The CA could not be reached, or did not answer in time. */
export class AcmeNetworkError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'timeout' | 'stopped',
    readonly step: AcmeStep,
    readonly url: string,
    detail: string,
    readonly timeoutMs = 0,
  ) {
    super(detail);
    this.name = 'AcmeNetworkError';
  }
}

/** The answer was not what RFC 8555 says (no Location on an order, a body that is not JSON…). */
export class AcmeProtocolError extends Error {
  constructor(
    readonly step: AcmeStep,
    message: string,
  ) {
    super(message);
    this.name = 'AcmeProtocolError';
  }
}

/** Seconds of a Retry-After header (delta seconds or an HTTP date), undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.round((at - now) / 1000));
}

/**
 * The reason of a failed call, in the shared contract's codes. Covers what the client itself can
 * tell (CA problems, account, EAB, rate limits, network); the runner names its own steps
 * (challenge, propagation, validation, finalize) with the codes made for them.
 */
export function reasonOf(err: unknown, now = Date.now()): AcmeReason {
  if (err instanceof AcmeProblem) {
    if (err.type === 'rateLimited') {
      const retryAfter = err.retryAfter !== undefined ? new Date(now + err.retryAfter * 1000).toISOString() : '?';
      return { code: 'rateLimited', params: { retryAfter, detail: err.fullDetail() } };
    }
    if (err.type === 'accountDoesNotExist') return { code: 'accountMissing', params: {} };
    if (err.step === 'account' && (err.type === 'externalAccountRequired' || err.type === 'unauthorized')) {
      return { code: 'eabRefused', params: { detail: err.fullDetail() } };
    }
    return { code: 'caProblem', params: { type: err.type, detail: err.fullDetail() } };
  }
  if (err instanceof AcmeNetworkError) {
    if (err.kind === 'timeout')
      return { code: 'timeout', params: { seconds: Math.ceil(err.timeoutMs / 1000), step: err.step } };
    if (err.kind === 'stopped') return { code: 'cancelled', params: {} };
    return { code: 'directoryUnreachable', params: { url: err.url, detail: err.message } };
  }
  const detail = err instanceof Error ? err.message : String(err);
  return { code: 'caProblem', params: { type: err instanceof AcmeProtocolError ? 'protocol' : 'client', detail } };
}
