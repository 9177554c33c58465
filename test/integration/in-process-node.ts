/**
 * A whole node (node.ts composition plus its admin side) in this process, on a manual clock:
 * what `bin/l2node.js` builds, minus the HTTP servers, so a test can drive time, production steps,
 * pause/resume and rollback through the real handlers, and "kill -9" it — drop every object
 * without closing anything (no pool close, no engine stop, no flush) and reopen the same
 * database, as a SIGKILL between two steps leaves it.
 * @module
 */
import type { Config } from '../../src/config/options.ts';
import { parseCommand } from '../../src/config/parse.ts';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { createNode } from '../../src/impl/node.ts';
import type { L2Node } from '../../src/impl/node-types.ts';
import { createAdminHandlers, type AdminHandlerSet } from '../../src/impl/rpc/admin/index.ts';
import { anchorHeaderFromWire } from '../../src/impl/tx/anchor-header.ts';
import { buildPrivateTx, type BuiltTx } from '../../src/impl/tx/tx-builder.ts';
import { silentLogger } from '../../src/server/logger.ts';

/** Genesis of the in-process chains: slot 1 starts one slot later. */
export const IN_PROCESS_GENESIS = 1_800_000_000;
/** Slot length of the in-process chains (seconds). */
export const SLOT_SECONDS = 4;

/** A node built in-process with its admin handlers. */
export interface InProcessNode {
  readonly node: L2Node;
  readonly admin: AdminHandlerSet;
  readonly config: Config;
}

/** Where the node keeps its data: a SQLite directory, or a Postgres URL. */
export type NodeStorage = { readonly dataDirectory: string } | { readonly databaseUrl: string };

/** The flags of the in-process chains (plus `extra`). */
export function inProcessConfig(storage: NodeStorage, extra: readonly string[] = []): Config {
  const where =
    'databaseUrl' in storage
      ? ['--data-directory', '', '--database-url', storage.databaseUrl]
      : ['--data-directory', storage.dataDirectory];
  const command = parseCommand(
    [
      ...where,
      '--genesis-time',
      String(IN_PROCESS_GENESIS),
      '--slot-duration',
      String(SLOT_SECONDS),
      '--slots-per-epoch',
      '2',
      '--proof-delay',
      String(3 * SLOT_SECONDS),
      '--finality-depth',
      '2',
      '--no-admin-api-key',
      '--log-level',
      'silent',
      ...extra,
    ],
    {},
  );
  if (command.kind !== 'run') throw new Error('unexpected --help');
  return command.config;
}

/** Opens the node and its admin side; nothing runs on its own (the test calls `node.step()`). */
export async function openInProcessNode(config: Config, clock: ManualClock): Promise<InProcessNode> {
  const node = await createNode({ config, logger: silentLogger, nodeVersion: '0.0.0-test', clock, admin: true });
  return { node, admin: createAdminHandlers(node.admin!.adminDeps), config };
}

/** SIGKILL between two steps: nothing is closed or flushed; only the database connections go. */
export async function crash(n: InProcessNode): Promise<void> {
  await n.node.db.destroy();
}

/** A clock at the start of slot `slot` of the in-process chains. */
export function clockAtSlot(slot: number): ManualClock {
  return new ManualClock((IN_PROCESS_GENESIS + slot * SLOT_SECONDS) * 1000);
}

/** A private tx paid by `payer` with `nullifiers`, anchored at block `anchor` of the node's chain, paying `feeFactor` × the current minimum fees. */
export async function txAnchoredAt(
  n: InProcessNode,
  o: {
    anchor: number;
    payer: bigint;
    nullifiers: readonly bigint[];
    priorityFee?: bigint;
    expirationTimestamp?: bigint;
    feeFactor?: bigint;
  },
): Promise<BuiltTx> {
  const h = n.node.publicHandlers;
  const header = await h.getBlockHeader!(o.anchor);
  if (header === null) throw new Error(`no block ${o.anchor}`);
  const fees = await h.getCurrentMinFees!();
  const factor = o.feeFactor ?? 10n;
  return buildPrivateTx({
    chainId: BigInt(n.config.l1ChainId),
    rollupVersion: BigInt(n.config.rollupVersion),
    feePayer: o.payer,
    anchorBlockHeader: anchorHeaderFromWire(header as Parameters<typeof anchorHeaderFromWire>[0]),
    nullifiers: [...o.nullifiers],
    noteHashes: [o.nullifiers[0]! + 1n],
    maxFeesPerGas: {
      feePerDaGas: BigInt(fees.feePerDaGas) * factor + 1n,
      feePerL2Gas: BigInt(fees.feePerL2Gas) * factor + (o.priorityFee ?? 1n),
    },
    maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: o.priorityFee ?? 1n },
    expirationTimestamp: o.expirationTimestamp ?? BigInt(IN_PROCESS_GENESIS + 1_000_000),
  });
}
