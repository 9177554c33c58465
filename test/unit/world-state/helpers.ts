/**
 * Test helpers: an in-memory world state, header builders and hex parsing.
 * @module
 */
import assert from 'node:assert/strict';
import { after } from 'node:test';
import type { Knex } from 'knex';
import type { BlockHeader } from '../../../src/impl/chain/types.ts';
import type { Hasher } from '../../../src/impl/crypto/poseidon2-reference.ts';
import { emptyBlockHeader } from '../../../src/impl/world-state/block-header.ts';
import { ALL_TREE_IDS } from '../../../src/impl/world-state/constants.ts';
import type { BlockStateContext, TxTreeEffects } from '../../../src/impl/world-state/types.ts';
import type { WorldStateOptions } from '../../../src/impl/world-state/world-state.ts';
import { WorldState } from '../../../src/impl/world-state/world-state.ts';
import { openTestDatabase } from '../store/engines.ts';

const open: Knex[] = [];
// A failing assertion skips a test's own destroy(); close leftovers so the process can exit.
after(async () => {
  for (const db of open.splice(0)) await db.destroy();
});

/** Opens a fresh in-memory world state (closed after the test file if the test does not). */
export async function memoryWorldState(opts: Partial<WorldStateOptions> = {}): Promise<{ ws: WorldState; db: Knex }> {
  // In-memory SQLite, or a fresh Postgres schema under L2NODE_TEST_ENGINE=postgres (test/unit/store/engines.ts).
  const db = await openTestDatabase();
  open.push(db);
  return { ws: await WorldState.open({ db, ...opts }), db };
}

/** Header builder: the computed state with the given block number (other fields zero). */
export function headerFromState(ctx: BlockStateContext): BlockHeader {
  const h = emptyBlockHeader(ctx.state);
  return {
    ...h,
    lastArchive: ctx.lastArchive,
    globalVariables: { ...h.globalVariables, blockNumber: ctx.blockNumber },
  };
}

/** A tx effect with only tree-relevant fields. */
export function tx(p: Partial<TxTreeEffects>): TxTreeEffects {
  return { noteHashes: p.noteHashes ?? [], nullifiers: p.nullifiers ?? [], publicDataWrites: p.publicDataWrites ?? [] };
}

/** Parses a list of 0x-hex strings. */
export const big = (xs: readonly string[]): bigint[] => xs.map((x) => BigInt(x));

/**
 * Applies the same three blocks (`txsPerBlock` txs of 40 note hashes, 30 nullifiers and 5 public
 * writes, fields from `gen`, which must not repeat) to a world state on the default hasher and one on
 * `hasher`, and asserts every tree's snapshot is equal after each block.
 */
export async function assertSameTreesAsDefault(hasher: Hasher, gen: () => bigint, txsPerBlock: number): Promise<void> {
  const plain = await memoryWorldState();
  const other = await memoryWorldState({ hasher });
  try {
    for (let b = 1; b <= 3; b++) {
      const txs = Array.from({ length: txsPerBlock }, () =>
        tx({
          noteHashes: Array.from({ length: 40 }, gen),
          nullifiers: Array.from({ length: 30 }, gen),
          publicDataWrites: Array.from({ length: 5 }, () => ({ leafSlot: gen(), value: gen() })),
        }),
      );
      const block = { blockNumber: b, txEffects: txs, header: headerFromState };
      await plain.ws.applyBlock(block);
      await other.ws.applyBlock(block);
      for (const id of ALL_TREE_IDS) {
        assert.deepEqual(
          await other.ws.getTreeSnapshot(id, 'latest'),
          await plain.ws.getTreeSnapshot(id, 'latest'),
          `block ${b}, tree ${id}`,
        );
      }
    }
  } finally {
    await plain.db.destroy();
    await other.db.destroy();
  }
}
