/**
 * Copyable call snippets for a method: the JSON-RPC request, curl, and the generated TypeScript
 * client (`createNodeClient(url).getBlock(5)` / `createNodeAdminClient(url, { apiKey })` /
 * `createDevClient(url, { apiKey })`).
 * The playground builds the same curl line in the browser (assets/playground.js).
 * @module
 */
import { needsApiKey } from './model.ts';
import type { MethodModel, Surface } from './model.ts';

/** The default URL of each surface (the documents' `servers`, SPEC §1). */
export const DEFAULT_URLS: Record<Surface, string> = { public: 'http://127.0.0.1:8080', admin: 'http://127.0.0.1:8880', dev: 'http://127.0.0.1:8880' };

/** The JSON-RPC 2.0 request body for a call. */
export function requestBody(method: string, params: unknown[], id = 1): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method, params };
}

/** Quotes text for a POSIX shell in single quotes. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A curl command for a call; admin calls read the key from $ADMIN_API_KEY rather than embedding it. */
export function curlSnippet(m: Pick<MethodModel, 'name' | 'surface'>, params: unknown[], url = DEFAULT_URLS[m.surface]): string {
  const lines = [`curl -s -X POST ${url}`, `  -H 'Content-Type: application/json'`];
  if (needsApiKey(m.surface)) lines.push(`  -H "x-api-key: $ADMIN_API_KEY"`);
  lines.push(`  -d ${shellQuote(JSON.stringify(requestBody(m.name, params)))}`);
  return lines.join(' \\\n');
}

/** A call of the generated TypeScript client (src/generated/<surface>/client.ts). */
export function clientSnippet(m: Pick<MethodModel, 'handler' | 'surface'>, params: unknown[]): string {
  const args = params.map((p) => JSON.stringify(p)).join(', ');
  if (m.surface === 'dev') {
    return [
      `import { createDevClient } from './src/generated/dev/client.ts';`,
      ``,
      `const dev = createDevClient('${DEFAULT_URLS.dev}', { apiKey: process.env.ADMIN_API_KEY! });`,
      `const result = await dev.${m.handler}(${args});`,
    ].join('\n');
  }
  if (m.surface === 'admin') {
    return [
      `import { createNodeAdminClient } from './src/generated/admin/client.ts';`,
      ``,
      `const admin = createNodeAdminClient('${DEFAULT_URLS.admin}', { apiKey: process.env.ADMIN_API_KEY! });`,
      `const result = await admin.${m.handler}(${args});`,
    ].join('\n');
  }
  return [
    `import { createNodeClient } from './src/generated/public/client.ts';`,
    ``,
    `const node = createNodeClient('${DEFAULT_URLS.public}');`,
    `const result = await node.${m.handler}(${args});`,
  ].join('\n');
}
