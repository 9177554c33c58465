/**
 * Copyable call snippets for a method, generated from the documents' examples: the JSON-RPC
 * request, and one runnable program per language — curl, TypeScript (the typed client), Python
 * (standard library) and Go (net/http). Each prints the node's answer; the e2e test runs every one
 * of them against a live node. The browser rewrites the URL and the API-key expression from the
 * reader's settings (assets/site.js), so they are marked here.
 * @module
 */
import { needsApiKey } from './model.ts';
import type { MethodModel, Surface } from './model.ts';

/** The default URL of each surface (the documents' `servers`). */
export const DEFAULT_URLS: Record<Surface, string> = {
  public: 'http://127.0.0.1:8080',
  admin: 'http://127.0.0.1:8880',
  dev: 'http://127.0.0.1:8880',
};

/** The snippet languages, in tab order; `hl` is the highlighter's language, `ext` the file a runner writes. */
export const SNIPPET_LANGS = [
  { id: 'curl', title: 'curl', hl: 'sh', ext: 'sh' },
  { id: 'typescript', title: 'TypeScript', hl: 'ts', ext: 'ts' },
  { id: 'python', title: 'Python', hl: 'py', ext: 'py' },
  { id: 'go', title: 'Go', hl: 'go', ext: 'go' },
] as const;
export type SnippetLang = (typeof SNIPPET_LANGS)[number]['id'];

/**
 * Where the TypeScript snippets import the typed client from (the `@l2node/client` package,
 * docs/PACKAGES.md), and its factory per surface: the one place to change when the client moves.
 */
export const CLIENT_PACKAGE = '@l2node/client';
export const CLIENT_IMPORT: Record<Surface, { module: string; factory: string; variable: string }> = {
  public: { module: CLIENT_PACKAGE, factory: 'createNodeClient', variable: 'node' },
  admin: { module: CLIENT_PACKAGE, factory: 'createNodeAdminClient', variable: 'admin' },
  dev: { module: CLIENT_PACKAGE, factory: 'createDevClient', variable: 'dev' },
};

/** The repository sources of the client package's entry points (what a test runs a snippet against before packing). */
export const CLIENT_PACKAGE_SOURCES: Record<string, string> = {
  [CLIENT_PACKAGE]: 'src/client/index.ts',
  [`${CLIENT_PACKAGE}/tx`]: 'src/client/tx.ts',
};

/** How each language reads the admin API key from the environment (the reader's key replaces it in the browser). */
export const KEY_EXPRESSIONS: Record<SnippetLang, string> = {
  curl: '$ADMIN_API_KEY',
  typescript: 'process.env.ADMIN_API_KEY!',
  python: 'os.environ["ADMIN_API_KEY"]',
  go: 'os.Getenv("ADMIN_API_KEY")',
};

/**
 * Stands for the key expression while a snippet is highlighted (one identifier token in every
 * language), so the page can wrap the expression in a span the browser rewrites.
 */
export const KEY_PLACEHOLDER = 'L2NODE_KEY_EXPRESSION';

/** The JSON-RPC 2.0 request body for a call. */
export function requestBody(method: string, params: unknown[], id = 1): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params };
}

/** Quotes text for a POSIX shell in single quotes. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The parts of a method a snippet needs. */
export type SnippetMethod = Pick<MethodModel, 'name' | 'handler' | 'surface'>;

/**
 * The snippet of `lang` for a call. `keyExpression` defaults to the language's environment read;
 * pass KEY_PLACEHOLDER to mark it for the page.
 */
export function snippet(
  lang: SnippetLang,
  m: SnippetMethod,
  params: unknown[],
  url = DEFAULT_URLS[m.surface],
  keyExpression = KEY_EXPRESSIONS[lang],
): string {
  switch (lang) {
    case 'curl':
      return curlSnippet(m, params, url, keyExpression);
    case 'typescript':
      return typescriptSnippet(m, params, url, keyExpression);
    case 'python':
      return pythonSnippet(m, params, url, keyExpression);
    case 'go':
      return goSnippet(m, params, url, keyExpression);
  }
}

/** Bodies longer than this go to curl on stdin rather than as an argument. */
const LARGE_BODY = 64 * 1024;

/** A curl command for a call; admin calls read the key from $ADMIN_API_KEY rather than embedding it. */
export function curlSnippet(
  m: Pick<MethodModel, 'name' | 'surface'>,
  params: unknown[],
  url = DEFAULT_URLS[m.surface],
  keyExpression = KEY_EXPRESSIONS.curl,
): string {
  const lines = [`curl -s -X POST ${url}`, `  -H 'Content-Type: application/json'`];
  if (needsApiKey(m.surface)) lines.push(`  -H "x-api-key: ${keyExpression}"`);
  const body = JSON.stringify(requestBody(m.name, params));
  // one command-line argument holds at most 128 kB (Linux): a larger body goes through stdin
  if (body.length > LARGE_BODY) return `${[...lines, `  --data-binary @-`].join(' \\\n')} <<'JSON'\n${body}\nJSON`;
  lines.push(`  -d ${shellQuote(body)}`);
  return lines.join(' \\\n');
}

/** A program calling the typed client (one method per RPC method; errors reject with JsonRpcError). */
export function typescriptSnippet(
  m: SnippetMethod,
  params: unknown[],
  url = DEFAULT_URLS[m.surface],
  keyExpression = KEY_EXPRESSIONS.typescript,
): string {
  const c = CLIENT_IMPORT[m.surface];
  const options = needsApiKey(m.surface) ? `, { apiKey: ${keyExpression} }` : '';
  const args = params.map((p) => JSON.stringify(p, null, JSON.stringify(p).length > 72 ? 2 : 0)).join(', ');
  return [
    `import { ${c.factory} } from '${c.module}';`,
    ``,
    `const ${c.variable} = ${c.factory}('${url}'${options});`,
    `const result = await ${c.variable}.${m.handler}(${args});`,
    `console.log(JSON.stringify(result, null, 2));`,
  ].join('\n');
}

/** A Python 3 program using only the standard library (urllib). */
export function pythonSnippet(
  m: SnippetMethod,
  params: unknown[],
  url = DEFAULT_URLS[m.surface],
  keyExpression = KEY_EXPRESSIONS.python,
): string {
  const headers = [`"Content-Type": "application/json"`];
  if (needsApiKey(m.surface)) headers.push(`"x-api-key": ${keyExpression}`);
  const body = `{"jsonrpc": "2.0", "id": 1, "method": "${m.name}", "params": ${pythonLiteral(params, 1)}}`;
  return [
    `import json`,
    ...(needsApiKey(m.surface) ? [`import os`] : []),
    `import urllib.request`,
    ``,
    `body = ${body}`,
    `request = urllib.request.Request(`,
    `    "${url}",`,
    `    data=json.dumps(body).encode(),`,
    `    headers={${headers.join(', ')}},`,
    `)`,
    `with urllib.request.urlopen(request) as response:`,
    `    answer = json.load(response)`,
    `print(json.dumps(answer, indent=2))`,
  ].join('\n');
}

/** A JSON value as a Python literal (None/True/False; JSON string escapes are valid in Python). */
export function pythonLiteral(value: unknown, indent = 0): string {
  const flat = JSON.stringify(value);
  const pad = (n: number) => '    '.repeat(n);
  const lit = (v: unknown, depth: number): string => {
    if (v === null || v === undefined) return 'None';
    if (v === true) return 'True';
    if (v === false) return 'False';
    if (typeof v !== 'object') return JSON.stringify(v);
    const short = JSON.stringify(v).length <= 60;
    const items = Array.isArray(v)
      ? v.map((x) => lit(x, depth + 1))
      : Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${lit(x, depth + 1)}`);
    const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
    if (items.length === 0) return open + close;
    if (short || flat.length <= 72) return `${open}${items.join(', ')}${close}`;
    return `${open}\n${items.map((i) => pad(depth + 1) + i).join(',\n')},\n${pad(depth)}${close}`;
  };
  return lit(value, indent);
}

/** A Go program using only net/http; it prints the node's answer as it comes. */
export function goSnippet(
  m: SnippetMethod,
  params: unknown[],
  url = DEFAULT_URLS[m.surface],
  keyExpression = KEY_EXPRESSIONS.go,
): string {
  const json = JSON.stringify(requestBody(m.name, params));
  const literal = json.includes('`') ? JSON.stringify(json) : `\`${json}\``;
  return [
    `package main`,
    ``,
    `import (`,
    `\t"bytes"`,
    `\t"io"`,
    `\t"net/http"`,
    `\t"os"`,
    `)`,
    ``,
    `func main() {`,
    `\tbody := []byte(${literal})`,
    `\treq, err := http.NewRequest("POST", "${url}", bytes.NewReader(body))`,
    `\tif err != nil {`,
    `\t\tpanic(err)`,
    `\t}`,
    `\treq.Header.Set("Content-Type", "application/json")`,
    ...(needsApiKey(m.surface) ? [`\treq.Header.Set("x-api-key", ${keyExpression})`] : []),
    `\tresp, err := http.DefaultClient.Do(req)`,
    `\tif err != nil {`,
    `\t\tpanic(err)`,
    `\t}`,
    `\tdefer resp.Body.Close()`,
    `\tio.Copy(os.Stdout, resp.Body)`,
    `}`,
  ].join('\n');
}
