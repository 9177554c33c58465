/**
 * Token transfers through block building (prints figures, asserts nothing): the example token is
 * deployed through a tx (class log, deployment log and nullifier, constructor) and minted to N
 * holders; then N `transfer_in_public` txs are drained by the dev sequencer into applied blocks
 * (public VM + trees + chain tables + contract index, one transaction per block), in transfers/s.
 * Every tx is a real-format one from src/impl/tx/public-tx-builder.ts, built before the clock
 * starts and fed to the engine's in-memory tx source (no pool, no validation in the figure).
 * Run: ./node_modules/.bin/node bench/public-token-transfers.ts [transfers=256] [txsPerBlock=32]
 * @module
 */
import { ManualClock } from '../src/impl/chain/time.ts';
import { GRUMPKIN_INFINITY } from '../src/impl/contracts/grumpkin.ts';
import { computeContractAddress } from '../src/impl/contracts/contract-address.ts';
import { assembleToken } from '../src/impl/contracts/examples/token.ts';
import { makeContractClass } from '../src/impl/contracts/registry-events.ts';
import { createEngine } from '../src/impl/engine.ts';
import { toWireBlockHeader } from '../src/impl/encoding/wire/headers.ts';
import { InMemoryTxSource, toMinableTx } from '../src/impl/sequencer/tx-source.ts';
import { buildPublicTx, calldata, type PublicCall, type PublicTxOptions } from '../src/impl/tx/public-tx-builder.ts';
import { anchorHeaderFromWire } from '../src/impl/tx/anchor-header.ts';

const N = Number(process.argv[2] ?? 256);
const PER_BLOCK = Number(process.argv[3] ?? 32);
const PAYER = 0x1001n,
  ADMIN = 0xad111n;

const cls = makeContractClass({
  artifactHash: 0xa57n,
  privateFunctionsRoot: 0n,
  packedBytecode: assembleToken().bytecode,
});
const keys = {
  masterNullifierPublicKey: GRUMPKIN_INFINITY,
  masterIncomingViewingPublicKey: GRUMPKIN_INFINITY,
  masterOutgoingViewingPublicKey: GRUMPKIN_INFINITY,
  masterTaggingPublicKey: GRUMPKIN_INFINITY,
};
const pre = { salt: 1n, deployer: 0n, originalContractClassId: cls.id, initializationHash: 0n, publicKeys: keys };
const instance = { ...pre, address: computeContractAddress(pre), version: 1 as const, currentContractClassId: cls.id };
const TOKEN = instance.address;

let seq = 0;
/** A real-format tx (the one node_sendTx takes) with app-logic calls, in the order given (falling priority fee). */
function tx(calls: PublicCall[], extra: Partial<PublicTxOptions> = {}) {
  const n = 0x7e590000n + BigInt(++seq);
  return toMinableTx(
    buildPublicTx({
      chainId: BigInt(engine.config.l1ChainId),
      rollupVersion: BigInt(engine.config.rollupVersion),
      anchorBlockHeader: GENESIS_ANCHOR,
      feePayer: PAYER,
      txNullifier: n,
      appCalls: calls,
      gasLimits: { daGas: 100_000, l2Gas: 1_000_000 },
      maxFeesPerGas: { feePerDaGas: 10n ** 18n, feePerL2Gas: 10n ** 18n },
      maxPriorityFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: BigInt(1_000_000 - seq) },
      ...extra,
    }).tx,
  );
}
const call = (from: bigint, data: bigint[]): PublicCall => ({ to: TOKEN, from, calldata: data });

const clock = new ManualClock(1_800_000_000_000);
const txSource = new InMemoryTxSource();
const engine = await createEngine({
  dataDirectory: '',
  clock,
  genesisTime: 1_800_000_000n,
  slotDurationSeconds: 4,
  slotsPerEpoch: 32,
  maxTxsPerBlock: PER_BLOCK,
  fundedAccounts: [{ address: PAYER, amount: 10n ** 40n }],
  txSource,
});
/** Anchored on genesis, as a wallet reading node_getBlockHeader(0) would be. */
const GENESIS_ANCHOR = anchorHeaderFromWire(toWireBlockHeader(engine.chain.genesisBlock.header));
const drain = async () => {
  while ([...txSource.mined.keys()].length + txSource.dropped.size < seq) {
    clock.advance(4000);
    await engine.tick();
  }
};

txSource.add(
  tx([call(ADMIN, calldata('constructor((Field))', ADMIN))], { publishClass: cls, publishInstance: instance }),
);
const holder = (i: number) => 0x40000n + BigInt(i);
for (let i = 0; i < N; i++)
  txSource.add(tx([call(ADMIN, calldata('mint_to_public((Field),u128)', holder(i), 1_000_000n))]));
await drain();
if (txSource.dropped.size > 0) throw new Error(`setup txs dropped: ${[...txSource.dropped.values()][0]}`);

const blocksBefore = await engine.chain.getBlockNumber();
const transfers = Array.from({ length: N }, (_, i) =>
  tx([
    call(
      holder(i),
      calldata(
        'transfer_in_public((Field),(Field),u128,Field)',
        holder(i),
        holder((i + 1) % N),
        1n + BigInt(i % 7),
        0n,
      ),
    ),
  ]),
);
for (const t of transfers) txSource.add(t);
const t0 = performance.now();
await drain();
const totalMs = performance.now() - t0;
const blocks = (await engine.chain.getBlockNumber()) - blocksBefore;
let reverted = 0;
for (let b = blocksBefore + 1; b <= blocksBefore + blocks; b++)
  reverted += (await engine.chain.findBlock(b))!.body.txEffects.filter((e) => e.revertCode !== 0).length;
await engine.stop();

console.log(
  `public token transfers (in-memory SQLite): ${N} transfer_in_public txs in ${blocks} blocks of ≤${PER_BLOCK} (${reverted} reverted)`,
);
console.log(
  `  ${((N / totalMs) * 1000).toFixed(1)} transfers/s, ${(totalMs / blocks).toFixed(1)} ms/block, total ${totalMs.toFixed(0)} ms`,
);
