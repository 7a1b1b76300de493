import type { FilebrowserFileType } from '@lucky/shared';
import mime from 'mime-types';

/** Extensions the editor and the highlighter open as text although their MIME type is not text/*. */
const TEXT_EXTENSIONS = new Set(
  'json jsonc json5 yaml yml toml ini conf cfg env properties xml svg md markdown txt log csv tsv sh bash zsh fish ps1 bat cmd py rb pl php js mjs cjs jsx ts mts cts tsx vue svelte css scss sass less html htm go rs c h cc cpp hpp cxx java kt kts swift cs fs lua r sql graphql gql proto dockerfile makefile cmake gradle nix tf hcl service timer mount srt vtt ass nfo'.split(
    ' ',
  ),
);
const TEXT_NAMES = new Set([
  'dockerfile',
  'makefile',
  'readme',
  'license',
  'changelog',
  '.gitignore',
  '.env',
  'caddyfile',
]);
const ARCHIVE_EXTENSIONS = new Set('zip tar gz tgz bz2 xz zst 7z rar iso'.split(' '));

const extension = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/** What the file manager makes of a file name: its icon, and which preview opens it. */
export function fileTypeOf(name: string, kind: 'file' | 'dir'): FilebrowserFileType {
  if (kind === 'dir') return 'dir';
  const ext = extension(name);
  if (ext === 'pdf') return 'pdf';
  if (ARCHIVE_EXTENSIONS.has(ext)) return 'archive';
  if (ext === 'svg') return 'image';
  if (TEXT_EXTENSIONS.has(ext) || TEXT_NAMES.has(name.toLowerCase())) return 'text';
  const type = mime.lookup(name) || '';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('text/')) return 'text';
  return 'other';
}

/**
 * The Content-Type a file is served with. Text is labelled UTF-8; HTML, SVG and XML are served
 * as plain text inline (a file on the box must never run script in the console's origin).
 */
export function contentTypeOf(name: string): string {
  const ext = extension(name);
  if (['html', 'htm', 'xhtml', 'svg', 'xml', 'js', 'mjs'].includes(ext)) return 'text/plain; charset=utf-8';
  const type = mime.lookup(name) || (fileTypeOf(name, 'file') === 'text' ? 'text/plain' : 'application/octet-stream');
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}
