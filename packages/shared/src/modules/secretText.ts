// Which parts of a free-text setting are secret: URLs (userinfo, token-like path segments,
// query values), `Name:Value` header lines and request bodies. A read shows the text with each
// secret part replaced by SECRET_MASK, so the rest stays readable (scheme, host, path, the
// names); a write that sends that text back gets the stored secrets put back in place.
//
// The rule (docs/SECURITY.md):
// - a name is secret when, lower-cased without punctuation, it contains authorization, cookie,
//   token, key, secret, passw, pwd, credential, signature or session, or is auth / pass / sig /
//   sign / sk;
// - a value is secret when its name is, or when it looks like a token: at least 16 characters
//   of [A-Za-z0-9_-:+=~%] with a letter and a digit (API keys, webhook ids, UUIDs, hashes);
//   a `#{variable}` template is never a secret;
// - URL: the password of the userinfo (or the whole userinfo when it has no `:`), token-like
//   path segments (or their `.`-separated pieces), query / form values by the two rules above;
// - header line `Name:Value`: the value when the name is secret or the value looks like a token;
// - body: JSON string members `"name":"value"` and form fields `name=value`, by the two rules.

/** Sent back in place of a stored secret; sending it again keeps the stored value. */
export const SECRET_MASK = '******';

/** A text cut into pieces; `secret` pieces are what a read must not show. */
export interface SecretPiece {
  text: string;
  secret: boolean;
}

const SECRET_WORDS = /authorization|cookie|token|key|secret|passw|pwd|credential|signature|session/;
const SECRET_NAMES = new Set(['auth', 'pass', 'sig', 'sign', 'sk']);

/** True for names of headers, query parameters and body members that carry secrets. */
export function isSecretName(name: string): boolean {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_WORDS.test(n) || SECRET_NAMES.has(n);
}

const TOKEN_CHARS = /^[A-Za-z0-9_\-:+=~%]{16,}$/;
/** A long run of token characters with a letter and a digit (not a word, host or date). */
export function looksLikeToken(s: string): boolean {
  return TOKEN_CHARS.test(s) && /[A-Za-z]/.test(s) && /[0-9]/.test(s);
}

const isTemplate = (v: string) => /^(#\{\w+\})+$/.test(v);

function push(out: SecretPiece[], text: string, secret = false): void {
  if (text === '') return;
  // An empty or template value has nothing to hide; neighbours of the same kind merge.
  const s = secret && !isTemplate(text);
  const last = out[out.length - 1];
  if (last && last.secret === s && !s) last.text += text;
  else out.push({ text, secret: s });
}

/** `a=1&token=x`: each value secret by its name or its shape. */
function pushParams(out: SecretPiece[], params: string, sep: string): void {
  params.split(sep).forEach((pair, i) => {
    if (i > 0) push(out, sep);
    const eq = pair.indexOf('=');
    if (eq < 0) {
      push(out, pair, looksLikeToken(pair));
      return;
    }
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    push(out, `${name}=`);
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // keep the raw name
    }
    push(out, value, isSecretName(decoded) || looksLikeToken(value));
  });
}

/** A path segment: token-like `.`-separated pieces are secret (`/<key>.send`). */
function pushSegment(out: SecretPiece[], seg: string): void {
  seg.split('.').forEach((piece, i) => {
    if (i > 0) push(out, '.');
    push(out, piece, looksLikeToken(piece));
  });
}

const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)?([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/is;

/** Pieces of a URL (or URL template); text that is not a URL is one readable piece. */
export function urlPieces(url: string): SecretPiece[] {
  const out: SecretPiece[] = [];
  const m = URL_PARTS.exec(url);
  if (!m) {
    push(out, url);
    return out;
  }
  const [, scheme, userinfo, host, path, query, fragment] = m;
  push(out, scheme);
  if (userinfo) {
    const info = userinfo.slice(0, -1);
    const colon = info.indexOf(':');
    if (colon < 0) push(out, info, true);
    else {
      push(out, info.slice(0, colon + 1));
      push(out, info.slice(colon + 1), true);
    }
    push(out, '@');
  }
  push(out, host);
  path.split('/').forEach((seg, i) => {
    if (i > 0) push(out, '/');
    pushSegment(out, seg);
  });
  if (query) {
    push(out, '?');
    pushParams(out, query.slice(1), '&');
  }
  if (fragment) push(out, fragment);
  return out;
}

/** Pieces of a `Name:Value` header line (the value after optional spaces). */
export function headerPieces(line: string): SecretPiece[] {
  const out: SecretPiece[] = [];
  const colon = line.indexOf(':');
  if (colon < 1) {
    push(out, line);
    return out;
  }
  const name = line.slice(0, colon);
  const rest = line.slice(colon + 1);
  const value = rest.trimStart();
  push(out, line.slice(0, colon + 1 + rest.length - value.length));
  // `Authorization: Bearer x` shows its scheme word.
  const scheme = /^(basic|bearer|digest|token|bot|key)\s+(?=\S)/i.exec(value)?.[0] ?? '';
  push(out, scheme);
  const v = value.slice(scheme.length);
  push(out, v, isSecretName(name) || looksLikeToken(v));
  return out;
}

const JSON_MEMBER = /"((?:[^"\\]|\\.)*)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;

/** Pieces of a request body: JSON string members, else form fields. */
export function bodyPieces(body: string): SecretPiece[] {
  const out: SecretPiece[] = [];
  const t = body.trimStart();
  if (t.startsWith('{') || t.startsWith('[')) {
    let at = 0;
    for (const m of body.matchAll(JSON_MEMBER)) {
      const start = m.index;
      const valueAt = start + 1 + m[1].length + 1 + m[2].length + 1;
      push(out, body.slice(at, valueAt));
      push(out, m[3], isSecretName(m[1]) || looksLikeToken(m[3]));
      at = valueAt + m[3].length;
    }
    push(out, body.slice(at));
    return out;
  }
  pushParams(out, body, '&');
  return out;
}

/** The pieces joined, secret ones as SECRET_MASK. */
export function maskPieces(pieces: readonly SecretPiece[]): string {
  let s = '';
  for (const p of pieces) s += p.secret ? SECRET_MASK : p.text;
  return s;
}

/** The secret parts alone (for scrubbing log lines). */
export function secretParts(pieces: readonly SecretPiece[]): string[] {
  return pieces.filter((p) => p.secret).map((p) => p.text);
}

/**
 * What a write means by `incoming` when the stored text is cut into `stored`: text without
 * SECRET_MASK replaces; the masked read itself keeps the stored text; an edited text keeps
 * the stored secrets in the places that still show SECRET_MASK, in order. `undefined` when the
 * masks cannot be matched (more masks than stored secrets): the caller refuses the field.
 */
export function restorePieces(incoming: string, stored: readonly SecretPiece[]): string | undefined {
  if (!incoming.includes(SECRET_MASK)) return incoming;
  if (incoming === maskPieces(stored)) return stored.map((p) => p.text).join('');
  const secrets = secretParts(stored);
  const parts = incoming.split(SECRET_MASK);
  if (parts.length - 1 !== secrets.length) return undefined;
  let out = parts[0];
  for (let i = 1; i < parts.length; i++) out += secrets[i - 1] + parts[i];
  return out;
}

/** scheme://host:port of a URL (lower-cased), '' when it is not one. */
export function urlOrigin(url: string): string {
  const m = URL_PARTS.exec(url);
  return m ? `${m[1]}${m[3]}`.toLowerCase() : '';
}
