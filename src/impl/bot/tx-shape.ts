/**
 * What one bot tx carries: one nullifier unique to this bot run and sequence number (so a restart
 * on the same chain never collides with mined ones), `--bot.noteHashesPerTx` note hashes and
 * `--bot.privateLogsPerTx` tagged private logs of varying length; gas used sized to the emitted
 * fields. `buildBotTx` turns a shape into a real-format tx with the project's tx builder.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { DA_GAS_PER_FIELD } from '../execution/opcodes.ts';
import { MAX_NOTE_HASHES_PER_TX, MAX_PRIVATE_LOGS_PER_TX, PRIVATE_LOG_SIZE_IN_FIELDS } from '../tx/constants.ts';
import type { BuiltTx } from '../tx/tx-builder.ts';
import { buildPrivateTxOffThread } from '../tx/tx-hash-worker.ts';
import type { BlockHeader, Gas, GasFees, PrivateLog, PrivateToRollupAccumulatedData } from '../tx/types.ts';

/** How many side effects of each kind a bot tx has. */
export interface TxShape {
  readonly noteHashesPerTx: number;
  readonly privateLogsPerTx: number;
}

/** The side effects of one bot tx (unpadded; the tx builder pads them). */
export type TxSideEffects = Pick<PrivateToRollupAccumulatedData, 'nullifiers' | 'noteHashes' | 'privateLogs'>;

/** Bits of the per-run seed: seed ‖ 64-bit sequence ‖ 8-bit index stays far below the field modulus. */
const SEED_BITS = 120n;
/** L2 gas a bot tx reports as used (a flat private-kernel cost; the node's minimum limit is 512). */
export const BOT_TX_L2_GAS_USED = 10_000;

/** A random non-zero 120-bit seed for one bot run. */
export function randomSeed(): bigint {
  const seed = BigInt('0x' + randomBytes(Number(SEED_BITS / 8n)).toString('hex'));
  return seed === 0n ? 1n : seed;
}

/** The nullifier of tx number `seq` of the run with `seed`: unique per (seed, seq), never zero. */
export function nullifierFor(seed: bigint, seq: bigint): bigint {
  if (seed <= 0n || seed >= 1n << SEED_BITS) throw new RangeError('seed must be a non-zero 120-bit number');
  return (seed << 64n) | BigInt.asUintN(64, seq);
}

/** The side effects of tx number `seq`: note hashes and log tags derived from its nullifier. */
export function sideEffectsFor(shape: TxShape, seed: bigint, seq: bigint): TxSideEffects {
  if (shape.noteHashesPerTx < 0 || shape.noteHashesPerTx > MAX_NOTE_HASHES_PER_TX)
    throw new RangeError(`noteHashesPerTx must be 0..${MAX_NOTE_HASHES_PER_TX}`);
  if (shape.privateLogsPerTx < 0 || shape.privateLogsPerTx > MAX_PRIVATE_LOGS_PER_TX)
    throw new RangeError(`privateLogsPerTx must be 0..${MAX_PRIVATE_LOGS_PER_TX}`);
  const nullifier = nullifierFor(seed, seq);
  const base = nullifier << 8n;
  const noteHashes = Array.from({ length: shape.noteHashesPerTx }, (_, i) => base + BigInt(i + 1));
  const privateLogs = Array.from({ length: shape.privateLogsPerTx }, (_, i): PrivateLog => {
    // Lengths 2..16 fields, varying by tx and log: the tag first, then the payload.
    const emittedLength = 2 + Number((seq + BigInt(i)) % BigInt(PRIVATE_LOG_SIZE_IN_FIELDS - 1));
    const tag = base + 0x80n + BigInt(i);
    const fields = Array.from({ length: PRIVATE_LOG_SIZE_IN_FIELDS }, (_, k) =>
      k === 0 ? tag : k < emittedLength ? tag * 32n + BigInt(k) : 0n,
    );
    return { fields, emittedLength };
  });
  return { nullifiers: [nullifier], noteHashes, privateLogs };
}

/** Gas used: DA gas per emitted field (nullifiers, note hashes, log fields), a flat L2 cost. */
export function gasUsedFor(effects: TxSideEffects): Gas {
  const fields =
    effects.nullifiers.length +
    effects.noteHashes.length +
    effects.privateLogs.reduce((n, l) => n + l.emittedLength, 0);
  return { daGas: fields * DA_GAS_PER_FIELD, l2Gas: BOT_TX_L2_GAS_USED };
}

/** What `buildBotTx` needs besides the side effects. */
export interface BotTxOptions {
  readonly chainId: bigint;
  readonly rollupVersion: bigint;
  readonly feePayer: bigint;
  readonly anchorBlockHeader: BlockHeader;
  readonly maxFeesPerGas: GasFees;
  readonly effects: TxSideEffects;
}

/**
 * A real-format private tx with these side effects (no priority fee), limits twice the gas used;
 * its hash is computed on the tx-hash worker, off the node's event loop.
 */
export function buildBotTx(o: BotTxOptions): Promise<BuiltTx> {
  const gasUsed = gasUsedFor(o.effects);
  return buildPrivateTxOffThread({
    chainId: o.chainId,
    rollupVersion: o.rollupVersion,
    feePayer: o.feePayer,
    anchorBlockHeader: o.anchorBlockHeader,
    nullifiers: o.effects.nullifiers,
    noteHashes: o.effects.noteHashes,
    privateLogs: o.effects.privateLogs,
    maxFeesPerGas: o.maxFeesPerGas,
    gasUsed,
    gasLimits: { daGas: Math.max(1_000, gasUsed.daGas * 2), l2Gas: 100_000 },
  });
}
