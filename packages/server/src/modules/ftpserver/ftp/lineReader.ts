// The control connection's command lines: bytes up to LF (a CR before it dropped), Telnet IAC
// sequences removed (lftp and others send `IAC IP IAC DM` before ABOR; the DM travels as urgent
// data, which Linux takes out of the stream, leaving a lone IAC), and a cap on the line length:
// a longer line is discarded as it arrives, never buffered whole, and reported once at its end.

const LF = 0x0a;
const CR = 0x0d;
const IAC = 0xff;
/** WILL, WONT, DO, DONT carry one option byte after them. */
const isNegotiation = (b: number) => b >= 251 && b <= 254;

export type LineEvent = { kind: 'line'; line: Buffer } | { kind: 'tooLong' };

export class LineReader {
  private buf: Buffer;
  private len = 0;
  private discarding = false;
  /** Telnet state: 0 plain, 1 after IAC, 2 after IAC + negotiation verb. */
  private telnet = 0;

  constructor(private readonly max: number) {
    this.buf = Buffer.allocUnsafe(max);
  }

  /** Bytes held of an unfinished line. */
  get pending(): number {
    return this.len;
  }

  /**
   * Feeds `chunk` from `from` on; each finished line (or a too-long report) goes to `emit`, which
   * answers whether to go on. Returns the offset where reading stopped (the chunk's length when
   * it was read whole), so a caller that stops keeps the rest and feeds it later: a chunk full of
   * short lines never becomes thousands of queued lines.
   */
  push(chunk: Buffer, emit: (ev: LineEvent) => boolean, from = 0): number {
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i] as number;
      let ev: LineEvent | undefined;
      if (this.telnet === 1) {
        this.telnet = isNegotiation(b) ? 2 : 0;
        // IAC IAC is a data byte 0xFF; IAC + a byte below 240 is a stray IAC (see above): keep the byte.
        if (b === IAC || b < 240) ev = this.put(b);
      } else if (this.telnet === 2) this.telnet = 0;
      else if (b === IAC) this.telnet = 1;
      else ev = this.put(b);
      if (ev && !emit(ev)) return i + 1;
    }
    return chunk.length;
  }

  private put(b: number): LineEvent | undefined {
    if (b === LF) {
      let ev: LineEvent;
      if (this.discarding) ev = { kind: 'tooLong' };
      else {
        const end = this.len > 0 && this.buf[this.len - 1] === CR ? this.len - 1 : this.len;
        ev = { kind: 'line', line: Buffer.from(this.buf.subarray(0, end)) };
      }
      this.len = 0;
      this.discarding = false;
      return ev;
    }
    if (this.discarding) return undefined;
    if (this.len >= this.max) {
      this.discarding = true;
      this.len = 0;
      return undefined;
    }
    this.buf[this.len++] = b;
    return undefined;
  }

  /** Drop what is held (the plaintext after AUTH TLS must not be read as commands). */
  reset(): void {
    this.len = 0;
    this.discarding = false;
    this.telnet = 0;
  }
}
