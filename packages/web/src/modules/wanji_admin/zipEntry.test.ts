// The backup zip's results.json read back: a stored and a deflated entry, found by the central
// directory among others; a name not in the zip and a blob that is no zip answer undefined.
import { describe, expect, it } from 'vitest';
import { readZipEntry } from './zipEntry';

const enc = new TextEncoder();

async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  const stream = (new Response(data as BlobPart).body as ReadableStream).pipeThrough(
    new CompressionStream('deflate-raw'),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A minimal zip (no CRCs: the reader does not check them), entries in order. */
async function makeZip(entries: { name: string; text: string; deflate: boolean }[]): Promise<Blob> {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const raw = enc.encode(e.text);
    const data = e.deflate ? await deflateRaw(raw) : raw;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(8, e.deflate ? 8 : 0, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, raw.length, true);
    local.setUint16(26, name.length, true);
    const dir = new DataView(new ArrayBuffer(46));
    dir.setUint32(0, 0x02014b50, true);
    dir.setUint16(10, e.deflate ? 8 : 0, true);
    dir.setUint32(20, data.length, true);
    dir.setUint32(24, raw.length, true);
    dir.setUint16(28, name.length, true);
    dir.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), name, data);
    central.push(new Uint8Array(dir.buffer), name);
    offset += 30 + name.length + data.length;
  }
  const size = central.reduce((n, p) => n + p.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  return new Blob([...parts, ...central, new Uint8Array(end.buffer)] as BlobPart[]);
}

describe('readZipEntry', () => {
  it('finds a deflated and a stored entry by name', async () => {
    const results = JSON.stringify([{ key: 'b1', name: 'B', ok: false, code: 'timeout' }]);
    const zip = await makeZip([
      { name: 'B.json', text: '{"a":1}', deflate: false },
      { name: 'results.json', text: results, deflate: true },
    ]);
    expect(await readZipEntry(zip, 'results.json')).toBe(results);
    expect(await readZipEntry(zip, 'B.json')).toBe('{"a":1}');
    expect(await readZipEntry(zip, 'C.json')).toBeUndefined();
  });

  it('a blob that is not a zip has no entries', async () => {
    expect(await readZipEntry(new Blob(['{"ret":1}']), 'results.json')).toBeUndefined();
  });
});
