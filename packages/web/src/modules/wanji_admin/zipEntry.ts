// Reads one file out of a zip the manager made (the bulk backup's results.json), so the screen can
// show the same per-console results as for the other bulk actions. The central directory names
// the entry; a deflated entry is inflated by the browser's DecompressionStream.

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export async function readZipEntry(zip: Blob, name: string): Promise<string | undefined> {
  const buf = new Uint8Array(await zip.arrayBuffer());
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  // The end record is in the last 22 + 65535 bytes (its comment is at most 64 KiB).
  let end = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) return undefined;
  const count = view.getUint16(end + 10, true);
  let p = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  for (let n = 0; n < count && p + 46 <= buf.length; n++) {
    if (view.getUint32(p, true) !== CENTRAL) return undefined;
    const method = view.getUint16(p + 10, true);
    const size = view.getUint32(p + 20, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const local = view.getUint32(p + 42, true);
    const entry = decoder.decode(buf.subarray(p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
    if (entry !== name) continue;
    if (view.getUint32(local, true) !== LOCAL) return undefined;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = buf.slice(start, start + size);
    if (method === 0) return decoder.decode(data);
    if (method !== 8) return undefined;
    const inflated = (new Response(data).body as ReadableStream).pipeThrough(new DecompressionStream('deflate-raw'));
    return await new Response(inflated).text();
  }
  return undefined;
}
