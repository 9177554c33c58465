/**
 * Tx hashing off the event loop, for the node only (worker threads and node:crypto: the client
 * package's tx builder, scripts/pack.ts, keeps to tx-hash.ts and tx-wire.ts). A tx's Poseidon2
 * hashes run as one job on the process's Poseidon2 worker (crypto/poseidon2-off-thread.ts), and a
 * tx hash this process computed is remembered by a digest of the `data` text it came from.
 * @module
 */
import { createHash } from 'node:crypto';
import { poseidon2HashesOffThread } from '../crypto/poseidon2-off-thread.ts';
import { type BuiltTx, type PrivateTxOptions, privateTxData, unprovenTx } from './tx-builder.ts';
import { calldataHashPreimage, txHashPreimage } from './tx-hash.ts';
import { checkedTx, readTxParts } from './tx-wire.ts';
import type { PrivateKernelTailCircuitPublicInputs, Tx } from './types.ts';

/**
 * poseidon2Hash of each input, as one job on the process's Poseidon2 worker
 * (crypto/poseidon2-off-thread.ts; on the main thread in slices while it starts, or if it cannot).
 * Resolves in call order.
 */
export function hashOffThread(inputs: readonly (readonly bigint[])[]): Promise<bigint[]> {
  return poseidon2HashesOffThread(inputs);
}

/** computeTxHash on the tx-hash worker. */
export async function computeTxHashOffThread(data: PrivateKernelTailCircuitPublicInputs): Promise<bigint> {
  return (await hashOffThread([txHashPreimage(data)]))[0]!;
}

/**
 * Tx hashes this process computed, by a digest of the `data` text they were computed from (a tx's
 * hash is a function of its `data` alone, so the same text always has the same hash): a tx this
 * process built — the in-process bot's — is not hashed a second time when node_sendTx decodes it.
 * The key is SHA-256 of the text (~0.1 ms for a tx) rather than the ~130 KB text itself.
 */
const knownTxHashes = new Map<string, bigint>();
const KNOWN_TX_HASHES = 256;

function dataKey(dataText: string): string {
  return createHash('sha256').update(dataText).digest('base64');
}

/** Records that the tx whose wire `data` is `dataText` hashes to `txHash` (computed here). */
export function rememberTxHash(dataText: string, txHash: bigint): void {
  const key = dataKey(dataText);
  knownTxHashes.delete(key);
  knownTxHashes.set(key, txHash);
  if (knownTxHashes.size > KNOWN_TX_HASHES) knownTxHashes.delete(knownTxHashes.keys().next().value!);
}

/** The hash rememberTxHash recorded for this `data` text, if any. */
export function knownTxHash(dataText: string): bigint | undefined {
  return knownTxHashes.get(dataKey(dataText));
}

/**
 * decodeTx for a caller's request or a gossiped tx: the same checks and refusals, with the
 * Poseidon2 hashing (~24 ms for an ordinary tx, up to ~0.1 s for a maximal one) done as one job on
 * the Poseidon2 worker, so the event loop keeps serving meanwhile. Calls resolve in the
 * order they were made. A tx hash this process already computed from the same `data` text (the
 * in-process bot's) is not computed again.
 */
export async function decodeTxOffThread(json: unknown, path = 'tx'): Promise<Tx> {
  const own = ownTx(json);
  if (own !== undefined) {
    // Still through the worker's queue (an empty job): calls resolve in the order made.
    await hashOffThread([]);
    return own;
  }
  const parts = readTxParts(json, path);
  const dataText = (json as { data: string }).data;
  const known = knownTxHash(dataText);
  const inputs = [
    ...parts.publicFunctionCalldata.map((c) => calldataHashPreimage(c.values)),
    ...parts.contractClassLogFields.map((l) => l.fields),
    ...(known === undefined ? [txHashPreimage(parts.data)] : []),
  ];
  // Even with nothing to hash, through the worker's queue: calls resolve in the order made.
  const out = await hashOffThread(inputs);
  const calls = parts.publicFunctionCalldata.length;
  const logs = parts.contractClassLogFields.length;
  const tx = known ?? out[calls + logs]!;
  if (known === undefined) rememberTxHash(dataText, tx);
  return checkedTx(parts, path, { calldata: out.slice(0, calls), classLogs: out.slice(calls, calls + logs), tx });
}

/**
 * buildPrivateTx with the tx hash computed on the Poseidon2 worker, for a builder in a
 * serving process (the in-process bot); the built tx is remembered by its wire object, so
 * node_sendTx of that object neither decodes nor hashes it again.
 */
export async function buildPrivateTxOffThread(o: PrivateTxOptions): Promise<BuiltTx> {
  const data = privateTxData(o);
  const built = unprovenTx(data, await computeTxHashOffThread(data), [], []);
  rememberOwnTx(built);
  return built;
}

/**
 * Txs this process built (the in-process bot's), by the very wire object it built, with the member
 * values it had then: node_sendTx in the same process receives that object through the JSON-RPC
 * dispatcher (validated, not copied), and decoding it again would rebuild the `Tx` the builder
 * already has (~134 KB of base64 and ~2 000 proof fields read back, issue #21). Held weakly: an
 * entry lives as long as the wire object. A client's tx, parsed from a request, is never here.
 */
const ownTxs = new WeakMap<object, { readonly members: readonly unknown[]; readonly tx: Tx }>();

function membersOf(wire: Record<string, unknown>): unknown[] {
  return [wire.txHash, wire.data, wire.chonkProof, wire.contractClassLogFields, wire.publicFunctionCalldata];
}

function rememberOwnTx(built: BuiltTx): void {
  // Only the shape the bot builds (no class logs, no public calls): the arrays are then empty and stay comparable by length.
  if (built.wire.contractClassLogFields.length > 0 || built.wire.publicFunctionCalldata.length > 0) return;
  ownTxs.set(built.wire, { members: membersOf(built.wire as unknown as Record<string, unknown>), tx: built.tx });
}

/**
 * The `Tx` this process built for `json`, when `json` is that wire object with the same members
 * (strings compared by value: the same instances compare at once) and no others: what decodeTx would
 * return for it (test/unit/tx/tx-decode-off-thread.test.ts checks they are equal).
 */
function ownTx(json: unknown): Tx | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const own = ownTxs.get(json);
  if (own === undefined) return undefined;
  const wire = json as Record<string, unknown>;
  if (Object.keys(wire).length !== own.members.length) return undefined;
  const now = membersOf(wire);
  for (let i = 0; i < now.length; i++) {
    const was = own.members[i];
    const is = now[i];
    if (Array.isArray(was)) {
      if (!Array.isArray(is) || is.length !== 0) return undefined;
    } else if (is !== was) return undefined;
  }
  return own.tx;
}
