/**
 * Shared pieces of the chain integration tests: a synthetic minable tx and a dev engine on a
 * manual clock with 4-second slots, 2-slot epochs and one funded payer.
 * @module
 */
import { createEngine, type EngineConfig } from '../../src/impl/engine.ts';
import type { ManualClock } from '../../src/impl/chain/time.ts';
import { InMemoryTxSource, type MinableTx } from '../../src/impl/sequencer/tx-source.ts';

/** Genesis time (Unix seconds) of the test chains. */
export const GENESIS = 1_800_000_000n;
/** The funded fee payer. */
export const PAYER = 0x1001n;
/** The blocks' fee recipient. */
export const RECIPIENT = 0xfee5n;

/** A private-only tx with two note hashes, two nullifiers, an L2→L1 message and a tagged private log, all derived from `seed`. */
export function syntheticTx(seed: number, overrides: Partial<MinableTx> = {}): MinableTx {
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
    ...overrides,
  };
}

/** A dev engine with an in-memory tx source on `clock`. */
export async function devEngine(clock: ManualClock, over: Partial<EngineConfig> = {}) {
  const txSource = new InMemoryTxSource();
  const engine = await createEngine({
    clock,
    genesisTime: GENESIS,
    slotDurationSeconds: 4,
    slotsPerEpoch: 2,
    l1BlockSeconds: 4,
    proofDelaySeconds: 4,
    finalityDepth: 1,
    buildEmptyBlocks: true,
    feeRecipient: RECIPIENT,
    fundedAccounts: [{ address: PAYER, amount: 10n ** 30n }],
    txSource,
    ...over,
  });
  return { engine, txSource };
}

/** 0x + 64 hex. */
export const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');
