/**
 * The full node's role factory: from a `Config`, opens storage and builds the engine with the
 * mempool as its tx source, the node tx validator, the admin side (when asked), p2p when enabled,
 * the follower when following, the public handlers, the block production loop and the health
 * report. node.ts picks this factory for `--role full` (the default); main.ts only adds servers and
 * signals; tests build a whole node in-process with `createNode`.
 *
 * Kinds: a **sequencer** (default) builds blocks and, with p2p, announces each one after it is
 * committed; a node with `--follow <url>` follows that node over its RPC (no sequencer); a node
 * with p2p on and `--sequencer=false` follows its peers over p2p. Every p2p node serves block
 * ranges from its chain, and a valid block announcement wakes a follower at once. A sequencer with
 * p2p and `--registered-validators` (proposers on other nodes) also imports the blocks of their
 * slots from peers, and its validators gossip checkpoint proposals and attestations
 * (validators/consensus-duties.ts, wired by node-admin.ts).
 *
 * Everything is built once, in order, before the node is returned: no part is handed another
 * later. The pool and the engine need each other (the pool reads the chain, the engine takes
 * txs from the pool): the engine opens the pool over its own chain view (`openTxSource`).
 * @module
 */

import { systemClock } from './chain/time.ts';
import { FunctionSignatureRegistry } from './contracts/function-selector.ts';
import { offThreadLevelHasher } from './crypto/poseidon2-off-thread.ts';
import type { Engine } from './engine.ts';
import { createEngine, engineSettings } from './engine.ts';
import { consensusDuties, openNodeAdmin, proposerSelection } from './node-admin.ts';
import { checkChainParams } from './node-chain-params.ts';
import { SyncSwitch } from './node-config/sync-control.ts';
import { engineHandlerDeps } from './node-handlers.ts';
import { databaseAnswers, storageStatus } from './node-health.ts';
import type { NodeConsensusHooks } from './node-p2p.ts';
import { createNodeP2P, publishingPool, txForwarder } from './node-p2p.ts';
import type { L2Node, NodeOptions, NodeRole } from './node-types.ts';
import { blockAnnouncement, blockRangeHandlerFor, decodeAnnouncement } from './p2p/block-sync.ts';
import { checkpointRangeHandlerFor } from './p2p/checkpoint-sync.ts';
import type { P2PService } from './p2p/index.ts';
import type { BlockGossipHandler } from './p2p/types.ts';
import type { WorldStateReader } from './rpc/public/block-param.ts';
import { createPublicHandlers } from './rpc/public/index.ts';
import { poolTransactions } from './rpc/public/transactions.ts';
import type { ProposerSelection, Sequencer } from './sequencer/sequencer.ts';
import { SetupAllowList } from './setup-allow-list.ts';
import { slotReporter } from './slot-reporter.ts';
import { DatabaseState, databaseHealth, openDatabase } from './store/database.ts';
import type { BlockSource } from './sync/block-source.ts';
import { RpcBlockSource } from './sync/block-source.ts';
import type { FollowerState } from './sync/follower.ts';
import { Follower } from './sync/follower.ts';
import { P2pBlockSource } from './sync/p2p-block-source.ts';
import { buildGateTiming, PeerBuildGate } from './sync/peer-build-gate.ts';
import { checkFollowedNode, SourceMismatchError } from './sync/source-check.ts';
import { createEngineChainView } from './txpool/chain-view.ts';
import { TxPool } from './txpool/tx-pool.ts';
import { createNodeTxValidator } from './txpool/tx-validator.ts';
import type { ConsensusDuties } from './validators/consensus-duties.ts';

/** A full node: its engine also builds, imports and unwinds. */
export interface FullNode extends L2Node {
  readonly engine: Engine<TxPool>;
  readonly pool: TxPool;
}

/** Opens storage and builds every part; nothing runs until `start()`. */
export async function createFullNode(o: NodeOptions): Promise<FullNode> {
  const { config, logger } = o;
  const clock = o.clock ?? systemClock;
  const db = await openDatabase({
    dataDirectory: config.dataDirectory,
    ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
  });
  const closers: (() => Promise<void>)[] = [() => db.destroy()];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse())
      await close().catch((err: unknown) => logger.error('close failed', { err }));
  };
  try {
    const followUrl = followedUrl(config.follow);
    const newChain = await checkChainParams(db, config);
    // One allow-list and one signature registry for the tx validator, the block builder's public VM and the RPC.
    const allowList = new SetupAllowList();
    const signatures = new FunctionSignatureRegistry();
    const engine = await createEngine({
      hasher: offThreadLevelHasher,
      ...engineSettings(config, clock),
      db,
      // The pool is the engine's tx source and reads the engine's chain through the view it is opened with.
      openTxSource: async (chain) => {
        const pool = await TxPool.open({
          db,
          chain,
          config: { maxPendingTxCount: config.maxPendingTxCount },
          ...(o.metrics && { observer: o.metrics.pool }),
        });
        closers.push(() => pool.close());
        return pool;
      },
      publicVm: { allowList: () => allowList.list(), signatures },
    });
    closers.push(() => engine.stop());
    const pool = engine.txSource;
    const validateTx = createNodeTxValidator({
      chain: createEngineChainView(engine),
      allowList: () => allowList.list(),
      classIdOf: async (address) => (await engine.contracts.getContractInstance(address))?.currentContractClassId,
      config: { maxGasLimits: { daGas: config.maxDaGasPerBlock, l2Gas: config.maxL2GasPerBlock } },
    });
    const rollbackTo = (target: number, force: boolean) => engine.rollbackTo(target, { force });
    const admin =
      o.admin === true ? await openNodeAdmin({ db, engine, pool, allowList, rollbackTo }, config, logger) : undefined;
    // The admin side's switch is the production gate (pause/resume) when it is open.
    const gate = admin?.sync ?? new SyncSwitch(config.sequencerPollingIntervalMs);
    const proposer = admin !== undefined ? proposerSelection(admin) : undefined;

    // p2p is created after the block source and the follower that use it; they reach it when they run, after start().
    let p2p: P2PService | undefined;
    const peers = () => p2p?.getPeers() ?? [];
    let source: BlockSource | undefined;
    let role: NodeRole;
    let onBlock: BlockGossipHandler = checkedAnnouncement(() => follower?.wake());
    if (followUrl !== undefined) {
      source = new RpcBlockSource(followUrl);
      role = { kind: 'follower', over: 'rpc', source: followUrl };
    } else if (p2pOn(config) && !config.sequencer) {
      // Tips and checkpoints too: this node's checkpoints and proof tips are its peers', verified here.
      const p2pSource = new P2pBlockSource({
        getPeers: peers,
        requestBlocks: (peer, from, limit) => p2p!.requestBlocks(peer, from, limit),
        requestCheckpoints: (peer, from, limit) => p2p!.requestCheckpoints(peer, from, limit),
        reportInvalid: (peer, reason) => p2p?.reportInvalid(peer, reason),
      });
      p2pSource.onNewBlock = () => follower?.wake();
      onBlock = p2pSource.onAnnouncement;
      source = p2pSource;
      role = { kind: 'follower', over: 'p2p', source: 'p2p' };
    } else {
      role = { kind: config.sequencer ? 'sequencer' : 'standalone' };
      // Proposers on other nodes: their slots' blocks come from peers, through the follower's verified import;
      // blocks only, as this node seals its own checkpoints.
      if (p2pOn(config) && config.sequencer && (config.registeredValidators ?? []).length > 0) {
        const p2pSource = new P2pBlockSource({
          getPeers: peers,
          requestBlocks: (peer, from, limit) => p2p!.requestBlocks(peer, from, limit),
        });
        p2pSource.onNewBlock = () => follower?.wake();
        onBlock = p2pSource.onAnnouncement;
        // Alone on the network is normal for a sequencer: no peer means nothing to import, not an error.
        source = {
          name: 'p2p',
          maxBlocksPerRequest: p2pSource.maxBlocksPerRequest,
          getTips: () => p2pSource.getTips(),
          getBlocks: async (from, limit) => (peers().length === 0 ? [] : p2pSource.getBlocks(from, limit)),
        };
      }
    }
    const follower =
      source === undefined
        ? undefined
        : new Follower({
            // Txs of imported blocks leave the pool inside each block's commit (the pool owns tx status: txpool/tx-status.ts).
            engine,
            source,
            sync: gate,
            logger,
            ownProofTips: role.kind === 'sequencer',
            // A follower follows its source's reorgs (a sequencer importing peers' blocks keeps its own chain).
            ...(role.kind === 'follower' && { unwindTo: (target: number) => engine.rollbackTo(target) }),
            progressIntervalMs: (config.progressIntervalSeconds ?? 10) * 1000,
            ...(o.metrics && { observer: o.metrics.follower }),
          });
    let duties: ConsensusDuties | undefined;
    if (p2pOn(config)) {
      p2p = createNodeP2P(
        {
          dataDirectory: config.dataDirectory,
          host: config.p2pHost,
          port: config.p2pPort,
          bootstrapPeers: config.p2pBootstrapPeers,
          network: `${config.l1ChainId}-${config.rollupVersion}`,
          ...(o.metrics && { observer: o.metrics.p2p }),
        },
        pool,
        validateTx,
        logger,
        {
          onBlock,
          blockRangeHandler: blockRangeHandlerFor(engine.chain),
          checkpointRangeHandler: checkpointRangeHandlerFor(engine),
        },
        consensusHooks(() => duties),
      );
      // Our validators propose and attest over p2p; messages reach them only once p2p starts.
      if (admin !== undefined)
        duties = consensusDuties(admin, engine, p2p, {
          slotDurationSeconds: config.slotDurationSeconds,
          fetchBlocks: () => follower?.wake(),
          logger,
        });
    }
    // Following over RPC without p2p: node_sendTx forwards to the followed node (with p2p, gossip carries the tx).
    const forward =
      followUrl !== undefined && p2p === undefined ? txForwarder(followUrl, 'the followed node') : undefined;
    // The node's sequencer, built now that the parts its role needs exist: our validators' slots and,
    // beside validators on other nodes, the catch-up with peers before each build (docs/P2P.md, "Slot timing").
    const slotGate =
      role.kind === 'sequencer' && p2p !== undefined && follower !== undefined
        ? peerBuildGate(engine, p2p, follower, proposer, o)
        : undefined;
    const sequencer = engine.sequencerFor({
      ...(proposer && { proposer }),
      ...(slotGate && { slotGate }),
      ...(o.metrics && { onBlockBuilt: o.metrics.blockBuilt }),
    });
    const built = { db, engine, pool, p2p, validateTx, allowList, signatures, newChain, role, admin, rollbackTo };
    return assemble({ o, built, closeAll, closers, gate, follower, source, duties, sequencer, forward });
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/**
 * The world state as a follower reports it: `treesAreSynched` means "caught up with the source"
 * (the trees always match our own tip); every other read is the world state's own.
 */
function followerWorldState(
  worldState: Engine['worldState'],
  followStatus: () => { readonly state: FollowerState } | undefined,
): WorldStateReader {
  return {
    getLatestBlockNumber: () => worldState.getLatestBlockNumber(),
    getBlockHash: (n) => worldState.getBlockHash(n),
    async getSyncStatus() {
      const status = await worldState.getSyncStatus();
      return { ...status, treesAreSynched: followStatus()?.state === 'caught-up' && status.treesAreSynched };
    },
    findLeafIndices: (...a) => worldState.findLeafIndices(...a),
    getSiblingPath: (...a) => worldState.getSiblingPath(...a),
    getNullifierMembershipWitness: (...a) => worldState.getNullifierMembershipWitness(...a),
    getLowNullifierMembershipWitness: (...a) => worldState.getLowNullifierMembershipWitness(...a),
    getPublicDataWitness: (...a) => worldState.getPublicDataWitness(...a),
    getPublicStorageAt: (...a) => worldState.getPublicStorageAt(...a),
    getNoteHashMembershipWitness: (...a) => worldState.getNoteHashMembershipWitness(...a),
    getBlockHashMembershipWitness: (...a) => worldState.getBlockHashMembershipWitness(...a),
    getL1ToL2MessageMembershipWitness: (...a) => worldState.getL1ToL2MessageMembershipWitness(...a),
  };
}

/**
 * The slot gate of a sequencer beside validators on other nodes: it catches up with its peers
 * before it builds (docs/P2P.md, "Slot timing"); "alone" is counted from when the node is built.
 */
function peerBuildGate(
  engine: Engine,
  p2p: P2PService,
  follower: Follower,
  proposer: ProposerSelection | undefined,
  { config, logger }: NodeOptions,
): PeerBuildGate {
  const nowMs = () => engine.config.clock.nowMs();
  return new PeerBuildGate({
    peerCount: () => p2p.getPeers().length,
    catchUp: (untilMs) => follower.catchUp(untilMs, nowMs),
    previousSlotPending: async (slot) => {
      const prev = slot - 1;
      // Without a proposer selection every slot is ours.
      if (prev < 1 || proposer === undefined || proposer(prev) !== undefined) return false;
      const tip = await engine.chain.findBlock('latest');
      return (tip?.header.globalVariables.slotNumber ?? 0) < prev;
    },
    slotStartMs: (slot) => Number(engine.time.slotStart(slot)) * 1000,
    nowMs,
    expectsPeers: config.p2pBootstrapPeers.length > 0,
    startedAtMs: nowMs(),
    ...buildGateTiming(config.slotDurationSeconds, config.slotsPerEpoch),
    logger,
  });
}

/** p2p runs when enabled or when there are peers to reach. */
function p2pOn(config: NodeOptions['config']): boolean {
  return config.p2pEnabled || config.p2pBootstrapPeers.length > 0;
}

/** Everything the node's running side (`assemble`) works with: built, none of it rebound later. */
interface Parts {
  readonly o: NodeOptions;
  /** The parts the node exposes as they are. */
  readonly built: Pick<
    FullNode,
    | 'db'
    | 'engine'
    | 'pool'
    | 'p2p'
    | 'validateTx'
    | 'allowList'
    | 'signatures'
    | 'newChain'
    | 'role'
    | 'admin'
    | 'rollbackTo'
  >;
  readonly closers: (() => Promise<void>)[];
  closeAll(): Promise<void>;
  readonly gate: SyncSwitch;
  readonly follower: Follower | undefined;
  /** The follower's block source (when this node has a follower). */
  readonly source: BlockSource | undefined;
  readonly duties: ConsensusDuties | undefined;
  readonly sequencer: Sequencer;
  readonly forward: ReturnType<typeof txForwarder> | undefined;
}

function assemble(p: Parts): FullNode {
  const { o, gate, follower, duties } = p;
  const { db, engine, pool, p2p, validateTx, allowList, signatures, role, admin } = p.built;
  const { config, logger } = o;
  const sequencing = role.kind === 'sequencer';
  let stopped = false;
  let followerStarted = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> = Promise.resolve();
  const dbHealth = databaseHealth(db);

  const isReady = async () => {
    if (stopped || !pool.running || dbHealth.state !== DatabaseState.CONNECTED) return false;
    if (p2p !== undefined && !p2p.isReady()) return false;
    if (role.kind === 'follower' && follower?.running !== true) return false;
    return databaseAnswers(db);
  };
  const announce = async (from: number) => {
    const to = await engine.chain.getBlockNumber();
    if (p2p === undefined || !p2p.isReady() || to < from) return;
    for (const b of await engine.chain.blocksFrom(from, to - from + 1)) {
      await p2p
        .publishBlock(blockAnnouncement(b))
        .catch((err: unknown) =>
          logger.warn('p2p: announcing a block failed', { block: b.header.globalVariables.blockNumber, err }),
        );
    }
  };
  const slotReports = slotReporter(engine, logger, () => duties);
  const step = async () => {
    // A block (or the passing of time) can invalidate pending txs: revalidate after each step.
    if (sequencing) {
      const before = await engine.chain.getBlockNumber();
      await engine.tick(p.sequencer);
      // After the commit: peers may fetch the block by range as soon as they see the announcement.
      await announce(before + 1);
      // A checkpoint sealed in this step for one of our validators' slots: propose it to the committee.
      if (p2p?.isReady() === true)
        await duties?.afterStep().catch((err: unknown) => logger.warn('p2p: proposing failed', { err }));
      if (admin !== undefined) await slotReports(admin.sentinel);
    }
    await pool.revalidateAfterBlock();
    // Mined txs at or below the finalized block can no longer be unwound: forget their wire JSON.
    await pool.pruneMined((await engine.chain.getL2Tips()).finalized.block.number);
  };
  const followStatus = () => (followerStarted ? follower?.status() : undefined);
  const syncState = (): FollowerState => followStatus()?.state ?? gate.state;
  // On a follower, treesAreSynched means "caught up with the source" (the trees always match our own tip).
  const worldState: WorldStateReader =
    role.kind !== 'follower' ? engine.worldState : followerWorldState(engine.worldState, followStatus);
  const publicHandlers = createPublicHandlers({
    nodeVersion: o.nodeVersion,
    rollupVersion: config.rollupVersion,
    l1ChainId: config.l1ChainId,
    engine: engineHandlerDeps(engine, {
      isReady,
      getEncodedEnr: () => p2p?.getEncodedEnr() ?? undefined,
      signatures,
      allowList,
      worldState,
      contracts: true,
    }),
    // A simulation may spend at most what one tx of a block may (the pool refuses more): bounded work per call.
    simulation: {
      engine,
      allowList: () => allowList.list(),
      signatures,
      maxL2GasLimit: BigInt(config.maxL2GasPerBlock),
    },
    transactions: poolTransactions(publishingPool(pool, p2p, logger, p.forward), validateTx),
  });

  const startFollower = async () => {
    if (follower === undefined) return;
    if (role.kind === 'follower' && role.over === 'rpc') await checkSource(role.source);
    await follower.start();
    followerStarted = true;
    p.closers.push(() => follower.stop());
    logger.info('following', {
      over: role.kind === 'follower' ? role.over : undefined,
      source: p.source?.name,
      from: await engine.chain.getBlockNumber(),
    });
  };
  /** Fails the start when the followed node runs another chain; an unreachable one is retried by the follower. */
  const checkSource = async (url: string) => {
    const genesisHeader = await publicHandlers.getBlockHeader!(0);
    try {
      await checkFollowedNode(url, {
        l1ChainId: config.l1ChainId,
        rollupVersion: config.rollupVersion,
        genesisHeader,
        time: engine.time,
      });
    } catch (err) {
      if (err instanceof SourceMismatchError) throw err;
      logger.warn('followed node not reachable at start; its chain is checked block by block', {
        source: url,
        err: (err as Error).message,
      });
    }
  };

  return {
    ...p.built,
    publicHandlers,
    fundedAccounts: engine.fundedAccounts,
    followStatus,
    sync: gate,
    syncState,
    isReady,
    async health() {
      const healthy = await isReady();
      const follow = followStatus();
      return {
        healthy,
        version: o.nodeVersion,
        syncState: syncState(),
        ...(await storageStatus(dbHealth, engine.chain)),
        sequencer: sequencing,
        p2p: p2pStatus(p2p),
        ...(role.kind === 'follower' && { follow: { over: role.over, source: role.source, ...follow } }),
      };
    },
    step: () => gate.step(step).then(() => undefined),
    async start() {
      if (stopped) throw new Error('node stopped');
      if (p2p !== undefined) {
        await p2p.start();
        p.closers.push(() => p2p.stop());
      }
      await startFollower();
      let busy = false;
      timer ??= setInterval(() => {
        // One step at a time: while a slow step runs (Postgres), timer beats are skipped, not queued.
        if (busy) return;
        busy = true;
        inFlight = gate
          .step(step)
          .catch((err: unknown) => logger.error('production step failed', { err }))
          .finally(() => (busy = false));
      }, config.sequencerPollingIntervalMs);
      if (config.botEnabled)
        p.closers.push(
          (await import('./bot/index.ts')).startBot({
            config,
            logger,
            handlers: publicHandlers,
            fundedAccounts: engine.fundedAccounts,
          }).stop,
        );
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await inFlight;
      await p.closeAll();
    },
  };
}

/** The consensus topics' hooks, judged by the validator duties once wired (dropped unjudged before). */
function consensusHooks(duties: () => ConsensusDuties | undefined): NodeConsensusHooks {
  return {
    onProposal: async (p) => (await duties()?.onProposal(p)) ?? 'ignore',
    onAttestation: async (a) => (await duties()?.onAttestation(a)) ?? 'ignore',
  };
}

/** The p2p part of GET /status: whether it runs, and how many peers it has (all, and on the tx topic). */
function p2pStatus(p2p: P2PService | undefined) {
  if (p2p === undefined) return { enabled: false };
  if (!p2p.isReady()) return { enabled: true, running: false };
  return { enabled: true, running: true, peers: p2p.getPeers().length, txTopicPeers: p2p.getTxTopicPeers().length };
}

/** `--follow`'s URL (undefined when not following); anything but http(s) stops the start. */
function followedUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`invalid value ${JSON.stringify(value)} for --follow: must be an http:// or https:// URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`invalid value ${JSON.stringify(value)} for --follow: must be an http:// or https:// URL`);
  return value;
}

/** The block announcement hook of a node that does not follow over p2p: checked, relayed, and a follower woken. */
function checkedAnnouncement(wake: () => void): BlockGossipHandler {
  return async (a) => {
    try {
      decodeAnnouncement(a);
    } catch {
      return 'reject';
    }
    wake();
    return 'accept';
  };
}
