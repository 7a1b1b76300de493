import type { ReverseproxyRule } from '@lucky/shared';
import type { ListenerOptions } from '../../core/serve/listener.js';

/** The part of a rule its listener's protocol servers are built from. */
export const listenOptions = (r: ReverseproxyRule): ListenerOptions => ({
  listenTypes: r.listenTypes,
  minTlsVersion: r.minTlsVersion,
  http2: r.http2,
  h2c: r.h2c,
  proxyProtocolFrom: r.proxyProtocolFrom,
});
