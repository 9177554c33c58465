/**
 * The node as the bot sees it: the few public methods it calls. In process it goes through the
 * same JSON-RPC dispatch as the node's HTTP server (generated params validator, handler, error
 * mapping); with `--bot.url` it is the typed client against that node.
 * @module
 */
import { createNodeClient, JsonRpcError } from '../../generated/public/client.ts';
import type { NodeClient } from '../../generated/public/client.ts';
import { ErrorCode } from '../../generated/public/errors.ts';
import { publicMethods } from '../../generated/public/methods.ts';
import { createDispatcher } from '../../server/json-rpc.ts';
import type { HandlerTable, Logger } from '../../server/types.ts';

/** The methods the bot calls. */
export type BotNode = Pick<
  NodeClient,
  'getBlockHeader' | 'getCurrentMinFees' | 'getChainId' | 'getVersion' | 'sendTx' | 'getTxReceipt'
>;

const BOT_METHODS = [
  'getBlockHeader',
  'getCurrentMinFees',
  'getChainId',
  'getVersion',
  'sendTx',
  'getTxReceipt',
] as const;

/** The node at `url` over HTTP (calls of one tick share a batch, as Aztec's client does). */
export function remoteBotNode(url: string): BotNode {
  return createNodeClient(url);
}

/** This node's public handlers, called through the RPC dispatcher; errors reject as `JsonRpcError`. */
export function inProcessBotNode(handlers: HandlerTable, logger: Logger): BotNode {
  const dispatch = createDispatcher({ methods: publicMethods, handlers, maxBatchSize: 1, logger });
  let id = 0;
  const call = async (method: string, params: unknown[]): Promise<unknown> => {
    const { body } = await dispatch({ jsonrpc: '2.0', id: id++, method, params });
    const answer = JSON.parse(body!) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
    if (answer.error !== undefined) throw new JsonRpcError(answer.error.code, answer.error.message, answer.error.data);
    return answer.result;
  };
  const node: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of BOT_METHODS) node[name] = (...args) => call(`node_${name}`, args);
  return node as unknown as BotNode;
}

const NAME_BY_CODE = new Map<number, string>(Object.entries(ErrorCode).map(([name, code]) => [code, name]));

/**
 * The key a failure is counted under: a pool rejection by its own code (LOW_PRIORITY_FEE,
 * INSUFFICIENT_FEE_PAYER_BALANCE, NULLIFIER_CONFLICT), other JSON-RPC errors by catalogue name
 * (TX_INVALID, NODE_NOT_READY, …), anything else (no answer) as UNREACHABLE.
 */
export function failureCode(err: unknown): string {
  if (!(err instanceof JsonRpcError)) return 'UNREACHABLE';
  if (err.code === ErrorCode.TX_POOL_REJECTED) {
    const code = (err.data as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') return code;
  }
  return NAME_BY_CODE.get(err.code) ?? `CODE_${err.code}`;
}
