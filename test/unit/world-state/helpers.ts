/**
 * Test helpers: an in-memory world state, header builders and hex parsing.
 * @module
 */
import { after } from 'node:test';
import type { Knex } from 'knex';
import { openTestDatabase } from '../store/engines.ts';
import { WorldState } from '../../../src/impl/world-state/world-state.ts';
import type { WorldStateOptions } from '../../../src/impl/world-state/world-state.ts';
import { emptyBlockHeader } from '../../../src/impl/world-state/block-header.ts';
import type { BlockHeader } from '../../../src/impl/chain/types.ts';
import type { BlockStateContext, TxTreeEffects } from '../../../src/impl/world-state/types.ts';

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
