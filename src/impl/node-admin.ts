/**
 * Opens the admin side (src/impl/node-config/admin-parts.ts) over a built node: live config
 * pushed to the mempool and the allow-list, the sync switch as the node's production gate
 * (pause/resume), rollback over the engine, keystore, slashing, snapshots, and the validator
 * stats handlers of the public API.
 * @module
 */
import type { Config } from '../config/options.ts';
import { openAdminParts } from './node-config/admin-parts.ts';
import type { AdminParts } from './node-config/admin-parts.ts';
import type { L2Node } from './node.ts';
import { DEV_VALIDATOR_ADDRESS, devKeystore } from './validators/dev-validator.ts';
import { loadKeystore } from './validators/keystore.ts';

/**
 * Opens the admin parts, hands the sync switch to the node and the sentinel to its production
 * loop. The registered validator set is the keystore's attesters (`--keystore`), all of them in
 * every committee; without a keystore, the dev validator alone (docs/KEYSTORE.md).
 */
export async function openNodeAdmin(node: L2Node, config: Config): Promise<AdminParts> {
  const { engine } = node;
  const keystorePath = config.keystore === undefined || config.keystore === '' ? undefined : config.keystore;
  // A bad keystore stops the start (KeystoreError names the file and field, never a key).
  const validatorSet = keystorePath === undefined ? [DEV_VALIDATOR_ADDRESS] : loadKeystore(keystorePath).validators.map((v) => v.attester.address);
  const parts = await openAdminParts({
    db: node.db, dataDirectory: config.databaseUrl ? '' : config.dataDirectory,
    ...(keystorePath === undefined ? { defaultKeystore: devKeystore(engine.config.feeRecipient) } : { keystorePath }),
    validatorSet, committeeSize: Math.max(1, validatorSet.length), slotsPerEpoch: config.slotsPerEpoch, roundSizeInSlots: 2 * config.slotsPerEpoch,
    slotStart: (s) => engine.time.slotStart(s),
    currentSlot: () => engine.time.slotAt(BigInt(Math.floor(engine.config.clock.nowMs() / 1000))),
    startupConfig: { maxPendingTxCount: config.maxPendingTxCount },
    targets: { pool: node.pool, allowList: node.allowList },
    rollback: {
      engine: {
        rollbackBounds: async () => ({ tip: await engine.state.latestBlockNumber(), finalized: (await engine.chain.getL2Tips()).finalized.block.number }),
        rollbackTo: (target, force) => engine.rollbackTo(target, { force }),
      },
      // The chain keeps a mined tx's effect, not its wire form: an unwound tx cannot be re-sent from it.
      readmitTx: async () => {
        throw new Error('unwound txs are not re-admitted (only their effects are stored)');
      },
    },
    snapshot: { describe: async () => ({ latestBlock: await engine.state.latestBlockNumber() }) },
  });
  node.useSyncGate(parts.sync);
  node.useSlotObserver(parts.sentinel);
  return parts;
}
