// Syntax colouring for the text preview. highlight.js is loaded on first use, its core and only the
// one grammar a file's extension asks for (each a small chunk of its own), so neither the app's
// main bundle nor the file manager's screen grows by the hundreds of kB of the full build.
import type { HLJSApi, LanguageFn } from 'highlight.js';

type Loader = () => Promise<{ default: LanguageFn }>;

/** Grammar by name; the dynamic imports are literal so the bundler makes one chunk per grammar. */
const GRAMMARS: Record<string, Loader> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  css: () => import('highlight.js/lib/languages/css'),
  go: () => import('highlight.js/lib/languages/go'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  python: () => import('highlight.js/lib/languages/python'),
  rust: () => import('highlight.js/lib/languages/rust'),
  sql: () => import('highlight.js/lib/languages/sql'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

const BY_EXTENSION: Record<string, keyof typeof GRAMMARS> = {
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  css: 'css',
  go: 'go',
  ini: 'ini',
  conf: 'ini',
  cfg: 'ini',
  toml: 'ini',
  properties: 'ini',
  java: 'java',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  json: 'json',
  md: 'markdown',
  markdown: 'markdown',
  py: 'python',
  rs: 'rust',
  sql: 'sql',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  html: 'xml',
  htm: 'xml',
  xml: 'xml',
  svg: 'xml',
  vue: 'xml',
  yml: 'yaml',
  yaml: 'yaml',
};

/** The grammar a file name asks for, or undefined (plain text). */
export function languageOf(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

let core: Promise<HLJSApi> | undefined;

/**
 * The text as highlight.js's HTML (every character of the text escaped by highlight.js, only its
 * own `<span class>` added), or undefined when the name has no grammar here.
 */
export async function highlightText(name: string, text: string): Promise<string | undefined> {
  const language = languageOf(name);
  if (!language) return undefined;
  // The colours come with the core (a small stylesheet of its own chunk).
  core ??= Promise.all([import('highlight.js/lib/core'), import('highlight.js/styles/github.css')]).then(
    ([m]) => m.default,
  );
  const hljs = await core;
  if (!hljs.getLanguage(language)) hljs.registerLanguage(language, (await GRAMMARS[language]()).default);
  return hljs.highlight(text, { language, ignoreIllegals: true }).value;
}
