// Bulk actions: one call per console, a few at a time, each with its own time-out. A console that
// fails is a result (its coded reason), never the whole action's failure.
import { createReadStream, promises as fs } from 'node:fs';
import { Readable } from 'node:stream';
import {
  type CodedText,
  WANJI_ADMIN_LIMITS,
  type WanjiBulkResult,
  type WanjiConsole,
  wanjiAdminReason,
} from '@lucky/shared';
import { callPeer, jsonAnswer, PeerError } from './client.js';

/** Run `fn` on every console, at most `cap` at once; results in the consoles' order. */
export async function eachConsole<T>(
  consoles: WanjiConsole[],
  fn: (c: WanjiConsole) => Promise<T>,
  cap = WANJI_ADMIN_LIMITS.bulkParallel,
): Promise<{ result: WanjiBulkResult; value?: T }[]> {
  const out: { result: WanjiBulkResult; value?: T }[] = new Array(consoles.length);
  let next = 0;
  const worker = async () => {
    while (next < consoles.length) {
      const i = next++;
      const c = consoles[i];
      const base = { key: c.key, name: c.name };
      if (!c.enabled) {
        out[i] = { result: failed(base, wanjiAdminReason('consoleDisabled', { name: c.name })) };
        continue;
      }
      try {
        const value = await fn(c);
        out[i] = { result: { ...base, ok: true }, value };
      } catch (err) {
        const reason =
          err instanceof PeerError ? err.reason : wanjiAdminReason('networkFailed', { detail: String(err) });
        out[i] = { result: failed(base, reason) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(cap, consoles.length) }, worker));
  return out;
}

function failed(base: { key: string; name: string }, reason: CodedText): WanjiBulkResult {
  return { ...base, ok: false, code: reason.code, params: reason.params ?? {}, text: reason.text };
}

export const restartConsole = async (c: WanjiConsole, timeoutMs: number) =>
  void jsonAnswer(await callPeer(c, { method: 'GET', path: '/api/reboot_program', timeoutMs }));

export const switchModule = async (c: WanjiConsole, module: string, enabled: boolean, timeoutMs: number) =>
  void jsonAnswer(
    await callPeer(c, {
      method: 'PUT',
      path: `/api/modules/${encodeURIComponent(module)}/enabled`,
      json: { enabled },
      timeoutMs,
    }),
  );

/** The console's config backup (its JSON text, checked to parse). */
export async function backupOf(c: WanjiConsole, timeoutMs: number): Promise<{ fileName: string; text: string }> {
  const a = await callPeer(c, {
    method: 'GET',
    path: '/api/configure',
    timeoutMs,
    maxBytes: WANJI_ADMIN_LIMITS.backupBytes,
  });
  if (a.status !== 200) jsonAnswer(a);
  const text = a.body.toString('utf8');
  try {
    const j = JSON.parse(text) as unknown;
    if (!j || typeof j !== 'object' || Array.isArray(j)) throw new Error('not an object');
  } catch {
    throw new PeerError(wanjiAdminReason('notLucky'));
  }
  return { fileName: `${c.name}.json`, text };
}

/**
 * Upload a (checked) release package to the console; `install` confirms it there (the remote
 * swaps and restarts), else it stays staged. Answers the version the remote reported.
 */
export async function updateConsole(
  c: WanjiConsole,
  file: string,
  install: boolean,
  timeoutMs: number,
): Promise<{ version: string }> {
  const size = (await fs.stat(file)).size;
  const boundary = `----wanji${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="release.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* parts() {
    yield head;
    yield* createReadStream(file);
    yield tail;
  }
  // An upload of many megabytes: its own, longer time-out (a slow link is not a dead console).
  const uploadMs = timeoutMs + Math.ceil(size / (256 * 1024)) * 1000;
  const staged = jsonAnswer<{ version: string; key: string }>(
    await callPeer(c, {
      method: 'POST',
      path: '/api/update',
      raw: {
        stream: Readable.from(parts()),
        type: `multipart/form-data; boundary=${boundary}`,
        length: head.length + size + tail.length,
      },
      timeoutMs: uploadMs,
    }),
  );
  if (!install) return { version: staged.version };
  const done = jsonAnswer<{ version: string }>(
    await callPeer(c, { method: 'PUT', path: '/api/update/comfire', json: { key: staged.key }, timeoutMs: uploadMs }),
  );
  return { version: done.version };
}
