// The share link's own small page: self-contained HTML (inline CSS, no script, no external
// resource, no SPA bundle), in Chinese or English after Accept-Language, with its words in the
// table below (server-side, not the web locale files: this page never loads the UI).
// Every name from the storage goes through `esc` — a file called `<img onerror=…>` is text.

export type PageLang = 'zh' | 'en';

const WORDS = {
  zh: {
    title: '分享',
    notFound: '链接不存在或已失效',
    notFoundText: '这个分享链接不存在、已过期、已达下载次数上限或已被取消。',
    badRequest: '无效的地址',
    badRequestText: '这个地址不是分享里的有效路径。',
    password: '需要密码',
    passwordText: '请输入分享者提供的密码。',
    passwordLabel: '密码',
    open: '打开',
    wrong: '密码错误。',
    locked: '尝试次数过多，请 {minutes} 分钟后再试。',
    busy: '服务器正忙，请稍后再试。',
    download: '下载',
    downloadAll: '全部下载（zip）',
    name: '名称',
    size: '大小',
    modified: '修改时间',
    up: '上一级',
    empty: '空文件夹',
    expires: '有效期至 {time}',
    failed: '无法读取：{detail}',
  },
  en: {
    title: 'Shared',
    notFound: 'Link not found',
    notFoundText: 'This share link does not exist, has expired, reached its download limit or was removed.',
    badRequest: 'Bad address',
    badRequestText: 'This address is not a valid path inside the share.',
    password: 'Password required',
    passwordText: 'Enter the password you were given with the link.',
    passwordLabel: 'Password',
    open: 'Open',
    wrong: 'Wrong password.',
    locked: 'Too many attempts. Try again in {minutes} minutes.',
    busy: 'The server is busy. Try again in a moment.',
    download: 'Download',
    downloadAll: 'Download all (zip)',
    name: 'Name',
    size: 'Size',
    modified: 'Modified',
    up: 'Up',
    empty: 'Empty folder',
    expires: 'Available until {time}',
    failed: 'Cannot be read: {detail}',
  },
} as const;
export type PageWord = keyof (typeof WORDS)['en'];

/** The page's language: the first of zh / en by the client's preference (q values), else Chinese. */
export function pageLang(acceptLanguage: string | undefined): PageLang {
  let best: { lang: PageLang; q: number } | undefined;
  for (const part of String(acceptLanguage ?? '')
    .slice(0, 512)
    .split(',')) {
    const [tag, ...params] = part.trim().toLowerCase().split(';');
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qp ? Number(qp.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    const lang = tag.startsWith('zh') ? 'zh' : tag.startsWith('en') ? 'en' : undefined;
    if (lang && (!best || q > best.q)) best = { lang, q };
  }
  return best?.lang ?? 'zh';
}

export function word(lang: PageLang, key: PageWord, params: Record<string, string | number> = {}): string {
  return WORDS[lang][key].replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/** HTML text and attribute escaping. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Bytes as the console shows them (base 1000, 3 significant digits). */
export function formatSize(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB', 'PB'];
  let v = n;
  let i = -1;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v >= 100 ? Math.round(v) : v.toPrecision(3)} ${units[i]}`;
}

const formatTime = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

/** The page's Content-Security-Policy: nothing but its own inline style and images of this origin. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;margin:0;background:#f5f6f8;color:#1f2329}
main{max-width:960px;margin:0 auto;padding:24px 16px}
.card{background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:20px}
h1{font-size:20px;margin:0 0 12px;word-break:break-all}
p.muted,.muted{color:#646a73;font-size:13px}
a{color:#1677ff;text-decoration:none}a:hover{text-decoration:underline}
a.button,button{display:inline-block;background:#1677ff;color:#fff;border:0;border-radius:6px;padding:8px 18px;font-size:15px;cursor:pointer}
input{font-size:15px;padding:7px 10px;border:1px solid #d0d3d6;border-radius:6px;width:100%;max-width:320px;box-sizing:border-box}
table{width:100%;border-collapse:collapse}th,td{text-align:left;padding:8px 6px;border-bottom:1px solid #eef0f2;word-break:break-all}
th{color:#646a73;font-weight:500;font-size:13px}td.n{white-space:nowrap;color:#646a73;font-size:13px}
img.preview{max-width:100%;max-height:70vh;display:block;margin:16px 0;border-radius:4px}
.err{color:#d4380d}
@media (prefers-color-scheme:dark){body{background:#141414;color:#e6e6e6}.card{background:#1f1f1f}th,td{border-color:#303030}input{background:#141414;color:#e6e6e6;border-color:#434343}}
@media (max-width:600px){td.n.m{display:none}th.m{display:none}}
`;

/** The whole document around `body` (already escaped HTML). */
export function layout(lang: PageLang, title: string, body: string): string {
  return `<!doctype html><html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><meta name="robots" content="noindex,nofollow"><title>${esc(title)}</title><style>${STYLE}</style></head><body><main><div class="card">${body}</div></main></body></html>`;
}

/** The same page for an unknown, expired, exhausted, disabled or removed link. */
export function notFoundPage(lang: PageLang): string {
  return layout(
    lang,
    word(lang, 'notFound'),
    `<h1>${esc(word(lang, 'notFound'))}</h1><p class="muted">${esc(word(lang, 'notFoundText'))}</p>`,
  );
}

export function badRequestPage(lang: PageLang): string {
  return layout(
    lang,
    word(lang, 'badRequest'),
    `<h1>${esc(word(lang, 'badRequest'))}</h1><p class="muted">${esc(word(lang, 'badRequestText'))}</p>`,
  );
}

export function passwordPage(lang: PageLang, action: string, error?: string): string {
  const err = error ? `<p class="err">${esc(error)}</p>` : '';
  return layout(
    lang,
    word(lang, 'password'),
    `<h1>${esc(word(lang, 'password'))}</h1><p class="muted">${esc(word(lang, 'passwordText'))}</p>${err}` +
      `<form method="post" action="${esc(action)}"><p><label>${esc(word(lang, 'passwordLabel'))}<br>` +
      `<input type="password" name="password" autocomplete="current-password" autofocus required maxlength="128"></label></p>` +
      `<p><button type="submit">${esc(word(lang, 'open'))}</button></p></form>`,
  );
}

export interface FilePageInput {
  name: string;
  size: number;
  mtimeMs: number;
  download: string;
  /** The URL of an inline image preview (only for images, and only without a download limit). */
  preview?: string;
  expiresAt: number;
}

export function filePage(lang: PageLang, f: FilePageInput): string {
  const preview = f.preview ? `<img class="preview" src="${esc(f.preview)}" alt="${esc(f.name)}">` : '';
  return layout(
    lang,
    f.name,
    `<h1>${esc(f.name)}</h1><p class="muted">${esc(formatSize(f.size))} · ${esc(formatTime(f.mtimeMs))}${expiry(lang, f.expiresAt)}</p>` +
      `${preview}<p><a class="button" href="${esc(f.download)}" download>${esc(word(lang, 'download'))}</a></p>`,
  );
}

export interface FolderRow {
  name: string;
  kind: 'file' | 'dir';
  size: number;
  mtimeMs: number;
  href: string;
}

export interface FolderPageInput {
  title: string;
  /** Where the folder sits inside the share ('/' at its top). */
  where: string;
  up?: string;
  zip: string;
  rows: FolderRow[];
  expiresAt: number;
}

export function folderPage(lang: PageLang, f: FolderPageInput): string {
  const rows = f.rows
    .map(
      (r) =>
        `<tr><td><a href="${esc(r.href)}">${r.kind === 'dir' ? '📁 ' : ''}${esc(r.name)}${r.kind === 'dir' ? '/' : ''}</a></td>` +
        `<td class="n">${r.kind === 'dir' ? '' : esc(formatSize(r.size))}</td><td class="n m">${esc(formatTime(r.mtimeMs))}</td></tr>`,
    )
    .join('');
  const up = f.up ? `<p><a href="${esc(f.up)}">↑ ${esc(word(lang, 'up'))}</a></p>` : '';
  const table = f.rows.length
    ? `<table><thead><tr><th>${esc(word(lang, 'name'))}</th><th>${esc(word(lang, 'size'))}</th><th class="m">${esc(word(lang, 'modified'))}</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p class="muted">${esc(word(lang, 'empty'))}</p>`;
  return layout(
    lang,
    f.title,
    `<h1>${esc(f.title)}</h1><p class="muted">${esc(f.where)}${expiry(lang, f.expiresAt)}</p>` +
      `<p><a class="button" href="${esc(f.zip)}">${esc(word(lang, 'downloadAll'))}</a></p>${up}${table}`,
  );
}

const expiry = (lang: PageLang, at: number): string =>
  at > 0 ? ` · ${esc(word(lang, 'expires', { time: `${formatTime(at)} UTC` }))}` : '';
