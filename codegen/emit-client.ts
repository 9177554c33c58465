/**
 * Emits `client.ts`: a typed JSON-RPC client over global fetch that batches the calls made in
 * one tick, as the real Aztec client does (test/wire/README.md).
 * @module
 */
import type { DocumentModel } from './model.ts';
import { header } from './emit-common.ts';

/** The source of `src/generated/<surface>/client.ts`. */
export function emitClient(model: DocumentModel): string {
  const s = model.surface;
  const members = model.methods.map((m) =>
    m.isVoid
      ? `    ${m.handler}: (...args) => call<unknown>('${m.name}', args).then(() => undefined),`
      : `    ${m.handler}: (...args) => call('${m.name}', args),`,
  );
  const factory = s.needsApiKey
    ? `/** Options of the ${s.name} client: the ${s.name === 'admin' ? '' : 'admin '}API key is required (SPEC §5). */
export interface AdminClientOptions extends ClientOptions {
  /** Sent as \`x-api-key\` on every request. */
  readonly apiKey: string;
}

/**
 * Creates a typed client for the ${s.name} API (${s.file})${s.name === 'admin' ? '' : ', served on the admin port'}.
 * @example
 * const ${s.name} = ${s.clientFactory}('http://127.0.0.1:8880', { apiKey });
 * await ${s.name}.${s.name === 'admin' ? 'pauseSync' : (model.methods.find((m) => m.params.length === 0)?.handler ?? 'call')}();
 */
export function ${s.clientFactory}(url: string, options: AdminClientOptions): ${s.clientType} {
  const call = createCaller(url, { ...options, headers: { ...options.headers, 'x-api-key': options.apiKey } });`
    : `/**
 * Creates a typed client for the public API (${s.file}).
 * @example
 * const node = ${s.clientFactory}('http://127.0.0.1:8080');
 * const block = await node.getBlock(5);
 */
export function ${s.clientFactory}(url: string, options: ClientOptions = {}): ${s.clientType} {
  const call = createCaller(url, options);`;
  return `${header(s)}/**
 * A typed client for ${s.file}: one method per RPC method; calls made in the same tick share one
 * batch request; JSON-RPC errors reject with JsonRpcError.
 * @module
 */
import type { ${s.handlersType} } from './handlers.ts';
import { createCaller, type ClientOptions } from '../runtime/client.ts';

export { JsonRpcError, type ClientOptions } from '../runtime/client.ts';

/** The client has exactly the handler interface's methods. */
export type ${s.clientType} = ${s.handlersType};

${factory}
  return {
${members.join('\n')}
  };
}
`;
}
