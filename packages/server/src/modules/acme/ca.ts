// What an order needs of the CA, in the module's own terms: the RFC 8555 client (client/, its own
// files) sits behind this, so the order flow, the tests' stubs and the client can move apart.
import type { AcmeKeyType, AcmeReasonCode, CodedText } from '@lucky/shared';

export interface CaIdentifier {
  type: 'dns' | 'ip';
  value: string;
}

export interface CaOrder {
  url: string;
  status: 'pending' | 'ready' | 'processing' | 'valid' | 'invalid';
  authorizations: string[];
  finalize: string;
  certificate?: string;
  error?: { type?: string; detail?: string };
}

export interface CaChallenge {
  type: string;
  url: string;
  token: string;
  status: string;
  error?: { type?: string; detail?: string };
}

export interface CaAuthorization {
  identifier: CaIdentifier;
  status: 'pending' | 'valid' | 'invalid' | 'deactivated' | 'expired' | 'revoked';
  wildcard?: boolean;
  challenges: CaChallenge[];
}

export interface CaRenewalInfo {
  start: string;
  end: string;
  explanationUrl?: string;
  /** Seconds until it should be asked again. */
  retryAfter?: number;
}

/** One account at one CA directory. */
export interface CaSession {
  /** Registers (or finds) the account; answers its URL. */
  register(opts: { email: string; eab?: { kid: string; hmacKey: string } }): Promise<string>;
  newOrder(identifiers: CaIdentifier[], replaces?: string): Promise<CaOrder>;
  authorization(url: string): Promise<CaAuthorization>;
  /** Tell the CA the challenge can be checked. */
  ready(challengeUrl: string): Promise<void>;
  /** Polls until the authorization is no longer pending. */
  settle(url: string): Promise<CaAuthorization>;
  /** Finalizes with the CSR and polls until the order is valid or invalid. */
  finalize(order: CaOrder, csrDer: Buffer): Promise<CaOrder>;
  download(url: string): Promise<string>;
  revoke(certPem: string, reason: number): Promise<void>;
  /** ARI (RFC 9773); undefined when the CA offers none. */
  renewalInfo(certPem: string): Promise<CaRenewalInfo | undefined>;
  /** The ARI certificate id for `replaces`. */
  certId(certPem: string): string;
  keyAuthorization(token: string): string;
  dns01Value(token: string): string;
  /** Lets the session's connections go (after each order, revocation or ARI question). */
  close(): Promise<void>;
}

export interface CaSessionOptions {
  directoryUrl: string;
  accountKeyPem: string;
  accountUrl?: string;
  caCertPem?: string;
  timeoutMs: number;
  signal: AbortSignal;
}

/** What the module needs of the client package: sessions, keys, CSRs, and problems as reasons. */
export interface CaKit {
  session(opts: CaSessionOptions): CaSession;
  generateKey(type: AcmeKeyType): Promise<string>;
  csr(names: string[], keyPem: string): Buffer;
  /** A thrown client error as a coded reason (undefined: not the client's). */
  reasonOf(err: unknown, step: string): (CodedText & { code: AcmeReasonCode; retryAfterMs?: number }) | undefined;
}
