// A web service rule's "custom config" (spec §3): free text in the nginx style the ancestor took
// (`proxy_set_header`, `proxy_hide_header`, `add_header`), one directive per line, `;` at the end
// optional, `#` starts a comment, values with spaces in "double" or 'single' quotes. The form and
// the server read it with this one parser: a directive it does not know is refused with its line,
// never silently ignored. Variables (`$host`) are not expanded, so they are refused as well.
import { isSecretName, looksLikeToken, type SecretPiece } from './secretText.js';

/** What the directives do, merged into the service's own header settings by the runtime. */
export interface CustomConfig {
  /** Set on the request to the back end, after the forwarded headers (last wins). */
  requestHeaders: { name: string; value: string }[];
  /** Left out of the request to the back end (`proxy_set_header Name ""`), lower case. */
  dropRequestHeaders: string[];
  /** Added to every answer. */
  responseHeaders: { name: string; value: string }[];
  /** Left out of the back end's answer, lower case. */
  hideHeaders: string[];
}

export const CUSTOM_CONFIG_DIRECTIVES = ['proxy_set_header', 'proxy_hide_header', 'add_header'] as const;
export const CUSTOM_CONFIG_LIMITS = { chars: 16384, directives: 128 } as const;

export type CustomConfigCode =
  | 'customConfigUnknown'
  | 'customConfigArgs'
  | 'customConfigHeader'
  | 'customConfigVariable'
  | 'customConfigSyntax';

export interface CustomConfigProblem {
  code: CustomConfigCode;
  /** 1-based line. */
  line: number;
  /** The directive, header name or value at fault. */
  token: string;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** The framing and hop-by-hop fields are the proxy's own (issue 12 §1); they cannot be set or hidden. */
const RESERVED = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
]);
const VARIABLE = /\$(\{?[A-Za-z_])/;

interface Word {
  /** The word, quotes removed and `\x` escapes read. */
  text: string;
  quoted: boolean;
  /** Where its raw text (inside the quotes) starts and ends in the line. */
  start: number;
  end: number;
}

/** The words of one line: quoted strings keep their spaces; `#` outside quotes ends the line. */
function words(line: string): Word[] | undefined {
  const out: Word[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '#') break;
    if (c === '"' || c === "'") {
      let text = '';
      let j = i + 1;
      for (; j < line.length && line[j] !== c; j++) {
        if (line[j] === '\\' && j + 1 < line.length) j++;
        text += line[j];
      }
      if (j >= line.length) return undefined;
      out.push({ text, quoted: true, start: i + 1, end: j });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < line.length && !/[\s#"']/.test(line[j])) j++;
    out.push({ text: line.slice(i, j), quoted: false, start: i, end: j });
    i = j;
  }
  // The statement's `;`: alone or at the end of the last word.
  const last = out[out.length - 1];
  if (last && !last.quoted && last.text === ';') out.pop();
  else if (last && !last.quoted && last.text.endsWith(';'))
    out[out.length - 1] = { ...last, text: last.text.slice(0, -1), end: last.end - 1 };
  return out;
}

export type CustomConfigResult = { ok: true; config: CustomConfig } | { ok: false; problem: CustomConfigProblem };

export function parseCustomConfig(text: string): CustomConfigResult {
  const config: CustomConfig = { requestHeaders: [], dropRequestHeaders: [], responseHeaders: [], hideHeaders: [] };
  const fail = (code: CustomConfigCode, line: number, token: string): CustomConfigResult => ({
    ok: false,
    problem: { code, line, token },
  });
  const lines = (text ?? '').split(/\r?\n/);
  let count = 0;
  for (let n = 0; n < lines.length; n++) {
    const line = n + 1;
    const w = words(lines[n]);
    if (!w) return fail('customConfigSyntax', line, lines[n].trim());
    if (w.length === 0) continue;
    const [directive, ...args] = w.map((x) => x.text);
    if (!(CUSTOM_CONFIG_DIRECTIVES as readonly string[]).includes(directive))
      return fail('customConfigUnknown', line, directive);
    if (++count > CUSTOM_CONFIG_LIMITS.directives) return fail('customConfigArgs', line, directive);
    const wanted = directive === 'proxy_hide_header' ? [1] : directive === 'add_header' ? [2, 3] : [2];
    if (!wanted.includes(args.length)) return fail('customConfigArgs', line, directive);
    const [name, value = '', flag] = args;
    if (!HEADER_NAME.test(name) || RESERVED.has(name.toLowerCase())) return fail('customConfigHeader', line, name);
    if (flag !== undefined && flag !== 'always') return fail('customConfigArgs', line, directive);
    if (VARIABLE.test(value)) return fail('customConfigVariable', line, value);
    // A value never carries a line break or NUL (it would split the head).
    if (/[\0\r\n]/.test(value)) return fail('customConfigSyntax', line, value);
    if (directive === 'proxy_set_header') {
      if (value === '') config.dropRequestHeaders.push(name.toLowerCase());
      else config.requestHeaders.push({ name, value });
    } else if (directive === 'proxy_hide_header') config.hideHeaders.push(name.toLowerCase());
    else config.responseHeaders.push({ name, value });
  }
  return { ok: true, config };
}

/** How many directives the text holds (0 when empty or refused): the rule card shows it. */
export function customConfigCount(text: string): number {
  const r = parseCustomConfig(text);
  if (!r.ok) return 0;
  const c = r.config;
  return c.requestHeaders.length + c.dropRequestHeaders.length + c.responseHeaders.length + c.hideHeaders.length;
}

/**
 * The text cut into secret and plain pieces (secretText.ts's rule): the value of a
 * `proxy_set_header` / `add_header` line is secret when its header name is (Authorization,
 * Cookie, *token*, *key* …) or it looks like a token; `Bearer`-style scheme words stay readable.
 * A read shows it through `maskPieces`, a write puts the stored secrets back with `restorePieces`.
 */
export function customConfigPieces(text: string): SecretPiece[] {
  const out: SecretPiece[] = [];
  const add = (t: string, secret = false) => {
    if (t === '') return;
    const last = out[out.length - 1];
    if (last && !last.secret && !secret) last.text += t;
    else out.push({ text: t, secret });
  };
  const lines = (text ?? '').split(/(\r?\n)/);
  for (const line of lines) {
    const w = /\r?\n/.test(line) ? undefined : words(line);
    const value = w && (w[0]?.text === 'proxy_set_header' || w[0]?.text === 'add_header') ? w[2] : undefined;
    if (!w || !value) {
      add(line);
      continue;
    }
    const raw = line.slice(value.start, value.end);
    const scheme = /^(basic|bearer|digest|token|bot|key)\s+(?=\S)/i.exec(raw)?.[0] ?? '';
    const secret = isSecretName(w[1].text) || looksLikeToken(raw.slice(scheme.length));
    add(line.slice(0, value.start + scheme.length));
    add(raw.slice(scheme.length), secret);
    add(line.slice(value.end));
  }
  return out;
}
