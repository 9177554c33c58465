/**
 * Harness of the whole-node process tests: starts bin/l2node.js on free ports with a short slot
 * and a fixed genesis time, calls it over HTTP (every result checked against the generated result
 * validator), and builds real-format txs for a funded dev account from what the node answers.
 * @module
 */
import assert from 'node:assert/strict';
import { publicMethods } from '../../src/generated/public/methods.ts';
import { anchorHeaderFromWire } from '../../src/impl/tx/anchor-header.ts';
import { buildPrivateTx, type BuiltTx } from '../../src/impl/tx/tx-builder.ts';
import { startNode, tempDir, type NodeProcess } from './server-process-harness.ts';

/** The node binary of the project (Node 24). */
export const NODE_BIN = new URL('../../node_modules/.bin/node', import.meta.url).pathname;

/** Chain flags of the tests: 1-second slots, 2-slot epochs, quick proofs and finality. */
export function chainFlags(genesisTime: number): string[] {
  return [
    '--genesis-time',
    String(genesisTime),
    '--slot-duration',
    '1',
    '--slots-per-epoch',
    '2',
    '--proof-delay',
    '1',
    '--finality-depth',
    '1',
    '--sequencer-polling-interval-ms',
    '100',
    '--no-admin-api-key',
    '--log-level',
    'info',
  ];
}

/** Starts a node with `dataDirectory` and extra flags. */
export async function startChainNode(
  dataDirectory: string,
  genesisTime: number,
  extra: string[] = [],
): Promise<NodeProcess> {
  return startNode(['--data-directory', dataDirectory, ...chainFlags(genesisTime), ...extra], {
    cwd: await tempDir(),
    node: NODE_BIN,
  });
}

let id = 0;

/** One JSON-RPC call; the raw response element. */
export async function rpc(
  url: string,
  method: string,
  ...params: unknown[]
): Promise<{ result?: any; error?: { code: number; message: string; data?: unknown } }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }),
  });
  assert.equal(res.status, 200);
  return res.json() as Promise<{ result?: any; error?: { code: number; message: string } }>;
}

/** A call that must succeed with a schema-valid result. */
export async function ok<T = any>(url: string, method: string, ...params: unknown[]): Promise<T> {
  const r = await rpc(url, method, ...params);
  assert.equal(r.error, undefined, `${method}: ${JSON.stringify(r.error)}`);
  assert.equal(publicMethods[method]!.validateResult(r.result), null, `${method} result fails its schema`);
  return r.result as T;
}

/** Polls `probe` every 100 ms until it returns a value other than undefined (at most `ms`). */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the node's pool counts `count` pending txs (a block's txs leave the pool in the block's own commit). */
export async function pendingCountIs(url: string, count: number, ms = 10_000): Promise<void> {
  let last: number | undefined;
  await waitFor(
    `node_getPendingTxCount ${count} at ${url}`,
    async () => ((last = await ok<number>(url, 'node_getPendingTxCount')) === count ? true : undefined),
    ms,
  ).catch((err: Error) => {
    throw new Error(`${err.message} (last: ${last})`);
  });
}

/** Builds a tx paid by `payer`, anchored at genesis, paying twice the node's current minimum fees. */
export async function txFor(url: string, payer: bigint, nullifier: bigint): Promise<BuiltTx> {
  const [header, fees, chainId, version] = await Promise.all([
    ok(url, 'node_getBlockHeader', 0),
    ok(url, 'node_getCurrentMinFees'),
    ok<number>(url, 'node_getChainId'),
    ok<number>(url, 'node_getVersion'),
  ]);
  return buildPrivateTx({
    chainId: BigInt(chainId),
    rollupVersion: BigInt(version),
    feePayer: payer,
    anchorBlockHeader: anchorHeaderFromWire(header),
    nullifiers: [nullifier],
    noteHashes: [nullifier + 1n],
    maxFeesPerGas: { feePerDaGas: BigInt(fees.feePerDaGas) * 2n, feePerL2Gas: BigInt(fees.feePerL2Gas) * 2n },
    maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1n },
  });
}

/** 0x + 64 hex. */
export const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');

/**
 * The node processes one test runs: `start` launches one (its own temp cwd, Node 24), `stop`
 * ends one with SIGTERM and expects exit code 0, `stopAll` ends the rest, newest first (for a
 * `finally`).
 */
export class NodeGroup {
  readonly #running: NodeProcess[] = [];

  async start(args: string[]): Promise<NodeProcess> {
    const n = await startNode(args, { cwd: await tempDir(), node: NODE_BIN });
    this.#running.push(n);
    return n;
  }

  async stop(n: NodeProcess): Promise<void> {
    this.#running.splice(this.#running.indexOf(n), 1);
    assert.equal(await n.stop('SIGTERM'), 0);
  }

  async stopAll(): Promise<void> {
    while (this.#running.length > 0) await this.stop(this.#running[this.#running.length - 1]!);
  }
}

/** The first p2p listen address a node logged in its "chain" line (a bootstrap peer for the others). */
export function p2pAddress(node: NodeProcess): string {
  const line = node
    .stderr()
    .split('\n')
    .find((l) => l.includes('"msg":"chain"'));
  assert.ok(line !== undefined, 'the chain log line is written before "listening"');
  return JSON.parse(line).p2p.listen[0];
}
