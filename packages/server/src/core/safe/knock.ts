// The knock URL: `GET /knock/<path>` on the admin listener puts its caller's address on the allow
// list for `knock.hours` (an entry with source `knock`, refreshed by a later knock). With a
// password the GET shows a small form and the POST checks it like a login guess: counted per
// address before the scrypt run (its own LoginThrottle), hashed through the login's fair gate, a
// wrong one an auto-ban failure (`knock`). An unknown path, or knock switched off, answers the
// same 404 as any unknown page. The page is self-contained (no script, strict CSP), zh or en.
import { createHash, timingSafeEqual } from 'node:crypto';
import { SAFE_LIMITS, type SafeConfig, type SafeEntry } from '@lucky/shared';
import type { FastifyReply } from 'fastify';
import { GateFullError } from '../auth/fairGate.js';
import { verifyPassword } from '../auth/password.js';
import { LoginThrottle } from '../auth/throttle.js';
import type { Core } from '../core.js';
import type { RouteRegistry } from '../http/registry.js';
import { canonicalIp } from '../net/lan.js';
import { banKeyOf } from './bans.js';
import { randomToken } from './edit.js';

export const KNOCK_PREFIX = '/knock/';

const WORDS = {
  zh: {
    title: '敲门',
    passwordText: '请输入密码，把你的地址加入允许列表。',
    passwordLabel: '密码',
    open: '确定',
    wrong: '密码错误。',
    locked: '尝试次数过多，请 {minutes} 分钟后再试。',
    busy: '服务器正忙，请稍后再试。',
    done: '你的地址 {ip} 已加入允许列表，有效期至 {until}（UTC）。',
    full: '允许列表已满，无法加入。',
  },
  en: {
    title: 'Knock',
    passwordText: 'Enter the password to put your address on the allow list.',
    passwordLabel: 'Password',
    open: 'OK',
    wrong: 'Wrong password.',
    locked: 'Too many attempts. Try again in {minutes} minutes.',
    busy: 'The server is busy. Try again in a moment.',
    done: 'Your address {ip} is on the allow list until {until} (UTC).',
    full: 'The allow list is full; your address could not be added.',
  },
} as const;
type Lang = keyof typeof WORDS;
type Word = keyof (typeof WORDS)['en'];

const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/** zh or en, whichever the client prefers more (q values); Chinese when it names neither. */
export function knockLang(acceptLanguage: string | undefined): Lang {
  let best: Lang | undefined;
  let bestQ = 0;
  for (const part of String(acceptLanguage ?? '')
    .slice(0, 512)
    .split(',')) {
    const [tag, ...params] = part.trim().toLowerCase().split(';');
    const q = Number(
      params
        .find((p) => p.trim().startsWith('q='))
        ?.trim()
        .slice(2) ?? 1,
    );
    const lang: Lang | undefined = tag.startsWith('zh') ? 'zh' : tag.startsWith('en') ? 'en' : undefined;
    if (lang && Number.isFinite(q) && q > bestQ) {
      best = lang;
      bestQ = q;
    }
  }
  return best ?? 'zh';
}

function say(lang: Lang, w: Word, params: Record<string, string | number> = {}): string {
  return WORDS[lang][w].replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(lang: Lang, body: string): string {
  return `<!doctype html><html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${esc(say(lang, 'title'))}</title><style>body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f5f6f8;color:#1f2329}main{max-width:420px;margin:64px auto;padding:24px;background:#fff;border-radius:8px}input{font-size:15px;padding:7px 10px;width:100%;box-sizing:border-box;margin:8px 0}button{background:#1677ff;color:#fff;border:0;border-radius:6px;padding:8px 18px;font-size:15px}.err{color:#d4380d}@media (prefers-color-scheme:dark){body{background:#141414;color:#e6e6e6}main{background:#1f1f1f}input{background:#141414;color:#e6e6e6}}</style></head><body><main>${body}</main></body></html>`;
}

function formPage(lang: Lang, error?: string): string {
  return page(
    lang,
    `<h1>${esc(say(lang, 'title'))}</h1><p>${esc(say(lang, 'passwordText'))}</p>${error ? `<p class="err">${esc(error)}</p>` : ''}<form method="post"><label>${esc(say(lang, 'passwordLabel'))}<input type="password" name="password" autocomplete="current-password" required autofocus maxlength="${SAFE_LIMITS.knockPassword.max}"></label><button type="submit">${esc(say(lang, 'open'))}</button></form>`,
  );
}

function send(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', CSP)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether `url` is the open knock URL of `cfg` (compared in constant time: the path is a secret). */
export function isKnockUrl(cfg: SafeConfig, url: string): boolean {
  if (!cfg.knock.enabled || cfg.knock.path === '' || !url.startsWith(KNOCK_PREFIX)) return false;
  const rest = url.slice(KNOCK_PREFIX.length).split('?')[0];
  return timingSafeEqual(digest(rest), digest(cfg.knock.path));
}

/**
 * What a knock puts on the list: an IPv4 client's address (IPv4-mapped IPv6 as IPv4), an IPv6
 * client's /64 — phones and laptops rotate their privacy address within it daily, and the /64 is
 * one subscriber's, as auto-ban counts it too (bans.ts banKeyOf).
 */
export function listedForm(ip: string): string {
  return banKeyOf(ip) ?? canonicalIp(ip);
}

/** Add or refresh the knock entry of `ip`; its expiry, or undefined when the list is full. */
async function knockIn(core: Core, ip: string): Promise<number | undefined> {
  const value = listedForm(ip);
  const now = core.safe.now();
  const until = now + core.store.get().safe.knock.hours * 3_600_000;
  let done = false;
  await core.store.update((d) => {
    const allow = d.safe.allow;
    const mine = allow.findIndex((e) => e.source === 'knock' && e.value === value);
    if (mine >= 0) {
      allow[mine] = { ...allow[mine], expiresAt: new Date(until).toISOString() };
      done = true;
      return;
    }
    // Full: an expired entry or the knock entry ending first makes room; never a manual one.
    if (allow.length >= SAFE_LIMITS.entries.max) {
      let drop = allow.findIndex((e) => e.expiresAt !== null && Date.parse(e.expiresAt) <= now);
      if (drop < 0) {
        const knocks = allow
          .map((e, i) => ({ e, i }))
          .filter(({ e }) => e.source === 'knock')
          .sort((a, b) => Date.parse(a.e.expiresAt ?? '') - Date.parse(b.e.expiresAt ?? ''));
        drop = knocks[0]?.i ?? -1;
      }
      if (drop < 0) return;
      allow.splice(drop, 1);
    }
    const keys = new Set(allow.map((e) => e.key));
    let key = randomToken(12);
    while (keys.has(key)) key = randomToken(12);
    const entry: SafeEntry = {
      key,
      value,
      comment: 'knock',
      expiresAt: new Date(until).toISOString(),
      source: 'knock',
      addedAt: new Date(now).toISOString(),
    };
    allow.push(entry);
    done = true;
  });
  if (!done) return undefined;
  core.safe.line('info', 'knocked', { ip: value, until: new Date(until).toISOString() });
  return until;
}

const notFoundPage = (reply: FastifyReply) => reply.code(404).type('text/plain').send('404 page not found');

export function registerKnockRoutes(r: RouteRegistry, core: Core): void {
  // Its own count of guesses (the login's settings): knock guesses do not lock the admin login.
  const throttle = new LoginThrottle(
    () => ({
      maxFailures: core.store.get().base.loginMaxFailures,
      lockMs: core.store.get().base.loginLockMinutes * 60_000,
    }),
    () => core.safe.now(),
  );

  const answered = async (reply: FastifyReply, ip: string, lang: Lang) => {
    const until = await knockIn(core, ip);
    if (until === undefined) return send(reply, 503, page(lang, `<p class="err">${esc(say(lang, 'full'))}</p>`));
    const when = new Date(until).toISOString().slice(0, 16).replace('T', ' ');
    return send(
      reply,
      200,
      page(
        lang,
        `<h1>${esc(say(lang, 'title'))}</h1><p>${esc(say(lang, 'done', { ip: listedForm(ip), until: when }))}</p>`,
      ),
    );
  };

  r.add({
    method: 'GET',
    path: '/knock/:path',
    access: 'public',
    raw: true,
    // Not in the audit log: anyone may call it, and a flood must not push the admin's own lines
    // out. What it changes is in the program log (`knocked`, `knockFailed`).
    audit: false,
    summary: 'Knock: put the caller on the allow list (or show the password form)',
    handler: async (req, reply, { clientIp }) => {
      const cfg = core.store.get().safe;
      if (!isKnockUrl(cfg, req.url)) return notFoundPage(reply);
      const lang = knockLang(req.headers['accept-language']);
      if (cfg.knock.passwordHash !== '') return send(reply, 200, formPage(lang));
      return answered(reply, clientIp, lang);
    },
  });

  r.add({
    method: 'POST',
    path: '/knock/:path',
    access: 'public',
    raw: true,
    audit: false,
    summary: 'Knock with the password (url-encoded form field `password`)',
    handler: async (req, reply, { clientIp }) => {
      const cfg = core.store.get().safe;
      if (!isKnockUrl(cfg, req.url)) return notFoundPage(reply);
      const lang = knockLang(req.headers['accept-language']);
      if (cfg.knock.passwordHash === '') return answered(reply, clientIp, lang);
      const body = req.body as { password?: unknown } | undefined;
      const given = typeof body?.password === 'string' ? body.password : '';
      if (given === '' || given.length > SAFE_LIMITS.knockPassword.max)
        return send(reply, 401, formPage(lang, say(lang, 'wrong')));
      const admitted = throttle.admit(clientIp);
      if (!admitted.ok) {
        if (admitted.reason === 'locked') core.safe.failure(clientIp, 'knock');
        const text =
          admitted.reason === 'locked'
            ? say(lang, 'locked', { minutes: Math.max(1, Math.ceil(admitted.retryAfterMs / 60_000)) })
            : say(lang, 'busy');
        return send(
          reply.header('retry-after', String(Math.ceil(admitted.retryAfterMs / 1000))),
          429,
          formPage(lang, text),
        );
      }
      let good = false;
      try {
        good = await core.hashGate.run(admitted.key, () => verifyPassword(given, cfg.knock.passwordHash));
      } catch (err) {
        throttle.settle(clientIp, 'refund');
        if (err instanceof GateFullError) return send(reply, 503, formPage(lang, say(lang, 'busy')));
        throw err;
      }
      throttle.settle(clientIp, good ? 'success' : 'failure');
      if (!good) {
        core.safe.line('warn', 'knockFailed', { ip: clientIp });
        core.safe.failure(clientIp, 'knock');
        return send(reply, 401, formPage(lang, say(lang, 'wrong')));
      }
      return answered(reply, clientIp, lang);
    },
  });
}
