// The small part of the DNS wire format a dynamic update needs (RFC 1035 §4, RFC 2136 §2):
// names without compression, an UPDATE message (zone, no prerequisites, update RRs) and a
// response reader that finds the TSIG record. dns-packet (5.6.1) has the UPDATE opcode but
// neither the NONE class nor a TSIG record type, so this is written out here.
import net from 'node:net';

export const TYPE = { A: 1, SOA: 6, TXT: 16, AAAA: 28, TSIG: 250 } as const;
export const CLASS = { IN: 1, NONE: 254, ANY: 255 } as const;
export const OPCODE_UPDATE = 5;

export const RCODE_NAMES: Record<number, string> = {
  0: 'NOERROR',
  1: 'FORMERR',
  2: 'SERVFAIL',
  3: 'NXDOMAIN',
  4: 'NOTIMP',
  5: 'REFUSED',
  6: 'YXDOMAIN',
  7: 'YXRRSET',
  8: 'NXRRSET',
  9: 'NOTAUTH',
  10: 'NOTZONE',
};

/** Name in wire form; `lower` for TSIG's canonical form (RFC 8945 §4.3.3). */
export function encodeName(name: string, lower = false): Buffer {
  const n = name.replace(/\.$/, '');
  const parts: Buffer[] = [];
  if (n !== '') {
    for (const label of n.split('.')) {
      const b = Buffer.from(lower ? label.toLowerCase() : label, 'ascii');
      if (b.length === 0 || b.length > 63) throw new Error(`bad label in "${name}"`);
      parts.push(Buffer.from([b.length]), b);
    }
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

export function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

export function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

/** 48-bit unsigned (TSIG time signed). */
export function u48(n: number): Buffer {
  const b = Buffer.alloc(6);
  b.writeUIntBE(n, 0, 6);
  return b;
}

export function addressRdata(ip: string): Buffer {
  if (net.isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  if (!net.isIPv6(ip)) throw new Error(`not an address: ${ip}`);
  const [l, r = ''] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const left = l ? l.split(':') : [];
  const right = r ? r.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return Buffer.concat(groups.map((g) => u16(Number.parseInt(g, 16))));
}

export interface ResourceRecord {
  name: string;
  type: number;
  cls: number;
  ttl: number;
  rdata: Buffer;
}

export function encodeRR(rr: ResourceRecord): Buffer {
  return Buffer.concat([encodeName(rr.name), u16(rr.type), u16(rr.cls), u32(rr.ttl), u16(rr.rdata.length), rr.rdata]);
}

/** An UPDATE message: header, zone section (zone SOA IN), no prerequisites, the updates. */
export function buildUpdate(id: number, zone: string, updates: ResourceRecord[]): Buffer {
  const header = Buffer.concat([u16(id), u16(OPCODE_UPDATE << 11), u16(1), u16(0), u16(updates.length), u16(0)]);
  const zoneSection = Buffer.concat([encodeName(zone), u16(TYPE.SOA), u16(CLASS.IN)]);
  return Buffer.concat([header, zoneSection, ...updates.map(encodeRR)]);
}

/** "Delete an RRset" (RFC 2136 §2.5.2) and "add to an RRset" (§2.5.1). */
export function replaceRRset(name: string, type: number, ttl: number, rdatas: Buffer[]): ResourceRecord[] {
  return [
    { name, type, cls: CLASS.ANY, ttl: 0, rdata: Buffer.alloc(0) },
    ...rdatas.map((rdata) => ({ name, type, cls: CLASS.IN, ttl, rdata })),
  ];
}

/** "Add to an RRset" (§2.5.1): a record the RRset already holds is ignored by the server. */
export function addRR(name: string, type: number, ttl: number, rdata: Buffer): ResourceRecord {
  return { name, type, cls: CLASS.IN, ttl, rdata };
}

/** "Delete an RR from an RRset" (§2.5.4): only the record with this rdata goes. */
export function deleteRR(name: string, type: number, rdata: Buffer): ResourceRecord {
  return { name, type, cls: CLASS.NONE, ttl: 0, rdata };
}

export function readName(buf: Buffer, offset: number): { name: string; next: number } {
  const labels: string[] = [];
  let off = offset;
  let next = -1;
  for (let hops = 0; hops < 128; hops++) {
    if (off >= buf.length) throw new Error('name runs past the message');
    const len = buf[off];
    if (len === 0) {
      if (next < 0) next = off + 1;
      return { name: labels.join('.'), next };
    }
    if ((len & 0xc0) === 0xc0) {
      if (next < 0) next = off + 2;
      off = ((len & 0x3f) << 8) | buf[off + 1];
      continue;
    }
    labels.push(buf.toString('ascii', off + 1, off + 1 + len));
    off += 1 + len;
  }
  throw new Error('name compression loop');
}

export interface TsigRecord {
  /** Where the TSIG record starts in the message. */
  offset: number;
  keyName: string;
  algorithm: string;
  timeSigned: number;
  fudge: number;
  mac: Buffer;
  originalId: number;
  error: number;
  other: Buffer;
}

export interface ParsedMessage {
  id: number;
  flags: number;
  opcode: number;
  rcode: number;
  truncated: boolean;
  arcount: number;
  tsig?: TsigRecord;
}

/** Reads the header and, walking past every record, a TSIG record at the end of the additional section. */
export function parseMessage(buf: Buffer): ParsedMessage {
  if (buf.length < 12) throw new Error('DNS answer too short');
  const id = buf.readUInt16BE(0);
  const flags = buf.readUInt16BE(2);
  const counts = [4, 6, 8, 10].map((o) => buf.readUInt16BE(o));
  let off = 12;
  for (let i = 0; i < counts[0]; i++) off = readName(buf, off).next + 4;
  const records = counts[1] + counts[2] + counts[3];
  let tsig: TsigRecord | undefined;
  for (let i = 0; i < records; i++) {
    const start = off;
    const { name, next } = readName(buf, off);
    const type = buf.readUInt16BE(next);
    const rdlen = buf.readUInt16BE(next + 8);
    const rd = next + 10;
    if (rd + rdlen > buf.length) throw new Error('record runs past the message');
    if (type === TYPE.TSIG && i === records - 1) {
      const alg = readName(buf, rd);
      let p = alg.next;
      const timeSigned = buf.readUIntBE(p, 6);
      const fudge = buf.readUInt16BE(p + 6);
      const macLen = buf.readUInt16BE(p + 8);
      p += 10;
      const mac = buf.subarray(p, p + macLen);
      p += macLen;
      const originalId = buf.readUInt16BE(p);
      const error = buf.readUInt16BE(p + 2);
      const otherLen = buf.readUInt16BE(p + 4);
      const other = buf.subarray(p + 6, p + 6 + otherLen);
      tsig = { offset: start, keyName: name, algorithm: alg.name, timeSigned, fudge, mac, originalId, error, other };
    }
    off = rd + rdlen;
  }
  return {
    id,
    flags,
    opcode: (flags >> 11) & 0xf,
    rcode: flags & 0xf,
    truncated: (flags & 0x0200) !== 0,
    arcount: counts[3],
    tsig,
  };
}
