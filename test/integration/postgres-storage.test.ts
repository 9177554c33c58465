/**
 * Storage on Postgres, for real: schema creation on an empty database, idempotent migrations,
 * refusal of other schema versions, numbers back from int8 columns, the same world state as
 * SQLite root for root and witness for witness, and block visibility to readers.
 * Needs a server: `bash scripts/postgres-start.sh` (see test/unit/store/engines.ts).
 * @module
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  openDatabase,
  getMetadata,
  readSnapshot,
  setMetadata,
  SchemaVersionError,
} from '../../src/impl/store/database.ts';
import { LATEST_SCHEMA_VERSION, migrations } from '../../src/impl/store/migrations/index.ts';
import { WorldState } from '../../src/impl/world-state/world-state.ts';
import { TreeId, TREE_HEIGHT } from '../../src/impl/world-state/constants.ts';
import { FIELD_MODULUS } from '../../src/impl/crypto/field.ts';
import type { WorldStateBlock } from '../../src/impl/world-state/types.ts';
import { openTestDatabase, testDatabaseUrl, testSchema } from '../unit/store/engines.ts';
import { headerFromState, tx } from '../unit/world-state/helpers.ts';

const TABLES = [
  'l2node_metadata',
  'ws_nodes',
  'ws_tree_state',
  'ws_indexed_leaves',
  'ws_indexed_keys',
  'ws_leaf_values',
  'ws_blocks',
  'chain_blocks',
  'chain_checkpoints',
  'chain_tx_effects',
  'chain_private_logs',
  'l1_inbox',
  'l1_checkpoints',
  'txpool_txs',
  'txpool_nullifiers',
];

/** Deterministic pseudo-random field elements (xorshift). */
function rng(seed: bigint): () => bigint {
  let s = seed;
  const word = () => {
    s ^= (s << 13n) & 0xffffffffffffffffn;
    s ^= s >> 7n;
    s ^= (s << 17n) & 0xffffffffffffffffn;
    return s;
  };
  return () => ((word() << 192n) | (word() << 128n) | (word() << 64n) | word()) % FIELD_MODULUS;
}

function randomBlocks(from: number, count: number, seed: bigint): WorldStateBlock[] {
  const r = rng(seed);
  const slots = [r(), r(), r()];
  return Array.from({ length: count }, (_, k) => ({
    blockNumber: from + k,
    txEffects: Array.from({ length: 1 + (k % 3) }, (_, t) =>
      tx({
        noteHashes: Array.from({ length: 1 + ((k + t) % 6) }, r),
        nullifiers: Array.from({ length: 1 + ((k * 3 + t) % 4) }, r),
        publicDataWrites: [
          { leafSlot: slots[(k + t) % 3]!, value: r() },
          { leafSlot: r(), value: r() },
        ],
      }),
    ),
    l1ToL2Messages: k % 2 === 0 ? [r(), r(), r()] : undefined,
    header: headerFromState,
  }));
}

const json = (x: unknown) => JSON.stringify(x, (_, v) => (typeof v === 'bigint' ? '0x' + v.toString(16) : v));

/** Everything a reader can ask of one block, as one comparable string per question. */
async function observe(ws: WorldState, block: number, blocks: readonly WorldStateBlock[]): Promise<string[]> {
  const out: string[] = [json(await ws.getSyncStatus())];
  for (const treeId of [
    TreeId.NULLIFIER_TREE,
    TreeId.NOTE_HASH_TREE,
    TreeId.PUBLIC_DATA_TREE,
    TreeId.L1_TO_L2_MESSAGE_TREE,
    TreeId.ARCHIVE,
  ]) {
    const snap = await ws.getTreeSnapshot(treeId, block);
    out.push(json(snap));
    // Every leaf of the small trees, a spread of the padded ones (first, middle, last).
    const n = snap.nextAvailableLeafIndex;
    const picks = n <= 40 ? Array.from({ length: n }, (_, i) => i) : [0, 1, Math.floor(n / 2), n - 2, n - 1];
    for (const i of picks) out.push(json(await ws.getSiblingPath(treeId, BigInt(i), block)));
  }
  const effects = blocks.flatMap((b) => b.txEffects);
  for (const n of effects.flatMap((t) => t.nullifiers)) {
    out.push(
      json(await ws.getNullifierMembershipWitness(block, n)),
      json(await ws.getLowNullifierMembershipWitness(block, n + 1n)),
    );
  }
  for (const h of effects.flatMap((t) => t.noteHashes)) out.push(json(await ws.getNoteHashMembershipWitness(block, h)));
  for (const w of effects.flatMap((t) => t.publicDataWrites))
    out.push(json(await ws.getPublicDataWitness(block, w.leafSlot)));
  const msgs = blocks.flatMap((b) => b.l1ToL2Messages ?? []);
  for (const m of msgs) out.push(json(await ws.getL1ToL2MessageMembershipWitness(block, m)));
  out.push(
    json(
      await ws.findLeafIndices(
        TreeId.NOTE_HASH_TREE,
        effects.flatMap((t) => t.noteHashes),
        block,
      ),
    ),
  );
  out.push(
    json(
      await ws.findLeafIndices(
        TreeId.NULLIFIER_TREE,
        effects.flatMap((t) => t.nullifiers),
        block,
      ),
    ),
  );
  const hash = (await ws.getBlockHash(block))!;
  out.push(json(await ws.getBlockHashMembershipWitness(block, hash)));
  return out;
}

describe('Postgres storage', () => {
  it("creates every part's tables on an empty database, records the schema version, and reopening migrates nothing", async () => {
    const url = testDatabaseUrl();
    const schema = testSchema();
    const db = await openDatabase({ dataDirectory: '', databaseUrl: url, databaseSchema: schema });
    for (const t of TABLES) assert.ok(await db.schema.hasTable(t), `table ${t}`);
    assert.equal(await getMetadata(db, 'schema_version'), String(LATEST_SCHEMA_VERSION));
    const ran = async () =>
      Number((await db('knex_migrations').count('* as n').first())!.n) +
      Number((await db('knex_migrations_txpool').count('* as n').first())!.n);
    assert.equal(await ran(), migrations.length);
    await db.destroy();
    const again = await openDatabase({ dataDirectory: '', databaseUrl: url, databaseSchema: schema });
    assert.equal(
      Number((await again('knex_migrations').count('* as n').first())!.n) +
        Number((await again('knex_migrations_txpool').count('* as n').first())!.n),
      migrations.length,
    );
    assert.equal(await getMetadata(again, 'schema_version'), String(LATEST_SCHEMA_VERSION));
    await again.destroy();
  });

  it('refuses a database of a newer schema version with a message that says so, and a reader refuses an unmigrated one', async () => {
    const url = testDatabaseUrl();
    const schema = testSchema();
    const db = await openDatabase({ dataDirectory: '', databaseUrl: url, databaseSchema: schema });
    await setMetadata(db, 'schema_version', String(LATEST_SCHEMA_VERSION + 1));
    await db.destroy();
    await assert.rejects(
      openDatabase({ dataDirectory: '', databaseUrl: url, databaseSchema: schema }),
      (err: unknown) => {
        assert.ok(err instanceof SchemaVersionError);
        assert.match(
          err.message,
          new RegExp(
            `schema version ${LATEST_SCHEMA_VERSION + 1} is newer than this l2node supports \\(${LATEST_SCHEMA_VERSION}\\)`,
          ),
        );
        return true;
      },
    );
    await assert.rejects(
      openDatabase({ dataDirectory: '', databaseUrl: url, databaseSchema: testSchema(), migrate: false }),
      /schema version 0 is older/,
    );
  });

  it('int8 columns and counts come back as numbers, binary columns as bytes', async () => {
    const db = await openTestDatabase('postgres');
    await WorldState.open({ db });
    const row = await db('ws_tree_state').where({ tree_id: TreeId.NULLIFIER_TREE }).first();
    assert.equal(typeof row.block_number, 'number');
    assert.equal(typeof row.size, 'number');
    assert.ok(Buffer.isBuffer(row.root) && row.root.length === 32);
    assert.deepEqual(await db('ws_tree_state').count('* as n').first(), { n: 5 });
  });

  it('the same blocks, an unwind and a re-application give the same roots, sibling paths and witnesses on SQLite and Postgres', async () => {
    const engines = { sqlite: await openTestDatabase('sqlite'), postgres: await openTestDatabase('postgres') };
    const sqlite = await WorldState.open({ db: engines.sqlite });
    const pg = await WorldState.open({ db: engines.postgres });
    const first = randomBlocks(1, 5, 0x5eedn);
    const redo = randomBlocks(4, 3, 0xbeefn);
    for (const ws of [sqlite, pg]) {
      for (const b of first) await ws.applyBlock(b);
      await ws.unwindTo(3);
      for (const b of redo) await ws.applyBlock(b);
    }
    const all = [...first.slice(0, 3), ...redo];
    let compared = 0;
    for (let block = 0; block <= 6; block++) {
      const [a, b] = [await observe(sqlite, block, all), await observe(pg, block, all)];
      assert.deepEqual(b, a, `block ${block}`);
      compared += a.length;
    }
    assert.ok(compared > 1000, `compared ${compared} answers`);
    assert.equal(TREE_HEIGHT[TreeId.NOTE_HASH_TREE], (await pg.getSiblingPath(TreeId.NOTE_HASH_TREE, 0n, 6)).length);
  });

  it('a block is invisible to other connections until its transaction commits, and a snapshot reader keeps its view', async () => {
    const db = await openTestDatabase('postgres');
    const ws = await WorldState.open({ db });
    const [b1, b2] = randomBlocks(1, 2, 0x1234n);
    const seenInside: number[] = [];
    // A second pool on the same schema: the reader of the next part of issue 13.
    const reader = await openDatabase({
      dataDirectory: '',
      databaseUrl: testDatabaseUrl(),
      databaseSchema: (db.client.config.searchPath as string[])[0]!,
      migrate: false,
    });
    try {
      await ws.applyBlock(b1!, async (trx) => {
        // Tree rows and the chain's own rows are written; nothing is committed yet.
        await trx('chain_meta').insert({ key: 'probe', value: 'block 1' });
        seenInside.push(Number((await reader('ws_blocks').max('block_number as n').first())!.n));
        seenInside.push(Number((await reader('ws_tree_state').where({ block_number: 1 }).count('* as n').first())!.n));
        seenInside.push(Number((await reader('chain_meta').where({ key: 'probe' }).count('* as n').first())!.n));
      });
      assert.deepEqual(seenInside, [0, 0, 0]);
      assert.equal(Number((await reader('ws_tree_state').where({ block_number: 1 }).count('* as n').first())!.n), 5);
      assert.equal((await reader('chain_meta').where({ key: 'probe' }).first())?.value, 'block 1');

      const views = await readSnapshot(reader, async (trx) => {
        const before = Number((await trx('ws_blocks').max('block_number as n').first())!.n);
        await ws.applyBlock(b2!);
        const after = Number((await trx('ws_blocks').max('block_number as n').first())!.n);
        return [before, after];
      });
      assert.deepEqual(views, [1, 1]);
      assert.equal(Number((await reader('ws_blocks').max('block_number as n').first())!.n), 2);
    } finally {
      await reader.destroy();
    }
  });

  it('a block whose transaction fails leaves nothing behind on Postgres', async () => {
    const db = await openTestDatabase('postgres');
    const ws = await WorldState.open({ db });
    const [b1] = randomBlocks(1, 1, 0x77n);
    await assert.rejects(
      ws.applyBlock(b1!, async () => {
        throw new Error('chain write failed');
      }),
      /chain write failed/,
    );
    assert.equal((await ws.getSyncStatus()).latestBlockNumber, 0);
    assert.deepEqual(await db('ws_nodes').where('block_number', '>', 0).count('* as n').first(), { n: 0 });
    assert.equal((await ws.applyBlock(b1!)).blockNumber, 1);
  });
});
