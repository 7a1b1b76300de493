// The steps of an order with the ACME client, as the tests drive it against pebble: answer each
// authorisation's challenge (HTTP-01 from a tiny node:http responder on pebble's httpPort,
// DNS-01 through challtestsrv's TXT records), finalize with a CSR, download the chain.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { AcmeClient } from '../src/modules/acme/client/client.js';
import { createCsr } from '../src/modules/acme/client/csr.js';
import { generateKeyPem } from '../src/modules/acme/client/keys.js';
import type { AcmeAuthorization, AcmeIdentifier, AcmeOrder } from '../src/modules/acme/client/types.js';
import type { PebblePeer } from './pebble.js';

/** HTTP-01 answers by token on 127.0.0.1:port; counts the CA's requests. */
export async function http01Responder(port: number) {
  const tokens = new Map<string, string>();
  let hits = 0;
  const server = http.createServer((req, res) => {
    const token = /^\/\.well-known\/acme-challenge\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '')?.[1];
    const body = token ? tokens.get(token) : undefined;
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    hits++;
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    tokens,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Responder = Awaited<ReturnType<typeof http01Responder>>;

export function newClient(peer: PebblePeer, accountKeyPem: string, extra: { signal?: AbortSignal } = {}) {
  return new AcmeClient({
    directoryUrl: peer.directoryUrl,
    accountKeyPem,
    caCertPem: peer.caCertPem,
    timeoutMs: 10_000,
    ...extra,
  });
}

/** Publishes the challenge of one authorisation; returns the challenge URL to tell the CA. */
async function publish(
  client: AcmeClient,
  peer: PebblePeer,
  authz: AcmeAuthorization,
  how: { type: 'http-01'; responder: Responder } | { type: 'dns-01' },
): Promise<string> {
  const challenge = authz.challenges.find((c) => c.type === how.type);
  if (!challenge) throw new Error(`no ${how.type} challenge for ${authz.identifier.value}`);
  if (how.type === 'http-01') how.responder.tokens.set(challenge.token, client.keyAuthorization(challenge.token));
  else {
    if (!peer.challtestsrv) throw new Error('DNS-01 needs challtestsrv');
    await peer.challtestsrv.setTxt(`_acme-challenge.${authz.identifier.value}.`, client.dns01Value(challenge.token));
  }
  return challenge.url;
}

/** A whole order: challenges, validation, finalize, download. Returns the chain, the key and the order. */
export async function issue(
  client: AcmeClient,
  peer: PebblePeer,
  identifiers: AcmeIdentifier[],
  how: { type: 'http-01'; responder: Responder } | { type: 'dns-01' },
  o: { keyType?: 'ec256' | 'ec384' | 'rsa2048' } = {},
): Promise<{ pem: string; keyPem: string; order: AcmeOrder }> {
  const order = await client.newOrder(identifiers);
  for (const url of order.authorizations) {
    const authz = await client.authorization(url);
    if (authz.status === 'valid') continue;
    await client.challengeReady(await publish(client, peer, authz, how));
    const done = await client.poll<AcmeAuthorization>(url, (a) => a.status === 'valid', { timeoutMs: 15_000 });
    if (done.status !== 'valid') throw new Error(`authorization ${done.status}: ${JSON.stringify(done.challenges)}`);
  }
  const ready = await client.poll<AcmeOrder>(order.url, (r) => r.status === 'ready', { timeoutMs: 15_000 });
  if (ready.status !== 'ready') throw new Error(`order ${ready.status}: ${JSON.stringify(ready.error)}`);
  const keyPem = await generateKeyPem(o.keyType ?? 'ec256');
  const names = identifiers.map((i) => i.value);
  await client.finalize({ ...ready, url: order.url }, createCsr(keyPem, names));
  const valid = await client.poll<AcmeOrder>(order.url, (r) => r.status === 'valid', { timeoutMs: 15_000 });
  if (!valid.certificate) throw new Error(`order ${valid.status} without a certificate`);
  const chain = await client.downloadCertificate(valid.certificate);
  return { pem: chain.pem, keyPem, order: { ...valid, url: order.url } };
}

/** `openssl verify` of a chain's leaf against the root (intermediates from the chain): its output. */
export function opensslVerify(chainPem: string, rootPem: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lucky-acme-verify-'));
  try {
    writeFileSync(path.join(dir, 'root.pem'), rootPem);
    writeFileSync(path.join(dir, 'chain.pem'), chainPem);
    return execFileSync('openssl', ['verify', '-CAfile', 'root.pem', '-untrusted', 'chain.pem', 'chain.pem'], {
      cwd: dir,
      encoding: 'utf8',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
