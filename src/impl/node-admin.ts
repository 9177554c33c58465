/**
 * Opens the admin side (src/impl/node-config/admin-parts.ts) over a built node: live config
 * pushed to the mempool and the allow-list, the sync switch as the node's production gate
 * (pause/resume), rollback over the engine, keystore, slashing, snapshots, and the validator
 * stats handlers of the public API.
 * @module
 */
import type { Config } from '../config/options.ts';
import type { Logger } from '../server/types.ts';
import type { UnwoundTx } from './chain/rollback.ts';
import { secondsOf } from './chain/time.ts';
import { openAdminParts } from './node-config/admin-parts.ts';
import type { AdminParts } from './node-config/admin-parts.ts';
import type { L2Node } from './node-types.ts';
import { DEV_VALIDATOR_ADDRESS, devKeystore } from './validators/dev-validator.ts';
import { loadKeystore } from './validators/keystore.ts';
import { ConsensusDuties } from './validators/consensus-duties.ts';
import { hex32 } from './encoding/hex.ts';

/**
 * Opens the admin parts, hands the sync switch to the node and the sentinel to its production
 * loop, and the proposer selection to its sequencer. The registered validator set is this node's
 * validators (the keystore's attesters, `--keystore`, else the dev validator) plus
 * `--registered-validators`, all of them in every committee (docs/KEYSTORE.md).
 */
export async function openNodeAdmin(node: L2Node, config: Config, logger?: Logger): Promise<AdminParts> {
  const { engine } = node;
  const keystorePath = config.keystore === undefined || config.keystore === '' ? undefined : config.keystore;
  // A bad keystore stops the start (KeystoreError names the file and field, never a key).
  const own =
    keystorePath === undefined
      ? [DEV_VALIDATOR_ADDRESS]
      : loadKeystore(keystorePath).validators.map((v) => v.attester.address);
  const validatorSet = [...new Set([...own, ...registeredValidators(config.registeredValidators ?? [])])];
  const currentSlot = () => engine.time.slotAt(secondsOf(engine.config.clock));
  const parts = await openAdminParts({
    db: node.db,
    dataDirectory: config.databaseUrl ? '' : config.dataDirectory,
    ...(keystorePath === undefined ? { defaultKeystore: devKeystore(engine.config.feeRecipient) } : { keystorePath }),
    validatorSet,
    committeeSize: Math.max(1, validatorSet.length),
    slotsPerEpoch: config.slotsPerEpoch,
    roundSizeInSlots: 2 * config.slotsPerEpoch,
    slotStart: (s) => engine.time.slotStart(s),
    currentSlot,
    startupConfig: { maxPendingTxCount: config.maxPendingTxCount },
    targets: { pool: node.pool, allowList: node.allowList },
    rollback: {
      engine: {
        rollbackBounds: () => engine.rollbackBounds(),
        rollbackTo: (target, force) => engine.rollbackTo(target, { force }),
      },
      readmitTx: async (unwound) => assertReadmitted(node, unwound as UnwoundTx),
    },
    // The tip recorded in snapshot.json: what a node restored from it (--snapshot) starts at.
    snapshot: {
      describe: async () => {
        const { proposed } = await engine.chain.getL2Tips();
        return { latestBlock: proposed.number, latestBlockHash: hex32(proposed.hash) };
      },
      progress: { logger, intervalMs: (config.progressIntervalSeconds ?? 10) * 1000 },
      // The call returned at once, so the log is where an operator learns how the upload ended.
      onDone: (outcome) => {
        if (outcome.ok)
          logger?.info('snapshot upload finished', {
            directory: outcome.directory,
            sizeBytes: outcome.meta.sizeBytes,
            sha256: outcome.meta.sha256,
            node: outcome.meta.node,
          });
        else
          logger?.error('snapshot upload failed', {
            directory: outcome.directory,
            err: outcome.error instanceof Error ? outcome.error.message : String(outcome.error),
          });
      },
    },
  });
  node.useSyncGate(parts.sync);
  node.useSlotObserver(parts.sentinel);
  // Proposer respect: build only in our validators' slots, as that validator (the keyring follows reloads).
  node.useProposer((slot) => {
    const proposer = parts.committees.proposerOf(slot);
    const v = proposer === undefined ? undefined : parts.keyring.get(proposer);
    return v === undefined ? undefined : { coinbase: BigInt(v.coinbase), feeRecipient: BigInt(v.feeRecipient) };
  });
  // With p2p, our validators propose and attest over the network (docs/P2P.md, "Proposals and attestations").
  const p2p = node.p2p;
  if (p2p !== undefined) {
    node.useConsensus(
      new ConsensusDuties({
        committees: parts.committees,
        keyring: parts.keyring,
        chain: {
          findBlock: (n) => engine.chain.findBlock(n),
          latestCheckpointNumber: () => engine.checkpoints.latestCheckpointNumber(),
          checkpointsFrom: (from, limit) => engine.checkpoints.checkpointsFrom(from, limit),
        },
        publisher: p2p,
        currentSlot,
        blockWaitMs: Math.min(4000, config.slotDurationSeconds * 1000),
        fetchBlocks: () => node.wakeFollower?.(),
        ...(logger === undefined ? {} : { logger }),
      }),
    );
  }
  return parts;
}

/**
 * Whether an unwound tx is pending again: the unwind's own transaction re-admitted it or dropped
 * it with the reason (txpool/tx-status.ts); a dropped one rejects, for the rollback's count.
 */
export function assertReadmitted(node: Pick<L2Node, 'pool'>, unwound: Pick<UnwoundTx, 'txHash'>): void {
  if (!node.pool.isPending(unwound.txHash))
    throw new Error(`unwound tx 0x${unwound.txHash.toString(16)} was dropped by the rollback`);
}

/** `--registered-validators`: lowercase 20-byte addresses; anything else stops the start. */
function registeredValidators(list: readonly string[]): string[] {
  return list.map((a) => {
    if (!/^0x[0-9a-fA-F]{40}$/.test(a))
      throw new Error(
        `invalid value ${JSON.stringify(a)} in --registered-validators: must be a 0x-prefixed 20-byte address`,
      );
    return a.toLowerCase();
  });
}
