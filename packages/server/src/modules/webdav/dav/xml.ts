// Request bodies (PROPFIND, PROPPATCH, LOCK) parsed with saxes, namespace-aware, into a small
// tree; and the serialisation of the XML we answer with. A DOCTYPE is refused outright: no
// internal subset means no entity can be declared, so neither external entities (XXE) nor
// entity expansion (billion laughs) can happen; saxes itself only knows the five predefined
// entities and character references, and refuses any other.
import { SaxesParser } from 'saxes';
import { DavError } from './errors.js';

export const DAV_NS = 'DAV:';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

export interface XmlAttr {
  ns: string;
  name: string;
  value: string;
}

export interface XmlElement {
  ns: string;
  name: string;
  attrs: XmlAttr[];
  children: (XmlElement | string)[];
}

/** Deeper nesting than any DAV body needs is refused (the tree is walked recursively). */
const MAX_DEPTH = 64;
const MAX_ELEMENTS = 20_000;

/** Parse a request body; not well-formed, a DOCTYPE or too deep / too many elements → 400. */
export function parseXml(body: Buffer): XmlElement {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    throw new DavError(400);
  }
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let count = 0;
  let refused = false;
  parser.on('doctype', () => {
    refused = true;
    throw new DavError(400);
  });
  parser.on('opentag', (tag) => {
    if (++count > MAX_ELEMENTS || stack.length >= MAX_DEPTH) {
      refused = true;
      throw new DavError(400);
    }
    const attrs: XmlAttr[] = [];
    for (const a of Object.values(tag.attributes)) {
      if (typeof a === 'string' || a.uri === XMLNS_NS) continue;
      attrs.push({ ns: a.uri, name: a.local, value: a.value });
    }
    const el: XmlElement = { ns: tag.uri ?? '', name: tag.local ?? tag.name, attrs, children: [] };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.on('text', (t) => {
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(t);
  });
  parser.on('cdata', (t) => {
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(t);
  });
  try {
    parser.write(text).close();
  } catch (err) {
    if (refused || err instanceof Error) throw new DavError(400);
    throw err;
  }
  if (!root) throw new DavError(400);
  return root;
}

/** The element children (text and whitespace dropped). */
export const elementsOf = (el: XmlElement): XmlElement[] =>
  el.children.filter((c): c is XmlElement => typeof c !== 'string');

export const isDav = (el: XmlElement, name: string) => el.ns === DAV_NS && el.name === name;

/** The text content of an element (its text children, nested elements' text too). */
export function textOf(el: XmlElement): string {
  let s = '';
  for (const c of el.children) s += typeof c === 'string' ? c : textOf(c);
  return s;
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escape text or an attribute value. */
export const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]);

/**
 * An element as self-contained XML: every element declares its own default namespace and every
 * namespaced attribute its prefix, so the string means the same wherever it is put (a dead
 * property inside our `D:prop`, a lock owner inside `D:activelock`).
 */
export function serialize(el: XmlElement): string {
  let s = `<${el.name} xmlns="${escapeXml(el.ns)}"`;
  let n = 0;
  for (const a of el.attrs) {
    if (a.ns === '') s += ` ${a.name}="${escapeXml(a.value)}"`;
    else if (a.ns === XML_NS) s += ` xml:${a.name}="${escapeXml(a.value)}"`;
    else {
      const p = `a${n++}`;
      s += ` xmlns:${p}="${escapeXml(a.ns)}" ${p}:${a.name}="${escapeXml(a.value)}"`;
    }
  }
  if (el.children.length === 0) return `${s}/>`;
  s += '>';
  for (const c of el.children) s += typeof c === 'string' ? escapeXml(c) : serialize(c);
  return `${s}</${el.name}>`;
}

/** The children of an element, serialised (a lock's `owner` content). */
export const serializeChildren = (el: XmlElement) =>
  el.children.map((c) => (typeof c === 'string' ? escapeXml(c) : serialize(c))).join('');

/** An empty element for a property name (`<name xmlns="ns"/>`, or `D:name` in DAV:). */
export function emptyElement(ns: string, name: string): string {
  return ns === DAV_NS ? `<D:${name}/>` : `<${name} xmlns="${escapeXml(ns)}"/>`;
}

export const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n';

/** A `DAV:error` body naming a precondition (RFC 4918 §16), with its hrefs. */
export function errorBody(condition: string, hrefs: readonly string[]): string {
  const inner = hrefs.map((h) => `<D:href>${escapeXml(h)}</D:href>`).join('');
  return `${XML_HEAD}<D:error xmlns:D="DAV:"><D:${condition}>${inner}</D:${condition}></D:error>\n`;
}

/** The status line text of a multistatus `D:status`. */
export function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Unknown'}`;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  412: 'Precondition Failed',
  423: 'Locked',
  424: 'Failed Dependency',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};
