/**
 * Importing blocks and checkpoints built by another node (a follower's sync). A block goes
 * through the sequencer's own path, `ChainState.applyBlock`, with the received header as an
 * object: the world state recomputes every tree from the tx effects and refuses the block unless
 * note hash, nullifier, public data and L1→L2 roots (and sizes) and the last archive equal the
 * header's; inside the same transaction we then check the block hash and the archive after it.
 * A refused block leaves nothing behind (the transaction rolls back).
 *
 * A checkpoint is accepted only over blocks already imported: its blocks' hashes, archive, last
 * archive root, block-headers hash, blobs hash, in hash and epoch out hash are recomputed from
 * our own chain, so what is served afterwards never rests on the source's word alone.
 * @module
 */
import { poseidon2Hash } from '../crypto/poseidon2.ts';
import { sha256OfFields } from '../sequencer/sequencer.ts';
import { blockBlobFields } from '../sequencer/block-builder.ts';
import type { L1Chain } from '../l1/l1-chain.ts';
import { TreeId } from '../world-state/constants.ts';
import { hashCheckpointHeader } from '../world-state/checkpoint-header.ts';
import { BlockRejectedError } from '../world-state/world-state.ts';
import type { ChainState } from './chain-state.ts';
import type { TxStatusOwner } from '../txpool/tx-status.ts';
import { hex32 } from '../encoding/hex.ts';
import type { ChainTime } from './time.ts';
import type { Checkpoint, L2Block, Snapshot } from './types.ts';

/** An imported block or checkpoint did not verify; nothing of it was stored. */
export class BlockImportError extends Error {
  /** What was refused (a p2p follower penalises the peer that served it). */
  readonly kind: 'block' | 'checkpoint';
  /** The block (or checkpoint) number that was refused. */
  readonly number: number;
  constructor(kind: 'block' | 'checkpoint', number: number, reason: string) {
    super(`${kind} ${number} refused: ${reason}`);
    this.name = 'BlockImportError';
    this.kind = kind;
    this.number = number;
  }
}

/** What the importer checks a block's globals against. */
export interface ImportRules {
  readonly chainId: bigint;
  readonly version: bigint;
}

const sameSnapshot = (a: Snapshot, b: Snapshot) =>
  a.root === b.root && a.nextAvailableLeafIndex === b.nextAvailableLeafIndex;

/**
 * Imports the next block (number = our tip + 1). `l1ToL2Messages` are the messages the block
 * inserted when it is the first of a checkpoint (unpadded; the tree root decides if they are right).
 */
export async function importBlock(
  state: ChainState,
  txStatus: TxStatusOwner | undefined,
  block: L2Block,
  rules: ImportRules,
  l1ToL2Messages: readonly bigint[] = [],
): Promise<L2Block> {
  const g = block.header.globalVariables;
  const n = g.blockNumber;
  const expected = (await state.latestBlockNumber()) + 1;
  if (n !== expected) throw new BlockImportError('block', n, `expected block ${expected}`);
  if (g.chainId !== rules.chainId || g.version !== rules.version) {
    throw new BlockImportError(
      'block',
      n,
      `chain id ${g.chainId} / version ${g.version}, this node runs ${rules.chainId} / ${rules.version}`,
    );
  }
  const before = await state.worldState.getTreeSnapshot(TreeId.L1_TO_L2_MESSAGE_TREE, n - 1);
  const grown = block.header.state.l1ToL2MessageTree.nextAvailableLeafIndex - before.nextAvailableLeafIndex;
  if (grown !== 0 && grown !== 1024)
    throw new BlockImportError('block', n, `L1→L2 message tree grew by ${grown} leaves (0 or 1024 expected)`);
  try {
    return await state.applyBlock(txStatus, {
      blockNumber: n,
      txEffects: block.body.txEffects,
      l1ToL2Messages: grown === 0 ? undefined : l1ToL2Messages,
      header: block.header,
      manaUsed: block.header.totalManaUsed,
      checkpointNumber: block.checkpointNumber,
      indexWithinCheckpoint: block.indexWithinCheckpoint,
      dropped: [],
      verify: (sealed) => {
        if (sealed.hash !== block.hash)
          throw new BlockImportError('block', n, `block hash ${hex32(sealed.hash)} differs from ${hex32(block.hash)}`);
        if (!sameSnapshot(sealed.archive, block.archive)) {
          throw new BlockImportError(
            'block',
            n,
            `archive root ${hex32(sealed.archive.root)} (size ${sealed.archive.nextAvailableLeafIndex}) differs from ${hex32(block.archive.root)} (size ${block.archive.nextAvailableLeafIndex})`,
          );
        }
      },
    });
  } catch (err) {
    if (err instanceof BlockRejectedError) throw new BlockImportError('block', n, err.message);
    throw err;
  }
}

/**
 * Imports the next checkpoint (number = our latest + 1) over blocks we already hold, posting it
 * to our L1 view (its out hash feeds the outbox answers) and recording it as the sequencer does.
 */
export async function importCheckpoint(
  state: ChainState,
  l1: L1Chain,
  time: ChainTime,
  cp: Checkpoint,
  blocks: readonly L2Block[],
): Promise<void> {
  const fail = (reason: string) => new BlockImportError('checkpoint', cp.number, reason);
  const expected = (await state.store.latestCheckpointNumber()) + 1;
  if (cp.number !== expected) throw fail(`expected checkpoint ${expected}`);
  const last = cp.startBlock + cp.blockCount - 1;
  if (last > (await state.latestBlockNumber())) throw fail(`its blocks ${cp.startBlock}..${last} are not all imported`);
  const ours = await state.store.blocksFrom(cp.startBlock, cp.blockCount);
  const prevCp = expected === 1 ? undefined : await state.store.findCheckpoint(expected - 1);
  if (cp.startBlock !== (prevCp === undefined ? 1 : prevCp.startBlock + prevCp.blockCount))
    throw fail(`starts at block ${cp.startBlock}, not right after the previous checkpoint`);
  for (const [i, b] of ours.entries()) {
    if (b.hash !== blocks[i]?.hash || b.checkpointNumber !== cp.number || b.indexWithinCheckpoint !== i)
      throw fail(`block ${b.header.globalVariables.blockNumber} is not the one we hold at that position`);
  }
  const first = ours[0]!;
  const slot = first.header.globalVariables.slotNumber;
  const epoch = time.epochOfSlot(slot);
  const effects = ours.flatMap((b) => b.body.txEffects);
  const outHash = sha256OfFields(effects.flatMap((e) => e.l2ToL1Msgs));
  const h = cp.header;
  const bad: string[] = [];
  if (!sameSnapshot(cp.archive, ours[ours.length - 1]!.archive)) bad.push('archive');
  if (h.lastArchiveRoot !== first.header.lastArchive.root) bad.push('lastArchiveRoot');
  if (h.blockHeadersHash !== poseidon2Hash(ours.map((b) => b.hash))) bad.push('blockHeadersHash');
  if (h.blobsHash !== sha256OfFields(blockBlobFields(effects))) bad.push('blobsHash');
  if (h.inHash !== sha256OfFields(await state.l1ToL2MessagesOfBlock(cp.startBlock))) bad.push('inHash');
  // Only the epoch's earlier checkpoints: after a crash between posting and recording, ours is on L1 already.
  const earlier = (await l1.outHashesOfEpoch(epoch)).slice(0, (await state.store.checkpointsOfEpoch(epoch)).length);
  if (h.epochOutHash !== sha256OfFields([...earlier, outHash])) bad.push('epochOutHash');
  if (h.slotNumber !== slot) bad.push('slotNumber');
  if (h.totalManaUsed !== ours.reduce((s, b) => s + b.header.totalManaUsed, 0n)) bad.push('totalManaUsed');
  if (bad.length > 0) throw fail(`header does not match our blocks: ${bad.join(', ')}`);
  const hash = hashCheckpointHeader(h);
  // As the sequencer: post first (idempotent), then record, so a crash in between is repaired by the next import.
  await l1.postCheckpoint({ number: cp.number, hash, slot, epoch, outHash });
  await state.store.saveCheckpoint({ ...cp, hash }, epoch);
}
