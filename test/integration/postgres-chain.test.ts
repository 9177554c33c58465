/**
 * The dev chain engine on Postgres next to SQLite: the same clock, txs and L1 messages give the
 * same blocks (hashes, archive roots), tips, receipts, logs, checkpoints and inbox indexes, so
 * the chain, L1 and world-state tables behave alike on both engines.
 * Needs a server: `bash scripts/postgres-start.sh` (see test/unit/store/engines.ts).
 * @module
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { createEngine } from '../../src/impl/engine.ts';
import { ManualClock } from '../../src/impl/chain/time.ts';
import { InMemoryTxSource, type MinableTx } from '../../src/impl/sequencer/tx-source.ts';
import { TreeId } from '../../src/impl/world-state/constants.ts';
import { openTestDatabase, type Engine } from '../unit/store/engines.ts';

const GENESIS = 1_800_000_000n;
const PAYER = 0x1001n;

function syntheticTx(seed: number): MinableTx {
  const s = BigInt(seed);
  return {
    txHash: 0xabc000n + s,
    feePayer: PAYER,
    gasSettings: {
      gasLimits: { daGas: 1000, l2Gas: 100000 },
      teardownGasLimits: { daGas: 0, l2Gas: 0 },
      maxFeesPerGas: { feePerDaGas: 10n ** 18n, feePerL2Gas: 10n ** 18n },
      maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: s },
    },
    gasUsed: { daGas: 100, l2Gas: 5000 },
    noteHashes: [0x100n + s, 0x200n + s],
    nullifiers: [0x300n + s, 0x400n + s],
    l2ToL1Msgs: [{ sender: 0xabcdn, recipient: 0x1111111111111111111111111111111111111111n, content: 7n + s }],
    privateLogs: [{ fields: [0x7a9n, ...Array.from({ length: 15 }, (_, i) => BigInt(i) + s)], emittedLength: 16 }],
    contractClassLogs: [],
    publicCallCount: 0,
  };
}

const json = (x: unknown) => JSON.stringify(x, (_, v) => (typeof v === 'bigint' ? v.toString() : v));

/** Drives one engine through 6 slots with txs and L1→L2 messages; returns everything read back. */
async function run(engine: Engine): Promise<string[]> {
  const clock = new ManualClock(Number(GENESIS) * 1000);
  const txSource = new InMemoryTxSource();
  const db = await openTestDatabase(engine);
  const e = await createEngine({
    db,
    clock,
    genesisTime: GENESIS,
    slotDurationSeconds: 4,
    slotsPerEpoch: 2,
    l1BlockSeconds: 4,
    proofDelaySeconds: 4,
    finalityDepth: 1,
    buildEmptyBlocks: true,
    fundedAccounts: [{ address: PAYER, amount: 10n ** 30n }],
    txSource,
  });
  const seen: string[] = [];
  try {
    for (let slot = 1; slot <= 6; slot++) {
      txSource.add(syntheticTx(slot));
      seen.push(json(await e.l1.sendL1ToL2Message(0x5000n + BigInt(slot))));
      clock.advance(4000);
      await e.tick();
      seen.push(json(await e.chain.getL2Tips()));
    }
    const latest = await e.chain.getBlockNumber();
    assert.ok(latest >= 5, `built ${latest} blocks`);
    for (let n = 0; n <= latest; n++) seen.push(json(await e.chain.findBlock(n)));
    const receipts = [];
    for (let s = 1; s <= 6; s++) receipts.push(await e.chain.getTxReceipt(0xabc000n + BigInt(s)));
    assert.ok(receipts.filter((r) => r.status === 'mined').length >= 5, json(receipts.map((r) => r.status)));
    seen.push(json(receipts));
    seen.push(json(await e.chain.getLogsByTags([0x7a9n], 100)));
    seen.push(json(await e.l1.inboxMessages(0, 100)));
    seen.push(json(await e.worldState.getTreeSnapshot(TreeId.ARCHIVE, 'latest')));
  } finally {
    await e.stop();
  }
  return seen;
}

it('the dev chain builds the same blocks, tips, receipts, logs and inbox on SQLite and Postgres', async () => {
  const sqlite = await run('sqlite');
  const pg = await run('postgres');
  assert.equal(pg.length, sqlite.length);
  for (let i = 0; i < sqlite.length; i++) assert.equal(pg[i], sqlite[i], `answer ${i}`);
});
