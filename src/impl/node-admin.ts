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

/** The node's own proposer (the engine's coinbase) is the dev chain's one validator. */
const DEV_VALIDATOR = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/** Opens the admin parts and hands the sync switch to the node. */
export async function openNodeAdmin(node: L2Node, config: Config): Promise<AdminParts> {
  const { engine } = node;
  const parts = await openAdminParts({
    db: node.db, dataDirectory: config.databaseUrl ? '' : config.dataDirectory,
    validatorSet: [DEV_VALIDATOR], committeeSize: 1, slotsPerEpoch: config.slotsPerEpoch, roundSizeInSlots: 2 * config.slotsPerEpoch,
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
  return parts;
}
