import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import {
  centralHeader,
  dataDescriptor,
  endRecords,
  LIMIT16,
  LIMIT32,
  localHeader,
  type WrittenEntry,
} from './zipRecords.js';

/** What every entry has: its path inside the archive ('/'-separated) and its time. */
interface EntryBase {
  name: string;
  mtime: Date;
  /** Unix mode with the type bits (0o100644, 0o40755); defaults 0o100664 / 0o40775. */
  mode?: number;
}

export type ZipEntry =
  | (EntryBase & { kind: 'dir' })
  /** A small file already in memory. */
  | (EntryBase & { kind: 'file'; data: Buffer })
  /**
   * A file opened only when the archive reaches it, so one source is open at a time. `size` is
   * what the listing said: a source that gives another number of bytes fails the archive (its
   * records would be wrong), and a size of 4 GiB or more makes a ZIP64 entry.
   */
  | (EntryBase & { kind: 'file'; size: number; open: () => Promise<Readable> });

/**
 * A zip of `entries` as a byte stream: stored (never compressed), UTF-8 names, DOS and Unix
 * (extended timestamp) mtimes, sizes and CRC-32 in a data descriptor after each file's bytes, so a
 * file is read once, as it streams; ZIP64 records where an entry, an offset or the count passes
 * the classic fields. The entries are pulled as the reader asks for bytes (an async generator
 * can walk folders lazily), a source is opened only when its turn comes and read no faster than
 * the output drains. A failing source or entry list destroys the stream with that error;
 * destroying the stream closes the open source and stops pulling entries.
 */
export function zipWriter(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>): Readable {
  // objectMode off: the window is counted in bytes (64 KiB), not in chunks.
  return Readable.from(archive(entries), { objectMode: false });
}

async function* archive(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>): AsyncGenerator<Buffer> {
  const written: WrittenEntry[] = [];
  let offset = 0;
  for await (const e of entries) {
    const isDir = e.kind === 'dir';
    const name = Buffer.from(isDir && !e.name.endsWith('/') ? `${e.name}/` : e.name, 'utf8');
    if (name.length === 0 || name.length > LIMIT16) throw new Error(`zip: bad entry name length ${name.length}`);
    const declared = e.kind === 'dir' ? 0 : 'data' in e ? e.data.length : e.size;
    const entry: WrittenEntry = {
      name,
      mtime: e.mtime,
      mode: e.mode ?? (isDir ? 0o40775 : 0o100664),
      isDir,
      // Decided before the bytes, since the local header says it: a descriptor's sizes are 8
      // bytes exactly when the local header carries a ZIP64 field.
      zip64Sizes: declared >= LIMIT32,
      // Folders and in-memory files have their CRC and sizes before the bytes: their local header
      // says them and no descriptor follows.
      streamed: e.kind === 'file' && !('data' in e),
      offset,
      crc: e.kind === 'file' && 'data' in e ? crc32(e.data) : 0,
      size: e.kind === 'file' && 'data' in e ? e.data.length : 0,
    };
    const head = localHeader(entry);
    offset += head.length;
    yield head;
    if (e.kind === 'file') {
      if ('data' in e) {
        if (e.data.length > 0) yield e.data;
        offset += e.data.length;
      } else {
        let crc = 0;
        let size = 0;
        const source = await e.open();
        // for-await destroys the source when the loop is left early (our stream destroyed).
        for await (const chunk of source as AsyncIterable<Buffer>) {
          crc = crc32(chunk, crc);
          size += chunk.length;
          yield chunk;
        }
        if (size !== e.size) throw new Error(`zip: ${e.name} gave ${size} bytes, ${e.size} expected`);
        offset += size;
        entry.crc = crc;
        entry.size = size;
        const tail = dataDescriptor(entry);
        offset += tail.length;
        yield tail;
      }
    }
    written.push(entry);
  }
  // The central directory goes out in slices so 100,000 entries do not become one huge buffer.
  const cdStart = offset;
  let slice: Buffer[] = [];
  let sliceBytes = 0;
  for (const entry of written) {
    const h = centralHeader(entry);
    slice.push(h);
    sliceBytes += h.length;
    offset += h.length;
    if (sliceBytes >= 64 * 1024) {
      yield Buffer.concat(slice);
      slice = [];
      sliceBytes = 0;
    }
  }
  if (slice.length > 0) yield Buffer.concat(slice);
  yield endRecords(written.length, cdStart, offset - cdStart);
}
