// Debian chromium through playwright-core, as the e2e tests and the benchmarks
// launch it. The flags keep it off the (closed) network: without them chromium
// keeps trying to reach Google's hosts.
import { createRequire } from 'node:module';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // Names under the reserved .test domain (RFC 2606) resolve to loopback: tests open sites the
  // web service publishes by name (http://app.test:PORT/) in the real browser.
  '--host-resolver-rules=MAP *.test 127.0.0.1',
];

const require = createRequire(import.meta.url);

/** @returns {Promise<import('playwright-core').Browser>} */
export function launchChromium() {
  const { chromium } = require('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
