/**
 * Follower catch-up benchmark (prints figures, asserts nothing): a proposer builds `blocks` blocks
 * of `txsPerBlock` txs on a manual clock behind a real HTTP server; then a fresh follower
 * catches up from it over RPC (node_getBlocks pages of 100, wire decoding, full verification by
 * re-application, checkpoints), and another fresh engine imports the same blocks from a local
 * array through the same verified import path (no HTTP, no JSON) — the difference is the cost
 * of fetching and decoding. In-memory SQLite for all three engines. The last line is the same
 * figures as one JSON object (for bench/collect.ts).
 * Run: ./node_modules/.bin/node bench/sync.ts [blocks=1000] [txsPerBlock=8]
 * @module
 */
import { importBlock } from '../src/impl/chain/block-import.ts';
import { RpcBlockSource } from '../src/impl/sync/block-source.ts';
import { Follower } from '../src/impl/sync/follower.ts';
import type { MinableTx } from '../src/impl/sequencer/tx-source.ts';
import { PAYER, nextSlot, startRpcNode } from '../test/integration/rpc-public-harness.ts';
import { followerEngine } from '../test/integration/sync-harness.ts';

const BLOCKS = Number(process.argv[2] ?? 1000);
const PER_BLOCK = Number(process.argv[3] ?? 8);

/** A private-only tx with 4 note hashes, 4 unique nullifiers and a private log. */
const tx = (i: number): MinableTx => {
  const s = BigInt(i + 1) << 32n;
  return {
    txHash: 0x5e0000000000n + BigInt(i),
    feePayer: PAYER,
    gasSettings: {
      gasLimits: { daGas: 10_000, l2Gas: 1_000_000 },
      teardownGasLimits: { daGas: 0, l2Gas: 0 },
      maxFeesPerGas: { feePerDaGas: 10n ** 18n, feePerL2Gas: 10n ** 18n },
      maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 1n },
    },
    gasUsed: { daGas: 1000, l2Gas: 50_000 },
    noteHashes: Array.from({ length: 4 }, (_, k) => s + 0x100n + BigInt(k)),
    nullifiers: Array.from({ length: 4 }, (_, k) => s + 0x200n + BigInt(k)),
    l2ToL1Msgs: [],
    privateLogs: [{ fields: Array.from({ length: 16 }, (_, k) => s + BigInt(k)), emittedLength: 16 }],
    contractClassLogs: [],
    publicCallCount: 0,
  };
};

const proposer = await startRpcNode();
let n = 0;
const buildStart = performance.now();
for (let built = 0; built < BLOCKS; built = await proposer.engine.chain.getBlockNumber()) {
  for (let k = 0; k < PER_BLOCK; k++) proposer.txSource.add(tx(n++));
  await nextSlot(proposer);
}
await nextSlot(proposer); // seal the last checkpoint (an empty block may join it)
const buildS = (performance.now() - buildStart) / 1000;
const tip = await proposer.engine.chain.getBlockNumber();
const blocks = await proposer.engine.chain.blocksFrom(1, tip);
const txCount = blocks.reduce((s, b) => s + b.body.txEffects.length, 0);
const line = (what: string, s: number) =>
  console.log(
    `${what}: ${tip} blocks, ${txCount} txs in ${s.toFixed(2)} s = ${(tip / s).toFixed(1)} blocks/s, ${(txCount / s).toFixed(1)} txs/s`,
  );
line('proposer building (sequencer, for reference)', buildS);

const rpcEngine = await followerEngine();
const follower = new Follower({ engine: rpcEngine, source: new RpcBlockSource(proposer.url) });
let t = performance.now();
const imported = await follower.syncNow();
const rpcS = (performance.now() - t) / 1000;
if (imported !== tip || follower.status().state !== 'caught-up')
  throw new Error(`follower stopped early: ${JSON.stringify(follower.status())}`);
line('follower catch-up over RPC (fetch + decode + verify + store, checkpoints too)', rpcS);

const localEngine = await followerEngine();
const rules = { chainId: BigInt(localEngine.config.l1ChainId), version: BigInt(localEngine.config.rollupVersion) };
t = performance.now();
for (const b of blocks) await importBlock(localEngine.state, localEngine.txSource, b, rules);
const localS = (performance.now() - t) / 1000;
line('same blocks from a local array (verify + store only)', localS);
console.log(`fetch + decode overhead: ${(((rpcS - localS) / rpcS) * 100).toFixed(0)}% of the RPC catch-up time`);
console.log(
  JSON.stringify({
    blocks: tip,
    txs: txCount,
    txsPerBlock: PER_BLOCK,
    buildSeconds: buildS,
    rpcSeconds: rpcS,
    localSeconds: localS,
  }),
);

await Promise.all([rpcEngine.stop(), localEngine.stop(), proposer.close()]);
