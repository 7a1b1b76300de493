import { describe, expect, it } from 'vitest';
import { DavError } from './errors.js';
import { parseXml, serialize } from './xml.js';

describe('request XML', () => {
  it('resolves namespaces and serialises a property self-contained', () => {
    const root = parseXml(
      Buffer.from(
        '<D:prop xmlns:D="DAV:" xmlns:t="urn:t"><t:p a="1" t:b="2" xml:lang="en"><foo xmlns="urn:f">&lt;x&gt;&#65536;</foo></t:p></D:prop>',
      ),
    );
    const p = root.children[0];
    expect(typeof p).toBe('object');
    if (typeof p === 'string') return;
    expect(serialize(p)).toBe(
      '<p xmlns="urn:t" a="1" xmlns:a0="urn:t" a0:b="2" xml:lang="en"><foo xmlns="urn:f">&lt;x&gt;\u{10000}</foo></p>',
    );
  });

  it('refuses DOCTYPEs, unknown entities, bad namespaces, bad UTF-8 and deep nesting', () => {
    const bad = [
      '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>',
      '<!DOCTYPE x SYSTEM "file:///etc/passwd"><x/>',
      '<x>&undefined;</x>',
      '<D:x xmlns:D="DAV:"><b:y xmlns:b=""/></D:x>',
      '<x>',
      '',
      `${'<a>'.repeat(100)}${'</a>'.repeat(100)}`,
    ];
    for (const b of bad) expect(() => parseXml(Buffer.from(b)), b).toThrow(DavError);
    expect(() => parseXml(Buffer.from([0x3c, 0x78, 0x3e, 0xff, 0x3c, 0x2f, 0x78, 0x3e]))).toThrow(DavError);
  });
});
