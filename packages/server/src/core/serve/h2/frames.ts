// HTTP/2 wire constants (RFC 9113 §6, §7, §11) and frame-header helpers.

export const FRAME_HEADER = 9;

export const DATA = 0x0;
export const HEADERS = 0x1;
export const PRIORITY = 0x2;
export const RST_STREAM = 0x3;
export const SETTINGS = 0x4;
export const PUSH_PROMISE = 0x5;
export const PING = 0x6;
export const GOAWAY = 0x7;
export const WINDOW_UPDATE = 0x8;
export const CONTINUATION = 0x9;

export const END_STREAM = 0x1;
export const ACK = 0x1;
export const END_HEADERS = 0x4;
export const PADDED = 0x8;
export const PRIORITY_FLAG = 0x20;

export const SETTINGS_HEADER_TABLE_SIZE = 0x1;
export const SETTINGS_ENABLE_PUSH = 0x2;
export const SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
export const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
export const SETTINGS_MAX_FRAME_SIZE = 0x5;
export const SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;
/** RFC 8441: the server takes extended CONNECT (`:protocol`), e.g. WebSocket over HTTP/2. */
export const SETTINGS_ENABLE_CONNECT_PROTOCOL = 0x8;

/** Error codes (RFC 9113 §7). */
export const NO_ERROR = 0x0;
export const PROTOCOL_ERROR = 0x1;
export const INTERNAL_ERROR = 0x2;
export const FLOW_CONTROL_ERROR = 0x3;
export const STREAM_CLOSED = 0x5;
export const FRAME_SIZE_ERROR = 0x6;
export const REFUSED_STREAM = 0x7;
export const CANCEL = 0x8;
export const COMPRESSION_ERROR = 0x9;
export const ENHANCE_YOUR_CALM = 0xb;

/** Fields HTTP/2 forbids in requests and answers alike (RFC 9113 §8.2.2). */
export const CONNECTION_SPECIFIC: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
]);

/** The client's connection preface (RFC 9113 §3.4). */
export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export const DEFAULT_WINDOW = 65_535;
export const MAX_WINDOW = 0x7fffffff;
export const DEFAULT_MAX_FRAME = 16_384;
export const MAX_FRAME_LIMIT = 16_777_215;

/** Write a frame header into `buf` at `at`. */
export function writeFrameHeader(
  buf: Buffer,
  at: number,
  length: number,
  type: number,
  flags: number,
  id: number,
): void {
  buf[at] = length >>> 16;
  buf[at + 1] = (length >>> 8) & 0xff;
  buf[at + 2] = length & 0xff;
  buf[at + 3] = type;
  buf[at + 4] = flags;
  buf.writeUInt32BE(id, at + 5);
}

/** A whole frame with a payload of 32-bit words (RST_STREAM, WINDOW_UPDATE, GOAWAY). */
export function wordFrame(type: number, flags: number, id: number, words: number[]): Buffer {
  const buf = Buffer.allocUnsafe(FRAME_HEADER + 4 * words.length);
  writeFrameHeader(buf, 0, 4 * words.length, type, flags, id);
  for (let i = 0; i < words.length; i++) buf.writeUInt32BE(words[i] >>> 0, FRAME_HEADER + 4 * i);
  return buf;
}

/** A SETTINGS frame (id-value pairs). */
export function settingsFrame(pairs: Array<[number, number]>, ack = false): Buffer {
  const buf = Buffer.allocUnsafe(FRAME_HEADER + 6 * pairs.length);
  writeFrameHeader(buf, 0, 6 * pairs.length, SETTINGS, ack ? ACK : 0, 0);
  pairs.forEach(([id, value], i) => {
    buf.writeUInt16BE(id, FRAME_HEADER + 6 * i);
    buf.writeUInt32BE(value >>> 0, FRAME_HEADER + 6 * i + 2);
  });
  return buf;
}
