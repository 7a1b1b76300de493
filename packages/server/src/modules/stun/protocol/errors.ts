// Every failure of the STUN client is a StunError: a stable code the module turns into a coded
// reason or log line (code + params + English, docs/adding-a-module.md), and the English text.
// Nothing in protocol/ throws anything else on bad input or a bad peer.

export type StunErrorCode =
  /** Not a STUN message at all (top bits, magic cookie). */
  | 'notStun'
  /** Shorter than its header or its declared length. */
  | 'truncated'
  /** Declared length not a multiple of 4, or not the size of the packet. */
  | 'badLength'
  /** An attribute runs past the end of the message, or its value is malformed. */
  | 'badAttribute'
  /** FINGERPRINT present but wrong, or not the last attribute. */
  | 'badFingerprint'
  /** A comprehension-required attribute this client does not know (RFC 8489 §6.3.3: fail). */
  | 'unknownAttribute'
  /** A request or indication, or another method than Binding, where a Binding answer was due. */
  | 'notResponse'
  /** The answer's transaction id is not the one asked. */
  | 'wrongTransaction'
  /** A success answer without XOR-MAPPED-ADDRESS or MAPPED-ADDRESS. */
  | 'noMappedAddress'
  /** The server answered with an error response (params: status, reason). */
  | 'errorResponse'
  /** No answer within the retransmission schedule / the TCP time-out. */
  | 'timeout'
  /** Answers came, but none could be accepted (params: reason = the last one's code). */
  | 'invalidAnswer'
  /** The caller's AbortSignal fired. */
  | 'aborted'
  /** The channel or connection was closed while the request was pending. */
  | 'closed'
  /** The socket reported an error (params: error). */
  | 'socketError'
  /** Sending failed (params: error). */
  | 'sendFailed'
  /** A message over TCP declared more than the client accepts. */
  | 'tooLarge'
  /** A server list entry is not host[:port]. */
  | 'badServer'
  /** A server list entry is an IPv6 address (not supported yet). */
  | 'ipv6NotSupported'
  /** The server's name did not resolve to an IPv4 address (params: host, error). */
  | 'resolveFailed'
  /** Every server of the list failed (params: errors). */
  | 'allServersFailed'
  /** The server list is empty. */
  | 'noServers'
  /** Anything else a caller's attempt threw (params: error). */
  | 'failed';

export class StunError extends Error {
  constructor(
    readonly code: StunErrorCode,
    message: string,
    readonly params: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'StunError';
  }
}

/** Any thrown value as a StunError (a caller's own errors keep their message under 'failed'). */
export function toStunError(err: unknown): StunError {
  if (err instanceof StunError) return err;
  const e = err as NodeJS.ErrnoException | undefined;
  const text = e?.message ?? String(err);
  return new StunError('failed', text, { error: e?.code ?? text });
}
