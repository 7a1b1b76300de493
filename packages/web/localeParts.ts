// Vite plugin: `virtual:locale-part/<lang>-<part>` is the part of src/i18n/<lang>.json that
// src/i18n/parts.ts assigns to <part>, as its own module (and so its own chunk).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { LANGUAGES } from '../shared/src/limits.ts';
import { LOCALE_PART_PREFIX, LOCALE_PARTS, type LocalePart, localePart } from './src/i18n/parts.ts';

export function localeParts(i18nDir: string): Plugin {
  const resolved = `\0${LOCALE_PART_PREFIX}`;
  return {
    name: 'lucky-locale-parts',
    resolveId(id) {
      return id.startsWith(LOCALE_PART_PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(resolved)) return undefined;
      const [lang, part] = id.slice(resolved.length).split('-');
      if (!(LANGUAGES as readonly string[]).includes(lang) || !(LOCALE_PARTS as readonly string[]).includes(part))
        throw new Error(`unknown locale part ${id.slice(1)}`);
      const file = path.join(i18nDir, `${lang}.json`);
      this.addWatchFile(file);
      const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      return `export default ${JSON.stringify(localePart(messages, part as LocalePart))};\n`;
    },
  };
}
