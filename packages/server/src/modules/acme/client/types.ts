// The ACME client's public API (RFC 8555 with RFC 9773 renewal information), as the module's
// order runner calls it. Resources are the CA's JSON with their URL added; times are Date.
import type { AcmeReasonCode } from '@lucky/shared';

export interface AcmeClientOptions {
  /** The CA's directory URL. */
  directoryUrl: string;
  /** The account key, PKCS#8 PEM (keys.ts `generateKeyPem`). */
  accountKeyPem: string;
  /** The account's URL once known (register / lookup fill it in otherwise). */
  accountUrl?: string;
  /** A private CA's root for the directory's TLS, trusted besides the system's roots. */
  caCertPem?: string;
  /** Bound of each HTTP exchange with the CA. */
  timeoutMs: number;
  /** Stops every call in flight and every poll (module switched off, certificate removed). */
  signal?: AbortSignal;
}

/** What the directory lists (RFC 8555 §7.1.1; renewalInfo from RFC 9773). */
export interface AcmeDirectory {
  newNonce: string;
  newAccount: string;
  newOrder: string;
  revokeCert: string;
  keyChange?: string;
  newAuthz?: string;
  renewalInfo?: string;
  meta?: {
    termsOfService?: string;
    website?: string;
    caaIdentities?: string[];
    externalAccountRequired?: boolean;
  };
}

export interface AcmeIdentifier {
  type: 'dns' | 'ip';
  value: string;
}

/** An RFC 7807 problem document as the CA sends it. */
export interface AcmeProblemDocument {
  type?: string;
  detail?: string;
  status?: number;
  identifier?: AcmeIdentifier;
  subproblems?: AcmeProblemDocument[];
}

export interface AcmeEab {
  kid: string;
  /** base64url, as the CA shows it. */
  hmacKey: string;
}

export interface AcmeAccountInfo {
  url: string;
  status: 'valid' | 'deactivated' | 'revoked';
  contact?: string[];
  /** false when the CA answered 200 (the key was registered already). */
  created: boolean;
}

export type AcmeOrderStatus = 'pending' | 'ready' | 'processing' | 'valid' | 'invalid';

export interface AcmeOrder {
  url: string;
  status: AcmeOrderStatus;
  expires?: string;
  identifiers: AcmeIdentifier[];
  authorizations: string[];
  finalize: string;
  certificate?: string;
  error?: AcmeProblemDocument;
  replaces?: string;
}

export type AcmeAuthorizationStatus = 'pending' | 'valid' | 'invalid' | 'deactivated' | 'expired' | 'revoked';

export interface AcmeChallenge {
  type: string;
  url: string;
  status: 'pending' | 'processing' | 'valid' | 'invalid';
  token: string;
  validated?: string;
  error?: AcmeProblemDocument;
}

export interface AcmeAuthorization {
  url: string;
  status: AcmeAuthorizationStatus;
  identifier: AcmeIdentifier;
  challenges: AcmeChallenge[];
  wildcard?: boolean;
  expires?: string;
}

/** A downloaded chain: leaf first, then the intermediates; URLs of the CA's other chains. */
export interface AcmeCertificateChain {
  pem: string;
  alternates: string[];
}

/** RFC 9773: when the CA suggests renewing, and when to ask again. */
export interface AcmeRenewalInfo {
  certId: string;
  window: { start: Date; end: Date };
  explanationUrl?: string;
  /** Seconds until the CA wants to be asked again (Retry-After), if it said. */
  retryAfterSeconds?: number;
}

/** The step a call belongs to, for timeouts and unreachable CAs in the failure reason. */
export type AcmeStep =
  | 'directory'
  | 'nonce'
  | 'account'
  | 'order'
  | 'authorization'
  | 'challenge'
  | 'poll'
  | 'finalize'
  | 'download'
  | 'revoke'
  | 'renewalInfo';

export interface AcmePollOptions {
  /** Give up after this long (default 120 s). */
  timeoutMs?: number;
  /** First wait between two polls (default 250 ms), doubled each time up to `maxIntervalMs`. */
  intervalMs?: number;
  /** Longest wait between two polls, also when Retry-After asks for more (default 10 s). */
  maxIntervalMs?: number;
}

/** An order runner's view of a failure: a reason code of the shared contract and its params. */
export interface AcmeReason {
  code: AcmeReasonCode;
  params: Record<string, unknown>;
}

/** The client (client.ts `AcmeClient` implements it). */
export interface AcmeClientApi {
  readonly accountUrl: string | undefined;
  directory(): Promise<AcmeDirectory>;
  /** newAccount with termsOfServiceAgreed (and EAB when given); an existing key answers its URL. */
  register(o: { email?: string; eab?: AcmeEab }): Promise<AcmeAccountInfo>;
  /** newAccount with onlyReturnExisting; undefined when the CA knows no account for the key. */
  lookup(): Promise<AcmeAccountInfo | undefined>;
  newOrder(identifiers: readonly AcmeIdentifier[], o?: { replaces?: string }): Promise<AcmeOrder>;
  order(url: string): Promise<AcmeOrder>;
  authorization(url: string): Promise<AcmeAuthorization>;
  /** Tells the CA the challenge can be validated now. */
  challengeReady(url: string): Promise<AcmeChallenge>;
  /** POST-as-GET `url` until `until(resource)` holds; honours Retry-After within the bounds. */
  poll<T extends object>(url: string, until: (resource: T) => boolean, o?: AcmePollOptions): Promise<T>;
  /** Sends the CSR (DER); the order as answered (often `processing`: poll it until `valid`). */
  finalize(order: AcmeOrder, csrDer: Buffer): Promise<AcmeOrder>;
  downloadCertificate(url: string): Promise<AcmeCertificateChain>;
  /** Revokes the leaf of `certPem`, signed with the account key; reason per RFC 5280. */
  revoke(certPem: string, reason?: number): Promise<void>;
  /** RFC 9773 renewal information for the leaf of `certPem`; undefined when the CA has no ARI. */
  renewalInfo(certPem: string): Promise<AcmeRenewalInfo | undefined>;
  /** token + '.' + the account key's thumbprint (HTTP-01's body). */
  keyAuthorization(token: string): string;
  /** base64url(SHA-256(key authorisation)) (DNS-01's TXT value). */
  dns01Value(token: string): string;
  /** Closes the client's connections. */
  close(): Promise<void>;
}
