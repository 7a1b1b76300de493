// `node scripts/smoke-runtime.mjs <node binary>`: the built console on another Node release
// (CI runs the whole suite on Node 24 and this on Node 22, the oldest one supported). Starts the
// program on a free port with a fresh config dir, logs in, adds a web service rule in front of a
// small back end and sends a POST through it (the direct HTTP/1 path and the pooled back-end
// client both use node's internal parser, the part most likely to differ between releases), then
// checks the shared-port helper there: a listener and an outgoing connection on one local port
// (a net.Socket / net.Server made on the helper's fd, which node's own code then drives).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nodeBin = process.argv[2];
if (!nodeBin) {
  console.error('usage: smoke-runtime.mjs <node binary>');
  process.exit(2);
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function api(port, method, p, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = token;
  const res = await fetch(`http://127.0.0.1:${port}${p}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

const SHARED_PORT_CHECK = `
import net from 'node:net';
const { connectShared, listenShared, sharedPortSupport } = await import(${JSON.stringify(
  pathToFileURL(path.join(root, 'packages/server/dist/core/net/sharedPort.js')).href,
)});
const support = sharedPortSupport();
if (!support.ok) throw new Error(support.detail);
const read = (s) => new Promise((resolve, reject) => {
  let text = '';
  s.on('data', (d) => (text += d)).on('end', () => resolve(text)).on('error', reject);
});
let seen;
const peer = net.createServer((s) => { seen = s.remotePort; s.end('out'); });
await new Promise((r) => peer.listen(0, '127.0.0.1', r));
const port = await listenShared(net.createServer((s) => s.end('in')), { address: '127.0.0.1', port: 0 });
const out = await read(await connectShared({ address: '127.0.0.1', port }, '127.0.0.1', peer.address().port));
const inbound = await read(net.connect(port, '127.0.0.1'));
if (out !== 'out' || seen !== port || inbound !== 'in') throw new Error(JSON.stringify({ port, seen, out, inbound }));
process.exit(0);
`;

function sharedPortCheck() {
  return new Promise((resolve, reject) => {
    const c = spawn(nodeBin, ['--input-type=module', '-e', SHARED_PORT_CHECK], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    c.stderr.on('data', (d) => (err += d));
    c.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`shared-port helper: ${err.trim()}`))));
  });
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-smoke-'));
const port = await freePort();
const child = spawn(
  nodeBin,
  [
    path.join(root, 'packages/server/dist/main.js'),
    '--no-supervisor',
    '-p',
    String(port),
    '-cd',
    dir,
    '--host',
    '127.0.0.1',
  ],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LUCKY_WEB_HELPERS: '0' } },
);
let output = '';
child.stdout.on('data', (d) => (output += d));
child.stderr.on('data', (d) => (output += d));
const back = http.createServer((req, res) => {
  let n = 0;
  req.on('data', (d) => (n += d.length));
  req.on('end', () => res.end(`${req.method} ${req.url} ${n}`));
});
await new Promise((r) => back.listen(0, '127.0.0.1', r));

let failure;
try {
  const version = await new Promise((resolve, reject) => {
    const v = spawn(nodeBin, ['--version']);
    let out = '';
    v.stdout.on('data', (d) => (out += d));
    v.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`${nodeBin} --version failed`))));
  });
  let login;
  for (let i = 0; i < 100 && !login; i++) {
    try {
      login = await api(port, 'POST', '/api/login', { Account: '666', Password: '666' });
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  if (!login?.token) throw new Error(`login failed: ${JSON.stringify(login)}`);
  const webPort = await freePort();
  const rule = await api(
    port,
    'POST',
    '/api/reverseproxy/rules',
    {
      address: '127.0.0.1',
      port: webPort,
      subRules: [{ domains: ['smoke.test'], targets: [`http://127.0.0.1:${back.address().port}`] }],
    },
    login.token,
  );
  if (rule.ret !== 0) throw new Error(`adding a rule failed: ${JSON.stringify(rule)}`);
  const answer = await new Promise((resolve, reject) => {
    const req = http.request(
      { port: webPort, host: '127.0.0.1', method: 'POST', path: '/x?y=1', headers: { host: 'smoke.test' } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(`${res.statusCode} ${text}`));
      },
    );
    req.on('error', reject);
    req.end(Buffer.alloc(70_000));
  });
  if (answer !== '200 POST /x?y=1 70000') throw new Error(`proxied answer: ${answer}`);
  if (/self-test/.test(output)) throw new Error('the HTTP/1 parser self-test failed on this runtime');
  await sharedPortCheck();
  console.log(`smoke on ${version}: login, web service rule, proxied POST, shared-port helper — ok`);
} catch (err) {
  failure = err;
} finally {
  // Wait for the console to finish stopping: it writes its state files (bans, scheduled tasks,
  // ACME) on the way out, and removing the folder under it fails with ENOTEMPTY.
  const exited = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', resolve);
  });
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  back.close();
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
if (failure) {
  console.error(`smoke failed: ${failure.message}\n--- console output ---\n${output}`);
  process.exit(1);
}
