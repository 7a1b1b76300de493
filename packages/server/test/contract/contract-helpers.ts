// What the contract's guard tests share: the locale files, and the rule for what a code needs to
// be shown in both languages.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const repoRoot = root;

type Tree = { [k: string]: string | Tree };
const load = (lang: string): Tree =>
  JSON.parse(readFileSync(path.join(root, `packages/web/src/i18n/${lang}.json`), 'utf8')) as Tree;
export const LOCALES = { zh_CN: load('zh_CN'), en_US: load('en_US') };

const has = (tree: Tree, key: string) => {
  let at: string | Tree | undefined = tree;
  for (const part of key.split('.')) at = typeof at === 'object' ? at[part] : undefined;
  return typeof at === 'string' && at !== '';
};

/** The keys packages/web/src/i18n/coded.ts tries for a code, in order. */
export const codedKeys = (ns: string, kind: 'err' | 'reason' | 'log', code: string) => [
  `${ns}.${kind}_${code}`,
  // SHARED_CODED_NAMESPACES of coded.ts: the webhook's codes, which modules answer with.
  `webhook.${kind}_${code}`,
  `errors.${code}`,
  `common.err_${code}`,
];

/** The languages in which no key names this code (empty: translated in both). */
export function untranslated(ns: string, kind: 'err' | 'reason' | 'log', code: string): string[] {
  return Object.entries(LOCALES)
    .filter(([, tree]) => !codedKeys(ns, kind, code).some((k) => has(tree, k)))
    .map(([lang]) => lang);
}
