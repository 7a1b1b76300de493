// The byte layouts of a zip's records (PKWARE APPNOTE 6.3: 4.3.7 local header, 4.3.9 data
// descriptor, 4.3.12 central header, 4.3.14–16 ZIP64 end records and the end record; 4.5.3 the
// ZIP64 extra field; Info-ZIP's extended timestamp 0x5455). Stored entries only: the compressed
// size is always the size.

/** The classic fields' limits: a value this large or larger moves to a ZIP64 field. */
export const LIMIT32 = 0xffffffff;
export const LIMIT16 = 0xffff;

/** One entry as the central directory will describe it. */
export interface WrittenEntry {
  name: Buffer;
  mtime: Date;
  mode: number;
  isDir: boolean;
  /** The local header carries a ZIP64 field, the descriptor 8-byte sizes. */
  zip64Sizes: boolean;
  /** CRC and sizes follow the bytes in a data descriptor (general purpose bit 3). */
  streamed: boolean;
  /** Where the local header starts. */
  offset: number;
  crc: number;
  size: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_DESCRIPTOR = 0x08074b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_ZIP64_END = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_END = 0x06054b50;
/** Bit 11: names are UTF-8. Bit 3: a data descriptor follows the bytes. */
const FLAG_UTF8 = 0x0800;
const FLAG_DESCRIPTOR = 0x0008;
const NEEDED = 20;
const NEEDED_ZIP64 = 45;
/** Made on Unix (3, so readers take the mode from the external attributes), spec 4.5. */
const MADE_BY = (3 << 8) | 45;
const DOS_DIRECTORY = 0x10;

const flags = (e: WrittenEntry) => FLAG_UTF8 | (e.streamed ? FLAG_DESCRIPTOR : 0);

/** DOS date and time in local time, as readers without the extended timestamp show them. */
function dosTime(d: Date): { time: number; date: number } {
  const year = d.getFullYear();
  if (Number.isNaN(year) || year < 1980) return { time: 0, date: (1 << 5) | 1 };
  if (year > 2107) return { time: (23 << 11) | (59 << 5) | 29, date: (127 << 9) | (12 << 5) | 31 };
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** Unix seconds for the extended timestamp, a signed 32-bit field. */
function unixSeconds(d: Date): number {
  const s = Math.floor(d.getTime() / 1000);
  if (Number.isNaN(s)) return 0;
  return Math.min(0x7fffffff, Math.max(-0x80000000, s));
}

/** The extended timestamp with the modification time only (the same in both headers). */
function timestampField(d: Date): Buffer {
  const b = Buffer.alloc(9);
  b.writeUInt16LE(0x5455, 0);
  b.writeUInt16LE(5, 2);
  b.writeUInt8(1, 4); // bit 0: mtime present
  b.writeInt32LE(unixSeconds(d), 5);
  return b;
}

/** A ZIP64 extra field holding `values` (8 bytes each, in the order the spec lists them). */
function zip64Field(values: number[]): Buffer {
  const b = Buffer.alloc(4 + 8 * values.length);
  b.writeUInt16LE(0x0001, 0);
  b.writeUInt16LE(8 * values.length, 2);
  for (const [i, v] of values.entries()) b.writeBigUInt64LE(BigInt(v), 4 + 8 * i);
  return b;
}

export function localHeader(e: WrittenEntry): Buffer {
  // A streamed entry's local header has zeros where the descriptor will tell; a ZIP64 one has
  // the sentinel in the classic fields and both sizes in its ZIP64 field (4.5.3 asks for both).
  const sizeKnown = e.streamed ? 0 : e.size;
  const extra = Buffer.concat([...(e.zip64Sizes ? [zip64Field([sizeKnown, sizeKnown])] : []), timestampField(e.mtime)]);
  const b = Buffer.alloc(30 + e.name.length + extra.length);
  const { time, date } = dosTime(e.mtime);
  b.writeUInt32LE(SIG_LOCAL, 0);
  b.writeUInt16LE(e.zip64Sizes ? NEEDED_ZIP64 : NEEDED, 4);
  b.writeUInt16LE(flags(e), 6);
  b.writeUInt16LE(0, 8); // stored
  b.writeUInt16LE(time, 10);
  b.writeUInt16LE(date, 12);
  b.writeUInt32LE(e.streamed ? 0 : e.crc, 14);
  b.writeUInt32LE(e.zip64Sizes ? LIMIT32 : sizeKnown, 18);
  b.writeUInt32LE(e.zip64Sizes ? LIMIT32 : sizeKnown, 22);
  b.writeUInt16LE(e.name.length, 26);
  b.writeUInt16LE(extra.length, 28);
  e.name.copy(b, 30);
  extra.copy(b, 30 + e.name.length);
  return b;
}

export function dataDescriptor(e: WrittenEntry): Buffer {
  const b = Buffer.alloc(e.zip64Sizes ? 24 : 16);
  b.writeUInt32LE(SIG_DESCRIPTOR, 0);
  b.writeUInt32LE(e.crc, 4);
  if (e.zip64Sizes) {
    b.writeBigUInt64LE(BigInt(e.size), 8);
    b.writeBigUInt64LE(BigInt(e.size), 16);
  } else {
    b.writeUInt32LE(e.size, 8);
    b.writeUInt32LE(e.size, 12);
  }
  return b;
}

export function centralHeader(e: WrittenEntry): Buffer {
  // The ZIP64 field holds exactly the values whose classic field shows the sentinel.
  const bigSize = e.size >= LIMIT32;
  const bigOffset = e.offset >= LIMIT32;
  const wide = [...(bigSize ? [e.size, e.size] : []), ...(bigOffset ? [e.offset] : [])];
  const extra = Buffer.concat([...(wide.length > 0 ? [zip64Field(wide)] : []), timestampField(e.mtime)]);
  const b = Buffer.alloc(46 + e.name.length + extra.length);
  const { time, date } = dosTime(e.mtime);
  b.writeUInt32LE(SIG_CENTRAL, 0);
  b.writeUInt16LE(MADE_BY, 4);
  b.writeUInt16LE(wide.length > 0 || e.zip64Sizes ? NEEDED_ZIP64 : NEEDED, 6);
  b.writeUInt16LE(flags(e), 8);
  b.writeUInt16LE(0, 10);
  b.writeUInt16LE(time, 12);
  b.writeUInt16LE(date, 14);
  b.writeUInt32LE(e.crc, 16);
  b.writeUInt32LE(bigSize ? LIMIT32 : e.size, 20);
  b.writeUInt32LE(bigSize ? LIMIT32 : e.size, 24);
  b.writeUInt16LE(e.name.length, 28);
  b.writeUInt16LE(extra.length, 30);
  b.writeUInt16LE(0, 32); // comment
  b.writeUInt16LE(0, 34); // disk
  b.writeUInt16LE(0, 36); // internal attributes
  b.writeUInt32LE(((e.mode << 16) | (e.isDir ? DOS_DIRECTORY : 0)) >>> 0, 38);
  b.writeUInt32LE(bigOffset ? LIMIT32 : e.offset, 42);
  e.name.copy(b, 46);
  extra.copy(b, 46 + e.name.length);
  return b;
}

/** The end records; the ZIP64 pair first when the count, the directory's size or its offset overflow. */
export function endRecords(count: number, cdStart: number, cdSize: number): Buffer {
  const zip64 = count >= LIMIT16 || cdStart >= LIMIT32 || cdSize >= LIMIT32;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(SIG_END, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(Math.min(count, LIMIT16), 8);
  end.writeUInt16LE(Math.min(count, LIMIT16), 10);
  end.writeUInt32LE(Math.min(cdSize, LIMIT32), 12);
  end.writeUInt32LE(Math.min(cdStart, LIMIT32), 16);
  end.writeUInt16LE(0, 20); // comment
  if (!zip64) return end;
  const rec = Buffer.alloc(56);
  rec.writeUInt32LE(SIG_ZIP64_END, 0);
  rec.writeBigUInt64LE(44n, 4); // the record's size after this field
  rec.writeUInt16LE(MADE_BY, 12);
  rec.writeUInt16LE(NEEDED_ZIP64, 14);
  rec.writeUInt32LE(0, 16);
  rec.writeUInt32LE(0, 20);
  rec.writeBigUInt64LE(BigInt(count), 24);
  rec.writeBigUInt64LE(BigInt(count), 32);
  rec.writeBigUInt64LE(BigInt(cdSize), 40);
  rec.writeBigUInt64LE(BigInt(cdStart), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(SIG_ZIP64_LOCATOR, 0);
  locator.writeUInt32LE(0, 4);
  locator.writeBigUInt64LE(BigInt(cdStart + cdSize), 8);
  locator.writeUInt32LE(1, 16);
  return Buffer.concat([rec, locator, end]);
}
