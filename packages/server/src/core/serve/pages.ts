import type { ServeResponse } from './request.js';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Authorization Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  416: 'Range Not Satisfiable',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  504: 'Gateway Timeout',
};

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** A small HTML page with the status: rejections are never an empty 200 (ancestor bug §6.7). */
export function sendPage(
  res: ServeResponse,
  status: number,
  detail = '',
  headers: Record<string, string> = {},
  head = false,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const title = `${status} ${TITLES[status] ?? 'Error'}`;
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif;text-align:center;padding-top:10vh"><h1>${title}</h1>${detail ? `<p>${esc(detail)}</p>` : ''}<hr><small>Lucky</small></body></html>\n`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    ...headers,
  });
  if (head) res.end();
  else res.end(body);
}
