// TXT spellings: zone-file quoting both ways, and the wire form RFC 2136 sends.
import dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { checkTxtValue, holdsTxt, quoteTxt, txtRdata, unquoteTxt } from './txt.js';

describe('TXT values', () => {
  it('quotes and unquotes, escapes included, long values as several strings', () => {
    expect(quoteTxt('abc')).toBe('"abc"');
    expect(quoteTxt('say "hi" \\o/')).toBe('"say \\"hi\\" \\\\o/"');
    expect(unquoteTxt('"say \\"hi\\" \\\\o/"')).toBe('say "hi" \\o/');
    const long = 'a'.repeat(300);
    expect(quoteTxt(long)).toBe(`"${'a'.repeat(255)}" "${'a'.repeat(45)}"`);
    expect(unquoteTxt(quoteTxt(long))).toBe(long);
    expect(unquoteTxt('"v=spf1 \\032-all"')).toBe('v=spf1  -all');
    // Unquoted text is the value as it is.
    expect(unquoteTxt('plain value')).toBe('plain value');
    expect(holdsTxt('"tok"', 'tok')).toBe(true);
    expect(holdsTxt('tok', 'tok')).toBe(true);
    expect(holdsTxt('"tok2"', 'tok')).toBe(false);
  });

  it('writes character-strings of at most 255 bytes on the wire', () => {
    const value = `${'x'.repeat(255)}yz`;
    const rdata = txtRdata(value);
    expect(rdata[0]).toBe(255);
    expect(rdata[256]).toBe(2);
    // dns-packet reads it back as the same strings.
    // dns-packet exports its per-type codecs at run time; its types name only the packet codec.
    const codecs = dnsPacket as unknown as { txt: { decode(b: Buffer): Buffer[] } };
    const decoded = codecs.txt.decode(Buffer.concat([Buffer.from([rdata.length >> 8, rdata.length & 255]), rdata]));
    expect(decoded.map((b: Buffer) => b.toString()).join('')).toBe(value);
  });

  it('takes printable ASCII only', () => {
    expect(() => checkTxtValue('Zm9v-YmFy_Lg')).not.toThrow();
    for (const bad of ['', 'a\nb', 'ü', '\u0000', 'x'.repeat(2049)]) expect(() => checkTxtValue(bad)).toThrow();
  });
});
