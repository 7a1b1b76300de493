// Calls to another console: the relay (`POST <url>/api/wol/relay`, it sends the packets on its
// LAN) and the agent shutdown (`POST <url>/api/wol/agent/shutdown`). Both use the other
// console's own API with one of its API tokens; a refusal carries its status and code.
import type { CodedText, WolReasonCode } from '@lucky/shared';
import { wolReason } from '@lucky/shared';
import type { HttpClients } from '../../core/outbound/client.js';

export class RemoteError extends Error {
  constructor(readonly reason: CodedText) {
    super(reason.text);
  }
}

/** The console's base URL joined with an API path (a safe entrance in the URL is kept). */
const join = (base: string, path: string) => base.replace(/\/+$/, '') + path;

/**
 * POST a JSON body to the other console and answer its JSON; `unreachable` / `refused` are the
 * reason codes of a failed connection and of an answer that is not `ret: 0`.
 */
export async function callConsole<T>(
  http: HttpClients,
  remote: { url: string; token: string },
  path: string,
  body: unknown,
  codes: { unreachable: WolReasonCode; refused: WolReasonCode },
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<T> {
  let res: Awaited<ReturnType<HttpClients['request']>>;
  try {
    res = await http.request(
      { verify: true },
      {
        method: 'POST',
        url: join(remote.url, path),
        headers: { authorization: remote.token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        timeoutMs,
        signal,
        maxBytes: 64 * 1024,
      },
    );
  } catch (err) {
    throw new RemoteError(wolReason(codes.unreachable, { url: remote.url, detail: (err as Error).message }));
  }
  let json: { ret?: number; msg?: string; code?: string } | undefined;
  try {
    json = JSON.parse(res.text);
  } catch {
    json = undefined;
  }
  if (res.status !== 200 || json?.ret !== 0) {
    const detail = json?.msg ?? res.text.slice(0, 200);
    throw new RemoteError(wolReason(codes.refused, { url: remote.url, status: res.status, detail }));
  }
  return json as T;
}
