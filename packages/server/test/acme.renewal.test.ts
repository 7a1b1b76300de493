// ACME renewal driven by short-lived certificates from pebble (a 12 s lifetime renews with a third
// of it left, with no clock tricks): the store entry is replaced in place and served at the next
// handshake; an EAB account (refused with a wrong HMAC key, accepted with the right one); export
// files and their modes, the command with its variables, the webhook's events.
import { createPrivateKey, randomBytes, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AcmeServer, servedLeaf, startAcmeServer } from './acme-helpers.js';
import { recorder } from './http-recorder.js';
import { type PebblePeer, startPebble } from './pebble.js';
import { freePort } from './reverseproxy-helpers.js';
import { waitFor } from './wait.js';

const HMAC = randomBytes(32).toString('base64url');
let pebble: PebblePeer;
let s: AcmeServer;
let dir: string;
let hook: Awaited<ReturnType<typeof recorder>>;

beforeAll(async () => {
  pebble = await startPebble({ eab: { kid1: HMAC }, validitySeconds: 12 });
  s = await startAcmeServer();
  dir = await mkdtemp(path.join(os.tmpdir(), 'lucky-acme-export-'));
  hook = await recorder();
}, 30_000);

afterAll(async () => {
  await s?.close();
  await pebble?.stop();
  await hook?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const httpCert = (account: string, name: string, extra: Record<string, unknown> = {}) => ({
  name,
  account,
  names: [`${name}.test`],
  challenge: 'http-01',
  http: { port: pebble.httpPort },
  ...extra,
});

describe('ACME renewal and EAB with pebble', () => {
  it('an account with the wrong EAB HMAC key fails its order with eabRefused', async () => {
    const account = await s.addAccount(pebble, {
      eab: { kid: 'kid1', hmacKey: randomBytes(32).toString('base64url') },
    });
    const key = await s.addCertificate(httpCert(account, 'wrongeab'));
    const c = await s.until(key, 'failing');
    expect(c.status.lastError.code).toBe('eabRefused');
    expect(
      (await s.call('GET', '/api/acme')).body.accounts.find((a: { key: string }) => a.key === account).registered,
    ).toBe(false);
  });

  it('issues through the EAB account, exports, runs the command, calls the webhook, and renews in place', async () => {
    const account = await s.addAccount(pebble, { eab: { kid: 'kid1', hmacKey: HMAC } });
    const out = path.join(dir, 'command.txt');
    const exportDir = path.join(dir, 'short');
    const key = await s.addCertificate(
      httpCert(account, 'short', {
        export: { enabled: true, dir: exportDir, certMode: '640', keyMode: '600' },
        command: `echo "$LUCKY_CERT_NAME $LUCKY_CERT_DOMAINS $LUCKY_CERT_DIR" >> ${out}`,
        webhook: {
          enabled: true,
          url: `${hook.url}/hook?event=#{event}&name=#{name}&names=#{names}`,
          method: 'GET',
          disableSuccessCheck: true,
          retries: 0,
        },
      }),
    );
    const first = await s.until(key, 'valid');
    // The account is registered now (its URL saved), its HMAC key never read back.
    const view = (await s.call('GET', '/api/acme')).body;
    const acc = view.accounts.find((a: { key: string }) => a.key === account);
    expect(acc.registered).toBe(true);
    expect(acc.eab.hmacKey).toBe('******');
    expect(JSON.stringify(view)).not.toContain(HMAC);

    // Export: the four files, their modes, the key matching the leaf.
    const files = Object.fromEntries(
      await Promise.all(
        ['cert.pem', 'chain.pem', 'fullchain.pem', 'key.pem'].map(async (f) => [
          f,
          await readFile(path.join(exportDir, f), 'utf8'),
        ]),
      ),
    );
    expect((await stat(path.join(exportDir, 'cert.pem'))).mode & 0o777).toBe(0o640);
    expect((await stat(path.join(exportDir, 'key.pem'))).mode & 0o777).toBe(0o600);
    expect(files['fullchain.pem'].replace(/\s+/g, '')).toBe(
      (files['cert.pem'] + files['chain.pem']).replace(/\s+/g, ''),
    );
    expect(new X509Certificate(files['cert.pem']).checkPrivateKey(createPrivateKey(files['key.pem']))).toBe(true);
    // The command ran with its variables.
    expect(await readFile(out, 'utf8')).toContain(`short short.test ${exportDir}`);

    // A rule serving HTTPS picks the certificate from the store.
    const port = await freePort();
    await s.addRule({ port, listenTypes: 'https', defaultRule: { serviceType: 'text', text: 'short' } });
    const root = await pebble.roots();
    // What the rule serves is what the state names (read together: a renewal may fall between).
    const servedNow = async () => {
      const [leaf, c] = await Promise.all([servedLeaf(port, 'short.test', root), s.cert(key)]);
      return { served: leaf.serialNumber.toLowerCase(), current: c.status.serial as string };
    };
    await waitFor(servedNow, (x) => x.served === x.current, { timeout: 5000, interval: 100 });

    // Renewal on its own: a third of the 12 s lifetime left → a new serial, the same store entry.
    const renewed = await waitFor(
      () => s.cert(key),
      (c) => c.status.serial !== first.status.serial && c.status.state === 'valid' && !c.status.step,
      { timeout: 20_000, interval: 200, what: 'automatic renewal' },
    );
    expect(renewed.status.storeKey).toBe(first.status.storeKey);
    expect(Date.parse(renewed.status.notAfter)).toBeGreaterThan(Date.parse(first.status.notAfter));
    // The renewed certificate serves at the next handshake.
    await waitFor(servedNow, (x) => x.served === x.current && x.served !== first.status.serial, {
      timeout: 5000,
      interval: 100,
    });
    const store = (await s.call('GET', '/api/ssl')).body.list.filter(
      (e: { ManagedBy?: { item: string } }) => e.ManagedBy?.item === key,
    );
    expect(store).toHaveLength(1);
    const log = (await s.call('GET', '/api/acme/logs?pageSize=100')).body.logs.map((l: { code: string }) => l.code);
    expect(log).toEqual(expect.arrayContaining(['issued', 'renewed', 'exported', 'commandRan', 'expiringSoon']));
    // The webhook heard the success and the coming expiry (12 s is well inside 14 days).
    const events = hook.seen.map((r) => new URL(r.url, 'http://x').searchParams.get('event'));
    expect(events).toEqual(expect.arrayContaining(['success', 'expiring']));
    expect(hook.seen.every((r) => new URL(r.url, 'http://x').searchParams.get('names') === 'short.test')).toBe(true);
  });
});
