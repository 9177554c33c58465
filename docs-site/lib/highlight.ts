/**
 * Syntax highlighting at build time with highlight.js: the pages ship coloured HTML (classes
 * `hljs-*`, coloured by assets/style.css in light and dark mode), no highlighter in the browser.
 * @module
 */
import { createRequire } from 'node:module';
import { esc } from './esc.ts';

// Loaded through require: highlight.js's type declarations pull the DOM library into the whole
// project's type check (and its `Headers` then shadows Node's), so the project does without them.
const require = createRequire(import.meta.url);
const hljs = require('highlight.js/lib/core') as {
  registerLanguage(name: string, lang: unknown): void;
  highlight(code: string, o: { language: string; ignoreIllegals: boolean }): { value: string };
};
for (const name of ['bash', 'go', 'json', 'python', 'typescript'])
  hljs.registerLanguage(name, require(`highlight.js/lib/languages/${name}`));

/** The names code fences and snippets use, mapped to highlight.js languages. */
const ALIASES: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  bash: 'bash',
  console: 'bash',
  json: 'json',
  jsonc: 'json',
  ts: 'typescript',
  typescript: 'typescript',
  js: 'typescript',
  javascript: 'typescript',
  py: 'python',
  python: 'python',
  go: 'go',
};

/** Code longer than this is shown plain: colouring a 600 kB base64 string helps no one. */
const MAX_HIGHLIGHTED = 60_000;

/** The highlighted HTML of `code` (escaped plain text for unknown languages and very long code). */
export function highlight(code: string, lang: string): string {
  const language = ALIASES[lang.toLowerCase()];
  if (!language || code.length > MAX_HIGHLIGHTED) return esc(code);
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
