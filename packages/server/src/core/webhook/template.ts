// Request templates (webhooks of every module, DDNS's callback): `#{name}` variables escaped for
// where they land — a URL gets percent-encoding, a JSON body gets JSON string escapes (so a
// multi-line value arrives as a real newline once the receiver parses the JSON — the ancestor
// inserted the two characters backslash-n instead), a form body gets form encoding, a header gets
// one line — the request built from the template, and the success test of its answer. The
// variables are the caller's (DDNS: #{ipAddr} …; STUN: its own).

export type TemplateVars = Record<string, string>;
export type TemplatePlace = 'url' | 'json' | 'form' | 'text' | 'header';

const VAR = /#\{([A-Za-z0-9_.-]+)\}/g;

const pad = (n: number) => String(n).padStart(2, '0');
/** Local time of the program as `YYYY-MM-DD hh:mm:ss` (the usual `#{time}`: a message for humans). */
export function localTime(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Unknown variables stay as written, so a typo is visible in the result. */
export function fillTemplateVars(template: string, vars: TemplateVars, place: TemplatePlace): string {
  return template.replace(VAR, (whole, name: string) => {
    const v = vars[name];
    if (v === undefined) return whole;
    switch (place) {
      case 'url':
        return encodeURIComponent(v);
      case 'json':
        return JSON.stringify(v).slice(1, -1);
      case 'form':
        return encodeURIComponent(v).replace(/%20/g, '+');
      case 'header':
        return v.replace(/\r?\n/g, ', ').replace(/[\r\0]/g, '');
      default:
        return v;
    }
  });
}

/** A body template is JSON when it parses with every variable taken as an empty string. */
export function isJsonTemplate(body: string): boolean {
  const t = body.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return false;
  try {
    JSON.parse(t.replace(VAR, ''));
    return true;
  } catch {
    return false;
  }
}

export interface BuiltRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Builds the HTTP request of a webhook or callback template. Header lines are `Name:Value`
 * (split at the first colon); `BasicAuthUserName:` and `BasicAuthPassword:` become an
 * Authorization header instead of being sent. The body (not for GET) is JSON when the
 * template is JSON, else a form body unless the user set another Content-Type.
 */
export function buildTemplateRequest(
  t: { method: string; url: string; headers: string[]; body: string },
  vars: TemplateVars,
): BuiltRequest {
  const headers: Record<string, string> = {};
  let basicUser: string | undefined;
  let basicPass: string | undefined;
  for (const line of t.headers) {
    const i = line.indexOf(':');
    if (i < 1) continue;
    const name = line.slice(0, i).trim();
    const value = fillTemplateVars(line.slice(i + 1).trim(), vars, 'header');
    if (name === 'BasicAuthUserName') basicUser = value;
    else if (name === 'BasicAuthPassword') basicPass = value;
    else if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) headers[name.toLowerCase()] = value;
  }
  if (basicUser !== undefined || basicPass !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${basicUser ?? ''}:${basicPass ?? ''}`).toString('base64')}`;
  }
  const method = (t.method || 'GET').toUpperCase();
  const url = fillTemplateVars(t.url, vars, 'url');
  if (method === 'GET' || t.body === '') return { method, url, headers };
  let body: string;
  if (isJsonTemplate(t.body)) {
    body = fillTemplateVars(t.body, vars, 'json');
    headers['content-type'] ??= 'application/json';
  } else if (headers['content-type'] && !headers['content-type'].includes('x-www-form-urlencoded')) {
    body = fillTemplateVars(t.body, vars, 'text');
  } else {
    body = fillTemplateVars(t.body, vars, 'form');
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  return { method, url, headers, body };
}

/** Success test of the ancestor, minus its trap: an empty list with the check on is refused at save time. */
export function isSuccessAnswer(
  res: { status: number; text: string },
  successStrings: string[],
  disableCheck: boolean,
  vars: TemplateVars,
): boolean {
  if (res.status < 200 || res.status >= 300) return false;
  if (disableCheck) return true;
  return successStrings.filter((s) => s !== '').some((s) => res.text.includes(fillTemplateVars(s, vars, 'text')));
}
