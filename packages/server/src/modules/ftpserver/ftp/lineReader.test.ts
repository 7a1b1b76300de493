import { describe, expect, it } from 'vitest';
import { type LineEvent, LineReader } from './lineReader.js';

const read = (r: LineReader, ...chunks: Array<string | Buffer>) => {
  const out: string[] = [];
  for (const c of chunks)
    r.push(Buffer.isBuffer(c) ? c : Buffer.from(c, 'latin1'), (e: LineEvent) => {
      out.push(e.kind === 'line' ? e.line.toString('latin1') : '<too long>');
      return true;
    });
  return out;
};

describe('LineReader', () => {
  it('splits on LF, drops the CR before it, and joins lines cut across chunks', () => {
    expect(read(new LineReader(64), 'USER a\r\nPA', 'SS b\r', '\nNOOP\n')).toEqual(['USER a', 'PASS b', 'NOOP']);
  });

  it('removes Telnet IAC sequences (IAC IP, IAC DM before ABOR, negotiation) and keeps IAC IAC as one 0xFF', () => {
    const r = new LineReader(64);
    const abor = Buffer.from([0xff, 0xf4, 0xff, 0xf2, ...Buffer.from('ABOR\r\n')]);
    const nego = Buffer.from([0xff, 0xfb, 0x01, ...Buffer.from('NOOP\r\n')]);
    // Linux removes the urgent DM byte from the stream: a lone IAC before the verb is dropped.
    const lone = Buffer.from([0xff, ...Buffer.from('ABOR\r\n')]);
    const data = Buffer.from([...Buffer.from('X '), 0xff, 0xff, 0x0d, 0x0a]);
    expect(read(r, abor, nego, lone, data)).toEqual(['ABOR', 'NOOP', 'ABOR', 'X \xff']);
  });

  it('drops a line over the cap as it arrives and reports it once at its end', () => {
    const r = new LineReader(16);
    const out = read(r, 'A'.repeat(10), 'B'.repeat(100), 'C'.repeat(100));
    expect(out).toEqual([]);
    expect(r.pending).toBeLessThanOrEqual(16);
    expect(read(r, 'D\r\nNOOP\r\n')).toEqual(['<too long>', 'NOOP']);
  });

  it('stops where the caller says and goes on from that offset', () => {
    const r = new LineReader(64);
    const chunk = Buffer.from('A\nB\nC\n');
    const seen: string[] = [];
    const used = r.push(chunk, (e) => {
      if (e.kind === 'line') seen.push(e.line.toString());
      return seen.length < 2;
    });
    expect(seen).toEqual(['A', 'B']);
    expect(used).toBe(4);
    r.push(
      chunk,
      (e) => {
        if (e.kind === 'line') seen.push(e.line.toString());
        return true;
      },
      used,
    );
    expect(seen).toEqual(['A', 'B', 'C']);
  });
});
