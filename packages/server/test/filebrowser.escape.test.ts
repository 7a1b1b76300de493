// The escape corpus of the storage issue through the file manager's API: every attack path as a
// query value (as sent on the wire, decoded once by the server) of list / file / thumb / zip /
// exists, and decoded as the JSON paths and folders of mkdir / text / rename / transfer / delete.
// No answer holds the secret or a system file's content, nothing outside the root changes, no
// escape path is reported as holding a name, and the ordinary file inside still reads.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FbConsole, startFbConsole } from './filebrowser-helpers.js';
import { type EscapeSandbox, httpEscapes, leakedMarkers, plantEscapeTargets } from './storage/escapeCorpus.js';

let c: FbConsole;
let sandbox: EscapeSandbox;
let key: string;
let other: string;

beforeAll(async () => {
  c = await startFbConsole();
  sandbox = await plantEscapeTargets(path.join(c.box, 'sandbox'));
  key = await c.addStorage('files', sandbox.root);
  other = await c.addStorage('other', path.join(c.box, 'other'));
  await fs.writeFile(path.join(c.box, 'other', 'payload.txt'), 'ESCAPED-WRITE');
  // The trash on: a delete that escaped would move the target, which changedOutside sees too.
  await c.ok('PUT', '/api/filebrowser/settings', { trash: true });
}, 30_000);
afterAll(async () => {
  await c?.close();
});

/** The wire forms (percent-encoded, for query strings) and their once-decoded forms (for JSON bodies; as sent when not decodable). */
function corpus(): { wire: string[]; decoded: string[] } {
  const wire = httpEscapes('');
  const decoded = new Set<string>();
  for (const w of wire) {
    // As a JSON value the wire form itself holds only literal `%` names; its decoded form is the attack.
    try {
      decoded.add(decodeURIComponent(w));
    } catch {
      decoded.add(w);
    }
  }
  return { wire, decoded: [...decoded] };
}

/** Runs `tasks` with at most `n` at once. */
async function pool<T>(tasks: (() => Promise<T>)[], n: number): Promise<T[]> {
  const results: T[] = [];
  let i = 0;
  const worker = async () => {
    while (i < tasks.length) {
      const k = i++;
      results[k] = await tasks[k]();
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
  return results;
}

describe('the escape corpus through the file manager', () => {
  it('leaks nothing and changes nothing outside the root', async () => {
    const { wire, decoded } = corpus();
    const answers: { what: string; status: number; text: string }[] = [];
    const get = (what: string, url: string) => async () => {
      const r = await c.s.call('GET', url, { token: c.token });
      const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
      answers.push({ what, status: r.status, text });
      return r;
    };
    const post = (route: string, body: Record<string, unknown>) => async () => {
      const r = await c.call('POST', `/api/filebrowser/${route}`, body);
      answers.push({
        what: `${route} ${JSON.stringify(body).slice(0, 300)}`,
        status: r.status,
        text: JSON.stringify(r.body),
      });
      return r;
    };
    const tasks: (() => Promise<unknown>)[] = [];
    const existsAnswers: { p: string; existing: string[] }[] = [];
    for (const w of wire) {
      const q = (k: string) => `storage=${key}&${k}=${w.startsWith('/') ? w : `/${w}`}`;
      tasks.push(
        get(`list ${w}`, `/api/filebrowser/list?${q('path')}`),
        get(`file ${w}`, `/api/filebrowser/file?${q('path')}`),
        get(`file download ${w}`, `/api/filebrowser/file?${q('path')}&download=1`),
        get(`thumb ${w}`, `/api/filebrowser/thumb?${q('path')}`),
        get(`zip ${w}`, `/api/filebrowser/zip?${q('dir')}`),
        get(`zip name ${w}`, `/api/filebrowser/zip?${q('dir')}&name=secret.txt`),
      );
    }
    for (const d of decoded) {
      const p = d.startsWith('/') ? d : `/${d}`;
      tasks.push(
        post('mkdir', { storage: key, dir: p, name: 'escaped-dir' }),
        post('text', { storage: key, path: p, content: 'ESCAPED-WRITE', mode: 'create' }),
        post('text', { storage: key, path: p, content: 'ESCAPED-WRITE', mode: 'replace' }),
        post('rename', { storage: key, path: p, name: 'escaped-renamed' }),
        post('delete', { storage: key, dir: p, names: ['secret.txt', 'outside'] }),
        post('delete', { storage: key, dir: p, names: ['secret.txt'], permanent: true }),
        post('transfer', {
          op: 'copy',
          from: { storage: key, dir: p, names: ['secret.txt'] },
          to: { storage: other, dir: '/' },
        }),
        post('transfer', {
          op: 'move',
          from: { storage: key, dir: p, names: ['secret.txt'] },
          to: { storage: key, dir: '/' },
        }),
        post('transfer', {
          op: 'copy',
          from: { storage: other, dir: '/', names: ['payload.txt'] },
          to: { storage: key, dir: p },
        }),
        async () => {
          const r = await post('exists', { storage: key, dir: p, names: ['secret.txt', 'passwd', 'outside'] })();
          if (r.body?.ret === 0) existsAnswers.push({ p, existing: r.body.existing });
        },
      );
    }
    // Symlinks that lead out, named as folders and as entries of the root.
    for (const link of ['link-out', 'link-out-file', 'link-etc', 'sub/up']) {
      tasks.push(
        post('transfer', {
          op: 'copy',
          from: { storage: key, dir: '/', names: [link.split('/').pop()] },
          to: { storage: other, dir: '/' },
        }),
        post('transfer', {
          op: 'copy',
          from: { storage: key, dir: `/${link}`, names: ['secret.txt', 'passwd'] },
          to: { storage: other, dir: '/' },
        }),
        post('delete', { storage: key, dir: `/${link}`, names: ['secret.txt', 'passwd'], permanent: true }),
        post('rename', { storage: key, path: `/${link}/secret.txt`, name: 'x' }),
        get(`zip link ${link}`, `/api/filebrowser/zip?storage=${key}&dir=/${link}`),
      );
    }
    tasks.push(get('zip root', `/api/filebrowser/zip?storage=${key}&dir=/`));
    await pool(tasks, 6);

    const leaks = answers
      .filter((a) => leakedMarkers(sandbox, a.text).length > 0)
      .map((a) => `${a.what}: ${a.text.slice(0, 200)}`);
    console.log(
      `file manager escape corpus: ${wire.length} wire paths, ${decoded.length} decoded, ${answers.length} requests, ${leaks.length} leaks`,
    );
    expect(leaks).toEqual([]);
    expect(await sandbox.changedOutside()).toEqual([]);
    // Where an attack folder was read as a folder at all, it was one inside the root: none holds these names.
    expect(existsAnswers.filter((e) => e.existing.length > 0)).toEqual([]);
    expect(await fs.readFile(path.join(sandbox.root, 'inside.txt'), 'utf8')).toBe(sandbox.insideContent);
    // Nothing the corpus wrote landed outside the root; what landed inside is ordinary files.
    const file = await c.raw(`/api/filebrowser/file?storage=${key}&path=/inside.txt`);
    expect([file.status, file.body.toString()]).toEqual([200, sandbox.insideContent]);
  }, 60_000);
});
