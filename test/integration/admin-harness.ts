/**
 * A node's admin side on real servers: the generated admin (API key) and public method tables,
 * a real database in a data directory, the live config, sync switch, keyring, committee,
 * sentinel, slasher and snapshot uploader. The chain is a small stand-in that does what the
 * engine will do through the hooks (docs: issue 8 report): build a block when the slot's
 * proposer is ours (inside `sync.step`), report each slot to the sentinel, report proven epochs,
 * and roll back returning the unwound txs.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { adminMethods } from '../../src/generated/admin/methods.ts';
import { publicMethods } from '../../src/generated/public/methods.ts';
import type { NodeAdminConfigUpdate } from '../../src/generated/admin/types.ts';
import type { Rollback } from '../../src/impl/node-config/rollback-coordinator.ts';
import { createAdminHandlers } from '../../src/impl/rpc/admin/index.ts';
import { openDatabase } from '../../src/impl/store/database.ts';
import { openAdminParts } from '../../src/impl/node-config/admin-parts.ts';
import type { NodeConfig } from '../../src/impl/node-config/node-config.ts';
import type { SyncSwitch } from '../../src/impl/node-config/sync-control.ts';
import type { SnapshotUploader } from '../../src/impl/snapshots/snapshot-writer.ts';
import type { Committees } from '../../src/impl/validators/committee.ts';
import type { ValidatorKeyring } from '../../src/impl/validators/keyring.ts';
import { createApiKeyAuth } from '../../src/server/auth.ts';
import { createRpcServer, type RpcServer } from '../../src/server/http.ts';
import { createLogger } from '../../src/server/logger.ts';

/** The admin API key of the test node. */
export const API_KEY = 'k'.repeat(40) + '0123456789abcdef0123456789abcdef';
export const SLOTS_PER_EPOCH = 4;
const GENESIS = 1_750_000_000n;

/** A block of the stand-in chain. */
interface Block {
  readonly number: number;
  readonly slot: number;
  readonly txs: readonly string[];
}

/** The stand-in chain: blocks, a pending pool, tips; finalized = tip − 2. */
export class StandInChain implements Rollback {
  blocks: Block[] = [];
  pool: string[] = [];
  /** Txs that are no longer valid after a rollback (their re-admission fails). */
  readonly invalidAfterRollback = new Set<string>();
  cleared = 0;
  get tip(): number {
    return this.blocks.at(-1)?.number ?? 0;
  }
  async rollbackBounds() {
    return { tip: this.tip, finalized: Math.max(0, this.tip - 2) };
  }
  async rollbackTo(target: number, force: boolean): Promise<readonly unknown[]> {
    if (force && target < Math.max(0, this.tip - 2)) this.cleared++;
    const undone = this.blocks.filter((b) => b.number > target);
    this.blocks = this.blocks.filter((b) => b.number <= target);
    return undone.flatMap((b) => b.txs);
  }
  async slotOfBlock(n: number): Promise<number> {
    return this.blocks.find((b) => b.number === n)?.slot ?? 0;
  }
  readmit(tx: string): void {
    if (this.invalidAfterRollback.has(tx)) throw new Error(`tx ${tx} no longer valid`);
    this.pool.push(tx);
  }
  build(slot: number): Block {
    const b = { number: this.tip + 1, slot, txs: this.pool.splice(0) };
    this.blocks.push(b);
    return b;
  }
}

/** Options of a test node. */
export interface AdminNodeOptions {
  readonly dataDirectory: string;
  readonly keystore?: string;
  readonly validatorSet: readonly string[];
  readonly committeeSize?: number;
  readonly startupConfig?: NodeAdminConfigUpdate;
}

/** A running test node. */
export interface AdminNode {
  readonly adminUrl: string;
  /** Warning lines the admin handlers logged (JSON text, one per line). */
  readonly warnings: string[];
  readonly publicUrl: string;
  readonly db: Knex;
  readonly config: NodeConfig;
  readonly sync: SyncSwitch;
  readonly chain: StandInChain;
  readonly committees: Committees;
  readonly keyring: ValidatorKeyring;
  readonly snapshots: SnapshotUploader;
  readonly poolLimits: number[];
  /** Lets the next snapshot copy start (each upload waits for it). */
  releaseSnapshot(): void;
  /** The next `n` slots pass. */
  passSlots(n: number): Promise<void>;
  readonly slot: number;
  close(): Promise<void>;
}

/** Starts a test node on free ports. */
export async function startAdminNode(o: AdminNodeOptions): Promise<AdminNode> {
  const db = await openDatabase({ dataDirectory: o.dataDirectory });
  const chain = new StandInChain();
  const poolLimits: number[] = [];
  const slotStart = (s: number) => GENESIS + 12n * BigInt(s);
  let slot = 0;
  let gate: (() => void) | undefined;
  const parts = await openAdminParts({
    db,
    dataDirectory: o.dataDirectory,
    ...(o.startupConfig === undefined ? {} : { startupConfig: o.startupConfig }),
    ...(o.keystore === undefined ? {} : { keystorePath: o.keystore }),
    validatorSet: o.validatorSet,
    committeeSize: o.committeeSize ?? o.validatorSet.length,
    slotsPerEpoch: SLOTS_PER_EPOCH,
    roundSizeInSlots: 2 * SLOTS_PER_EPOCH,
    slotStart,
    currentSlot: () => slot,
    targets: { pool: { setMaxPendingTxCount: (n) => void poolLimits.push(n) } },
    rollback: { engine: chain, readmitTx: async (tx) => chain.readmit(tx as string) },
    snapshot: {
      describe: async () => ({ latestBlock: chain.tip }),
      beforeCopy: () => new Promise<void>((r) => (gate = r)),
    },
  });
  const { config, sync, keyring, committees, sentinel, snapshots } = parts;
  const warnings: string[] = [];
  const admin = createAdminHandlers({
    ...parts.adminDeps,
    logger: createLogger('warn', (line) => void warnings.push(line)),
  });
  const common = {
    limits: { maxBodyBytes: 1_048_576, maxBatchSize: 100 },
    logger: createLogger('fatal', () => undefined),
    health: () => ({ healthy: true, version: '4.0.0', syncState: sync.state }),
  };
  const adminServer: RpcServer = createRpcServer({
    ...common,
    methods: adminMethods,
    handlers: admin,
    auth: createApiKeyAuth(createHash('sha256').update(API_KEY).digest('hex')),
  });
  const publicServer: RpcServer = createRpcServer({
    ...common,
    methods: publicMethods,
    handlers: parts.validatorHandlers,
  });
  const a = await adminServer.listen(0, '127.0.0.1');
  const p = await publicServer.listen(0, '127.0.0.1');
  return {
    adminUrl: `http://127.0.0.1:${a.port}`,
    warnings,
    publicUrl: `http://127.0.0.1:${p.port}`,
    db,
    config,
    sync,
    chain,
    committees,
    keyring,
    snapshots,
    poolLimits,
    releaseSnapshot: () => gate?.(),
    get slot() {
      return slot;
    },
    async passSlots(n) {
      for (let i = 0; i < n; i++) {
        slot++;
        const proposer = committees.proposerOf(slot)!;
        let built: { archive: bigint } | undefined;
        // What the sequencer does: build only as our own proposer, and only while sync runs.
        await sync.step(async () => {
          if (keyring.get(proposer) !== undefined)
            built = { archive: BigInt(chain.build(slot).number) * 1000n + BigInt(slot) };
        });
        await sentinel.onSlot(
          built === undefined ? { slot } : { slot, proposal: { archive: built.archive, mined: true } },
        );
        if ((slot + 1) % SLOTS_PER_EPOCH === 0) await sentinel.onEpochProven(Math.floor(slot / SLOTS_PER_EPOCH));
      }
    },
    async close() {
      await Promise.all([adminServer.close(0), publicServer.close(0)]);
      gate?.();
      await snapshots.idle();
      await db.destroy();
    },
  };
}

/** One JSON-RPC call; returns the parsed body and HTTP status. */
export async function call(
  url: string,
  method: string,
  params: unknown[] = [],
  key: string | null = API_KEY,
): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { 'x-api-key': key }) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.status, body: await res.json() };
}
