/**
 * Wire JSON → chain engine values: the inverse of blocks.ts and checkpoints.ts for what a
 * follower receives (L2Block, L2Tips, PublishedCheckpoint). Input comes from another node, so it
 * is first checked against the generated result schemas (a malformed block is refused with the
 * schema's message, never half-decoded); `hash` is recomputed from the header, never trusted.
 * @module
 */
import { publicMethods } from '../../../generated/public/methods.ts';
import type * as Wire from '../../../generated/public/types.ts';
import * as C from '../../chain/types.ts';
import { hashBlockHeader } from '../../world-state/block-header.ts';
import { hashCheckpointHeader } from '../../world-state/checkpoint-header.ts';
import { fromWireBlockHeader, fromWireCheckpointHeader } from './headers.ts';
import { fromWireContractClassLog, fromWirePrivateLog, fromWirePublicLog } from './logs.ts';

/** A wire value failed its schema or could not be decoded. */
export class WireDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireDecodeError';
  }
}

const REVERT_CODES = new Set<number>(Object.values(C.RevertCode));

function check(method: string, value: unknown, what: string): void {
  const problem = publicMethods[method]!.validateResult(value);
  if (problem !== null) throw new WireDecodeError(`${what}: ${problem}`);
}

const snap = (s: Wire.AppendOnlyTreeSnapshot): C.Snapshot => ({
  root: BigInt(s.root),
  nextAvailableLeafIndex: s.nextAvailableLeafIndex,
});

/** Wire TxEffect → engine TxEffect (schema already checked). */
export function fromWireTxEffect(e: Wire.TxEffect): C.TxEffect {
  if (!REVERT_CODES.has(e.revertCode)) throw new WireDecodeError(`unknown revert code ${e.revertCode}`);
  return {
    revertCode: e.revertCode as C.RevertCode,
    txHash: BigInt(e.txHash),
    transactionFee: BigInt(e.transactionFee),
    noteHashes: e.noteHashes.map(BigInt),
    nullifiers: e.nullifiers.map(BigInt),
    l2ToL1Msgs: e.l2ToL1Msgs.map(BigInt),
    publicDataWrites: e.publicDataWrites.map((w) => ({ leafSlot: BigInt(w.leafSlot), value: BigInt(w.value) })),
    privateLogs: e.privateLogs.map(fromWirePrivateLog),
    publicLogs: e.publicLogs.map(fromWirePublicLog),
    contractClassLogs: e.contractClassLogs.map(fromWireContractClassLog),
  };
}

/**
 * Wire L2Block (as node_getBlock returns it) → engine L2Block; `hash` is the recomputed header
 * hash. The real node's header also carries `_cachedHash` (serialized as `{}`): ignored unless
 * it is a hash string, which must then be the hash we compute.
 */
export function fromWireBlock(wire: unknown): C.L2Block {
  // node_getBlock's result schema allows null (no such block); a block to import must be there.
  if (wire === null || typeof wire !== 'object') throw new WireDecodeError('L2Block: not an object');
  const { cached, block } = withoutCachedHash(wire);
  check('node_getBlock', block, 'L2Block');
  const w = block as Wire.L2Block;
  const header = fromWireBlockHeader(w.header);
  const hash = hashBlockHeader(header);
  if (typeof cached === 'string' && (!/^0x[0-9a-fA-F]{1,64}$/.test(cached) || BigInt(cached) !== hash)) {
    throw new WireDecodeError(`L2Block: header._cachedHash ${cached} is not the header's hash`);
  }
  return {
    archive: snap(w.archive),
    header,
    body: { txEffects: w.body.txEffects.map(fromWireTxEffect) },
    checkpointNumber: w.checkpointNumber,
    indexWithinCheckpoint: w.indexWithinCheckpoint,
    hash,
  };
}

/** A shallow copy of the block with `header._cachedHash` taken out (the input is never modified). */
function withoutCachedHash(wire: unknown): { cached: unknown; block: unknown } {
  const header = (wire as { header?: unknown } | null)?.header;
  if (header === null || typeof header !== 'object' || !('_cachedHash' in header))
    return { cached: undefined, block: wire };
  const { _cachedHash: cached, ...rest } = header as Record<string, unknown>;
  return { cached, block: { ...(wire as object), header: rest } };
}

/** Wire L2Tips → engine L2Tips. */
export function fromWireL2Tips(wire: unknown): C.L2Tips {
  check('node_getL2Tips', wire, 'L2Tips');
  const w = wire as Wire.L2Tips;
  const tip = (t: Wire.L2BlockId | Wire.CheckpointId) => ({ number: t.number, hash: BigInt(t.hash) });
  const cp = (t: Wire.L2TipWithCheckpoint) => ({ block: tip(t.block), checkpoint: tip(t.checkpoint) });
  return {
    proposed: tip(w.proposed),
    checkpointed: cp(w.checkpointed),
    proven: cp(w.proven),
    finalized: cp(w.finalized),
  };
}

/** A checkpoint as received: the engine Checkpoint (hash taken from the wire header, to be checked) and its blocks. */
export interface DecodedCheckpoint {
  readonly checkpoint: C.Checkpoint;
  readonly blocks: readonly C.L2Block[];
}

/**
 * Wire PublishedCheckpoint → engine Checkpoint; `hash` is the recomputed header hash and
 * `startBlock` the first block's number, so a checkpoint without blocks is refused.
 */
export function fromWirePublishedCheckpoint(wire: unknown): DecodedCheckpoint {
  check('node_getCheckpoints', [wire], 'PublishedCheckpoint');
  const w = wire as Wire.PublishedCheckpoint;
  const blocks = w.checkpoint.blocks.map(fromWireBlock);
  if (blocks.length === 0) throw new WireDecodeError(`checkpoint ${w.checkpoint.number} has no blocks`);
  const header = fromWireCheckpointHeader(w.checkpoint.header);
  return {
    checkpoint: {
      number: w.checkpoint.number,
      header,
      hash: hashCheckpointHeader(header),
      archive: snap(w.checkpoint.archive),
      startBlock: blocks[0]!.header.globalVariables.blockNumber,
      blockCount: blocks.length,
      feeAssetPriceModifier: BigInt(w.checkpoint.feeAssetPriceModifier),
      l1: {
        blockNumber: BigInt(w.l1.blockNumber),
        timestamp: BigInt(w.l1.timestamp),
        blockHash: BigInt(w.l1.blockHash),
      },
    },
    blocks,
  };
}
