/**
 * Opens the admin side (src/impl/node-config/admin-parts.ts) over a node being built: live config
 * pushed to the mempool and the allow-list, the sync switch as the node's production gate
 * (pause/resume), rollback over the engine, keystore, slashing, snapshots, and the validator
 * stats handlers of the public API; and the validators' proposer selection and p2p duties.
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
import { hex32 } from './encoding/hex.ts';
import type { Knex } from 'knex';
import type { ReadEngine } from './engine.ts';
import type { ProposerSelection } from './sequencer/sequencer.ts';
import type { SetupAllowList } from './setup-allow-list.ts';
import { ConsensusDuties, type ConsensusPublisher } from './validators/consensus-duties.ts';

/** What the admin side is opened over: the node's storage, engine reads, mempool and allow-list. */
export interface NodeAdminInputs {
  readonly db: Knex;
  readonly engine: ReadEngine;
  readonly pool: L2Node['pool'];
  readonly allowList: SetupAllowList;
  /** The engine's unwind; absent on a role that never writes (its admin side answers READ_ONLY_NODE). */
  readonly rollbackTo?: (target: number, force: boolean) => Promise<readonly UnwoundTx[]>;
}

/**
 * Opens the admin parts over a node being built (the role factories call it before they build the
 * production loop, the follower and p2p, which take its sync switch, sentinel and keyring). The
 * registered validator set is this node's validators (the keystore's attesters, `--keystore`, else
 * the dev validator) plus `--registered-validators`, all of them in every committee (docs/KEYSTORE.md).
 */
export async function openNodeAdmin(node: NodeAdminInputs, config: Config, logger?: Logger): Promise<AdminParts> {
  const { engine, rollbackTo } = node;
  const keystorePath = config.keystore === undefined || config.keystore === '' ? undefined : config.keystore;
  // A bad keystore stops the start (KeystoreError names the file and field, never a key).
  const own =
    keystorePath === undefined
      ? [DEV_VALIDATOR_ADDRESS]
      : loadKeystore(keystorePath).validators.map((v) => v.attester.address);
  const validatorSet = [...new Set([...own, ...registeredValidators(config.registeredValidators ?? [])])];
  return openAdminParts({
    db: node.db,
    dataDirectory: config.databaseUrl ? '' : config.dataDirectory,
    ...(keystorePath === undefined ? { defaultKeystore: devKeystore(engine.config.feeRecipient) } : { keystorePath }),
    validatorSet,
    committeeSize: Math.max(1, validatorSet.length),
    slotsPerEpoch: config.slotsPerEpoch,
    roundSizeInSlots: 2 * config.slotsPerEpoch,
    slotStart: (s) => engine.time.slotStart(s),
    currentSlot: () => currentSlot(engine),
    startupConfig: { maxPendingTxCount: config.maxPendingTxCount },
    targets: { pool: node.pool, allowList: node.allowList },
    // A role that never writes (a reader) has no rollback: its admin side answers READ_ONLY_NODE.
    ...(rollbackTo !== undefined && {
      rollback: {
        engine: { rollbackBounds: () => engine.rollbackBounds(), rollbackTo },
        readmitTx: async (unwound: unknown) => assertReadmitted(node, unwound as UnwoundTx),
      },
    }),
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
}

/** The slot the engine's clock is in. */
function currentSlot(engine: Pick<ReadEngine, 'time' | 'config'>): number {
  return engine.time.slotAt(secondsOf(engine.config.clock));
}

/** Proposer respect: build only in our validators' slots, as that validator (the keyring follows reloads). */
export function proposerSelection(parts: Pick<AdminParts, 'committees' | 'keyring'>): ProposerSelection {
  return (slot) => {
    const proposer = parts.committees.proposerOf(slot);
    const v = proposer === undefined ? undefined : parts.keyring.get(proposer);
    return v === undefined ? undefined : { coinbase: BigInt(v.coinbase), feeRecipient: BigInt(v.feeRecipient) };
  };
}

/** Our validators on p2p: they propose and attest over the network (docs/P2P.md, "Proposals and attestations"). */
export function consensusDuties(
  parts: Pick<AdminParts, 'committees' | 'keyring'>,
  engine: Pick<ReadEngine, 'chain' | 'checkpoints' | 'time' | 'config'>,
  publisher: ConsensusPublisher,
  o: { readonly slotDurationSeconds: number; readonly fetchBlocks: () => void; readonly logger?: Logger },
): ConsensusDuties {
  return new ConsensusDuties({
    committees: parts.committees,
    keyring: parts.keyring,
    chain: {
      findBlock: (n) => engine.chain.findBlock(n),
      latestCheckpointNumber: () => engine.checkpoints.latestCheckpointNumber(),
      checkpointsFrom: (from, limit) => engine.checkpoints.checkpointsFrom(from, limit),
    },
    publisher,
    currentSlot: () => currentSlot(engine),
    blockWaitMs: Math.min(4000, o.slotDurationSeconds * 1000),
    fetchBlocks: o.fetchBlocks,
    ...(o.logger === undefined ? {} : { logger: o.logger }),
  });
}

/**
 * Whether an unwound tx is pending again: the unwind's own transaction re-admitted it or dropped
 * it with the reason (txpool/tx-status.ts); a dropped one rejects, for the rollback's count.
 */
export async function assertReadmitted(node: Pick<L2Node, 'pool'>, unwound: Pick<UnwoundTx, 'txHash'>): Promise<void> {
  if (!(await node.pool.isPending(unwound.txHash)))
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
