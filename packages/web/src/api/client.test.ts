import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeFetch, installFakeFetch } from '../test/fakeFetch';
import {
  ApiError,
  buildUrl,
  configureClient,
  del,
  download,
  failureCount,
  get,
  post,
  put,
  resetClient,
  upload,
} from './client';
import { getItem, setItem } from './storage';

let net: FakeFetch;
const notify = vi.fn();
const goToLogin = vi.fn();

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2025-01-02T03:04:05Z') });
  net = installFakeFetch();
  resetClient();
  notify.mockReset();
  goToLogin.mockReset();
  configureClient({ notify, goToLogin, t: (key, vars) => (vars ? `${key}:${JSON.stringify(vars)}` : key) });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Runs a request to its end, swallowing the rejection so the next one can start. */
async function settle(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (v) => v,
    (e: unknown) => e,
  );
}

describe('request shape', () => {
  it('uses a relative URL with the query and the _ cache buster', async () => {
    net.plan({ body: { ret: 0 } });
    await get('/api/logs', { query: { pre: '123', skip: undefined } });
    const { url } = net.call(0);
    expect(url).toBe(`api/logs?pre=123&_=${Date.parse('2025-01-02T03:04:05Z')}`);
    expect(url.startsWith('/')).toBe(false);
  });

  it('sends the stored token as Authorization, and none for public calls', async () => {
    setItem('token', 'jwt-abc');
    net.plan({ body: { ret: 0 } }, { body: { ret: 0, version: '1' } });
    await get('api/status');
    await get('version', { auth: false });
    expect((net.call(0).init.headers as Record<string, string>).Authorization).toBe('jwt-abc');
    expect((net.call(1).init.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('sends JSON bodies with the right method', async () => {
    net.plan({ body: { ret: 0 } }, { body: { ret: 0 } }, { body: { ret: 0 } });
    await post('api/login', { Account: 'a', Password: 'b' });
    await put('api/logout');
    await del('api/sessions', { query: { id: 's1' } });
    expect(net.call(0).init.method).toBe('POST');
    expect(net.call(0).init.body).toBe('{"Account":"a","Password":"b"}');
    expect((net.call(0).init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(net.call(1).init.method).toBe('PUT');
    expect(net.call(2).init.method).toBe('DELETE');
    expect(net.call(2).url).toMatch(/^api\/sessions\?id=s1&_=\d+$/);
  });

  it('buildUrl appends to an existing query string', () => {
    expect(buildUrl('api/x?a=1')).toMatch(/^api\/x\?a=1&_=\d+$/);
  });
});

describe('replies', () => {
  it('resolves with the whole body when ret is 0', async () => {
    net.plan({ body: { ret: 0, version: '1.2.3', twoFAEnable: true } });
    await expect(get('version')).resolves.toEqual({ ret: 0, version: '1.2.3', twoFAEnable: true });
  });

  it('shows a backend error message for two minutes and rejects with the ret', async () => {
    net.plan({ status: 400, body: { ret: 1, msg: 'port already in use', field: 'adminPort' } });
    const err = (await settle(put('api/baseconfigure', {}))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.kind).toBe('ret');
    expect(err.ret).toBe(1);
    expect(err.reply?.field).toBe('adminPort');
    expect(notify).toHaveBeenCalledWith('error', 'port already in use', 120_000);
  });

  it("shows a named server message in the user's language, and the server's text when the locale lacks it", async () => {
    const t = (key: string, vars?: Record<string, unknown>) =>
      key === 'errors.portInUse' ? `端口 ${String(vars?.port)} 已被占用` : key;
    configureClient({ notify, goToLogin, t });
    net.plan({ status: 409, body: { ret: 1, msg: 'port 80 is already in use', code: 'portInUse', port: 80 } });
    const err = (await settle(put('api/baseconfigure', {}))) as ApiError;
    expect(err.message).toBe('端口 80 已被占用');
    expect(notify).toHaveBeenCalledWith('error', '端口 80 已被占用', 120_000);
    net.plan({ status: 400, body: { ret: 1, msg: 'something new', code: 'notInTheLocale' } });
    const other = (await settle(put('api/baseconfigure', {}))) as ApiError;
    expect(other.message).toBe('something new');
  });

  it('stays quiet for silent calls (module list, version, frontend settings)', async () => {
    net.plan({ body: { ret: 1, msg: 'nope' } }, { networkError: true });
    await settle(get('api/modules/list', { silent: true }));
    await settle(get('version', { silent: true, auth: false }));
    expect(notify).not.toHaveBeenCalled();
  });

  it('ret -1 ends the session: "login expired", token cleared, /login', async () => {
    setItem('token', 'old');
    setItem('lang', 'en_US');
    net.plan({ status: 401, body: { ret: -1, msg: 'session invalid' } });
    const err = (await settle(get('api/status'))) as ApiError;
    expect(err.kind).toBe('session');
    expect(notify).toHaveBeenCalledWith('warning', 'common.loginExpired', 0);
    expect(getItem('token')).toBeUndefined();
    expect(getItem('lang')).toBe('en_US');
    expect(goToLogin).toHaveBeenCalledTimes(1);
  });

  it('ret -1 without a stored token goes to /login without an "expired" notice', async () => {
    net.plan({ status: 401, body: { ret: -1 } });
    await settle(get('api/modules/list', { silent: true }));
    expect(goToLogin).toHaveBeenCalledTimes(1);
    expect(notify).not.toHaveBeenCalled();
  });

  it('a reply that is not JSON is an error but not a failure of the link', async () => {
    net.plan({ status: 200, body: '<html>proxy page</html>', headers: { 'Content-Type': 'text/html' } });
    const err = (await settle(get('api/status'))) as ApiError;
    expect(err.kind).toBe('invalid');
    expect(failureCount()).toBe(0);
  });
});

describe('time-out and failure counting', () => {
  it('times out after 5 s and counts it', async () => {
    net.plan({ hang: true });
    const p = settle(get('api/status'));
    await vi.advanceTimersByTimeAsync(4999);
    expect(failureCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    const err = (await p) as ApiError;
    expect(err.kind).toBe('timeout');
    expect(failureCount()).toBe(1);
    expect(notify).toHaveBeenCalledWith('error', 'common.timeout', expect.any(Number));
    expect(net.call(0).init.signal?.aborted).toBe(true);
  });

  it('more than two failures in a row (time-out, network, 5xx) send the user to /login once', async () => {
    net.plan({ hang: true }, { networkError: true }, { status: 502, body: 'bad gateway' });
    const first = settle(get('api/status'));
    await vi.advanceTimersByTimeAsync(5000);
    await first;
    await settle(get('api/status'));
    expect(goToLogin).not.toHaveBeenCalled();
    expect(failureCount()).toBe(2);
    const third = (await settle(get('api/status'))) as ApiError;
    expect(third.kind).toBe('http');
    expect(third.status).toBe(502);
    expect(goToLogin).toHaveBeenCalledTimes(1);
    // A new run starts: the next failure alone does not trigger again.
    net.plan({ networkError: true });
    await settle(get('api/status'));
    expect(goToLogin).toHaveBeenCalledTimes(1);
  });

  it('two failures do not log out, and any success resets the run', async () => {
    net.plan(
      { networkError: true },
      { status: 500, body: { ret: 1, msg: 'bug' } },
      { body: { ret: 0 } },
      { networkError: true },
      { networkError: true },
    );
    await settle(get('a'));
    await settle(get('a'));
    expect(failureCount()).toBe(2);
    await get('a');
    expect(failureCount()).toBe(0);
    await settle(get('a'));
    await settle(get('a'));
    expect(goToLogin).not.toHaveBeenCalled();
  });

  it('ret errors and 4xx are not failures and break a run', async () => {
    net.plan(
      { networkError: true },
      { networkError: true },
      { status: 404, body: { ret: 1, msg: 'unknown rule' } },
      { body: { ret: 7, msg: 'module disabled' } },
      { networkError: true },
      { networkError: true },
    );
    for (let i = 0; i < 6; i++) await settle(get('a'));
    expect(goToLogin).not.toHaveBeenCalled();
    expect(failureCount()).toBe(2);
  });

  it('the 5xx message from the server is shown', async () => {
    net.plan({ status: 500, body: { ret: 1, msg: 'internal bug' } });
    await settle(get('a'));
    expect(notify).toHaveBeenCalledWith('error', 'internal bug', 120_000);
  });

  it('reconnect probes can opt out of counting', async () => {
    net.plan({ networkError: true }, { networkError: true }, { networkError: true });
    for (let i = 0; i < 3; i++) await settle(get('api/health', { countFailures: false, silent: true }));
    expect(failureCount()).toBe(0);
    expect(goToLogin).not.toHaveBeenCalled();
  });

  it("the caller's own abort is neither counted nor shown", async () => {
    net.plan({ hang: true });
    const ctrl = new AbortController();
    const p = settle(get('api/status', { signal: ctrl.signal }));
    ctrl.abort();
    const err = (await p) as ApiError;
    expect(err.kind).toBe('aborted');
    expect(failureCount()).toBe(0);
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('download', () => {
  it('returns the file and its name from Content-Disposition', async () => {
    net.plan({
      body: { schemaVersion: 1, modules: {} },
      headers: { 'Content-Disposition': 'attachment; filename="lucky_20250102.json"' },
    });
    const file = await download('api/configure');
    expect(file.filename).toBe('lucky_20250102.json');
    expect(JSON.parse(await file.blob.text())).toEqual({ schemaVersion: 1, modules: {} });
  });

  it('treats a JSON error reply in place of the file as an error', async () => {
    net.plan({ body: { ret: 1, msg: 'cannot read config' } });
    const err = (await settle(download('api/configure'))) as ApiError;
    expect(err.kind).toBe('ret');
    expect(notify).toHaveBeenCalledWith('error', 'cannot read config', 120_000);
  });
});

describe('upload', () => {
  class FakeXHR {
    static last: FakeXHR;
    method = '';
    url = '';
    headers: Record<string, string> = {};
    body: unknown;
    status = 0;
    responseText = '';
    upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
    onload?: () => void;
    onerror?: () => void;
    onabort?: () => void;
    constructor() {
      FakeXHR.last = this;
    }
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(k: string, v: string) {
      this.headers[k] = v;
    }
    send(body: unknown) {
      this.body = body;
    }
    abort() {
      this.onabort?.();
    }
  }

  it('posts multipart with the token, reports progress and applies the ret rules', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXHR);
    setItem('token', 'tok');
    const progress: number[] = [];
    const p = upload('api/update', new File(['x'], 'lucky.tar.gz'), { onProgress: (n) => progress.push(n) });
    const xhr = FakeXHR.last;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toMatch(/^api\/update\?_=\d+$/);
    expect(xhr.headers.Authorization).toBe('tok');
    expect((xhr.body as FormData).get('file')).toBeInstanceOf(File);
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 200 });
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 200, total: 200 });
    xhr.status = 200;
    xhr.responseText = JSON.stringify({ ret: 0, version: '1.1.0', key: 'k1' });
    xhr.onload?.();
    await expect(p).resolves.toEqual({ ret: 0, version: '1.1.0', key: 'k1' });
    expect(progress).toEqual([25, 100]);
  });

  it('a rejected package shows the server message', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXHR);
    const p = settle(upload('api/update', new File(['x'], 'bad.tar.gz')));
    const xhr = FakeXHR.last;
    xhr.status = 400;
    xhr.responseText = JSON.stringify({ ret: 1, msg: 'not a release package' });
    xhr.onload?.();
    expect(((await p) as ApiError).kind).toBe('ret');
    expect(notify).toHaveBeenCalledWith('error', 'not a release package', 120_000);
  });
});
