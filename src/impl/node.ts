/**
 * The composition root: from a `Config`, opens storage and builds the engine with the mempool
 * as its tx source, the node tx validator, p2p when enabled, the public handlers, the block
 * production loop (or the follower) and the health report. main.ts only adds servers and
 * signals; tests build a whole node in-process with `createNode`.
 *
 * Roles: a **sequencer** (default) builds blocks and, with p2p, announces each one after it is
 * committed; a node with `--follow <url>` follows that node over its RPC (no sequencer); a node
 * with p2p on and `--sequencer=false` follows its peers over p2p. Every p2p node serves block
 * ranges from its chain, and a valid block announcement wakes a follower at once. A sequencer with
 * p2p and `--registered-validators` (proposers on other nodes) also imports the blocks of their
 * slots from peers, and its validators gossip checkpoint proposals and attestations
 * (`useConsensus`, validators/consensus-duties.ts).
 * @module
 */
import type { Knex } from 'knex';
import type { Config } from '../config/options.ts';
import type { HealthReport, Logger } from '../server/types.ts';
import type { Clock } from './chain/time.ts';
import { systemClock } from './chain/time.ts';
import { FunctionSignatureRegistry } from './contracts/function-selector.ts';
import { createEngine } from './engine.ts';
import type { Engine, FundedAccount } from './engine.ts';
import { createNodeClient } from '../generated/public/client.ts';
import type { Checkpoint, L2Block } from './chain/types.ts';
import { SyncSwitch } from './node-config/sync-control.ts';
import { checkChainParams } from './node-chain-params.ts';
import { createNodeP2P, publishingPool } from './node-p2p.ts';
import type { NodeBlockHooks, NodeConsensusHooks, TxForwarder } from './node-p2p.ts';
import { blockAnnouncement, blockRangeHandlerFor, decodeAnnouncement } from './p2p/block-sync.ts';
import { checkpointRangeHandlerFor } from './p2p/checkpoint-sync.ts';
import type { P2PService } from './p2p/index.ts';
import type { BlockGossipHandler } from './p2p/types.ts';
import { createPublicHandlers } from './rpc/public/index.ts';
import type { WorldStateReader } from './rpc/public/block-param.ts';
import type { PublicHandlerSet } from './rpc/public/index.ts';
import { SetupAllowList } from './setup-allow-list.ts';
import { databaseHealth, DatabaseState, openDatabase } from './store/database.ts';
import { createEngineChainView } from './txpool/chain-view.ts';
import type { ChainView } from './txpool/chain-view.ts';
import { TxPool } from './txpool/tx-pool.ts';
import { createNodeTxValidator } from './txpool/tx-validator.ts';
import type { NodeTxValidator } from './txpool/tx-validator.ts';
import { RpcBlockSource } from './sync/block-source.ts';
import type { BlockSource } from './sync/block-source.ts';
import { Follower } from './sync/follower.ts';
import type { FollowerState, FollowerStatus } from './sync/follower.ts';
import { P2pBlockSource } from './sync/p2p-block-source.ts';
import { buildGateTiming, PeerBuildGate } from './sync/peer-build-gate.ts';
import { checkFollowedNode, SourceMismatchError } from './sync/source-check.ts';
import type { ProposerSelection } from './sequencer/sequencer.ts';
import type { SlotObserver } from './validators/sentinel.ts';
import type { ConsensusDuties } from './validators/consensus-duties.ts';
import type { L2Node, NodeOptions, NodeRole, SyncGate } from './node-types.ts';

/** Opens storage and builds every part; nothing runs until `start()`. */
export async function createNode(o: NodeOptions): Promise<L2Node> {
  if (o.config.importChain !== undefined)
    return (await import('./chain-import-file.ts')).importChainFile(o, createNode);
  if (o.config.role !== undefined && o.config.role !== 'full')
    return (await import('./reader/reader-node.ts')).createReaderNode(o);
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
    // The pool is the engine's tx source and reads the engine's chain: the view binds on first use.
    let engine: Engine | undefined;
    let view: ChainView | undefined;
    const chain = new Proxy({} as ChainView, {
      get: (_t, key) => {
        if (engine === undefined) throw new Error('chain view used before the engine exists');
        return (view ??= createEngineChainView(engine))[key as keyof ChainView];
      },
    });
    const pool = await TxPool.open({
      db,
      chain,
      config: { maxPendingTxCount: config.maxPendingTxCount },
      ...(o.metrics && { observer: o.metrics.pool }),
    });
    closers.push(() => pool.close());
    // One allow-list and one signature registry for the tx validator, the block builder's public VM and the RPC.
    const allowList = new SetupAllowList();
    const signatures = new FunctionSignatureRegistry();
    engine = await createEngine({
      db,
      clock,
      genesisTime: config.genesisTime,
      slotDurationSeconds: config.slotDurationSeconds,
      l1BlockSeconds: config.slotDurationSeconds,
      slotsPerEpoch: config.slotsPerEpoch,
      proofDelaySeconds: config.proofDelaySeconds,
      finalityDepth: config.finalityDepth,
      l1ChainId: config.l1ChainId,
      rollupVersion: config.rollupVersion,
      initialEthPerFeeAsset: config.initialEthPerFeeAsset,
      maxTxsPerBlock: config.maxTxsPerBlock,
      minTxsPerBlock: config.minTxsPerBlock,
      buildEmptyBlocks: config.buildEmptyBlocks,
      maxL2GasPerBlock: config.maxL2GasPerBlock,
      maxDaGasPerBlock: config.maxDaGasPerBlock,
      tickMs: config.sequencerPollingIntervalMs,
      txSource: pool,
      publicVm: { allowList: () => allowList.list(), signatures },
    });
    const eng = engine;
    closers.push(() => eng.stop());
    if (o.metrics !== undefined) eng.sequencer.onBlockBuilt(o.metrics.blockBuilt);
    const validateTx = createNodeTxValidator({
      chain,
      allowList: () => allowList.list(),
      classIdOf: async (address) => (await eng.contracts.getContractInstance(address))?.currentContractClassId,
      config: { maxGasLimits: { daGas: config.maxDaGasPerBlock, l2Gas: config.maxL2GasPerBlock } },
    });
    const p2pOn = config.p2pEnabled || config.p2pBootstrapPeers.length > 0;
    // The follower exists from start(); announcements reach it through this indirection.
    const followerRef: { current?: Follower } = {};
    // Validator duties are wired by the admin side after the node is built (useConsensus).
    const consensusRef: { current?: ConsensusDuties } = {};
    let p2p: P2PService | undefined;
    let source: BlockSource | undefined;
    let role: NodeRole;
    let onBlock: BlockGossipHandler = checkedAnnouncement(() => followerRef.current?.wake());
    if (followUrl !== undefined) {
      source = new RpcBlockSource(followUrl);
      role = { kind: 'follower', over: 'rpc', source: followUrl };
    } else if (p2pOn && !config.sequencer) {
      // Tips and checkpoints too: this node's checkpoints and proof tips are its peers', verified here.
      const p2pSource = new P2pBlockSource({
        getPeers: () => p2p?.getPeers() ?? [],
        requestBlocks: (peer, from, limit) => p2p!.requestBlocks(peer, from, limit),
        requestCheckpoints: (peer, from, limit) => p2p!.requestCheckpoints(peer, from, limit),
        reportInvalid: (peer, reason) => p2p?.reportInvalid(peer, reason),
      });
      p2pSource.onNewBlock = () => followerRef.current?.wake();
      onBlock = p2pSource.onAnnouncement;
      source = p2pSource;
      role = { kind: 'follower', over: 'p2p', source: 'p2p' };
    } else {
      role = { kind: config.sequencer ? 'sequencer' : 'standalone' };
      // Proposers on other nodes: their slots' blocks come from peers, through the follower's verified import;
      // blocks only, as this node seals its own checkpoints.
      if (p2pOn && config.sequencer && (config.registeredValidators ?? []).length > 0) {
        const p2pSource = new P2pBlockSource({
          getPeers: () => p2p?.getPeers() ?? [],
          requestBlocks: (peer, from, limit) => p2p!.requestBlocks(peer, from, limit),
        });
        p2pSource.onNewBlock = () => followerRef.current?.wake();
        onBlock = p2pSource.onAnnouncement;
        // Alone on the network is normal for a sequencer: no peer means nothing to import, not an error.
        source = {
          name: 'p2p',
          maxBlocksPerRequest: p2pSource.maxBlocksPerRequest,
          getTips: () => p2pSource.getTips(),
          getBlocks: async (from, limit) =>
            (p2p?.getPeers().length ?? 0) === 0 ? [] : p2pSource.getBlocks(from, limit),
        };
      }
    }
    if (p2pOn) {
      const blocks: NodeBlockHooks = {
        onBlock,
        blockRangeHandler: blockRangeHandlerFor(eng.chain),
        checkpointRangeHandler: checkpointRangeHandlerFor(eng),
      };
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
        blocks,
        consensusHooks(() => consensusRef.current),
      );
    }
    // Following over RPC without p2p: node_sendTx forwards to the followed node (with p2p, gossip carries the tx).
    const forward = followUrl !== undefined && !p2pOn ? txForwarder(followUrl) : undefined;
    return assemble({
      o,
      db,
      engine: eng,
      pool,
      p2p,
      validateTx,
      allowList,
      signatures,
      newChain,
      closeAll,
      closers,
      role,
      source,
      followerRef,
      consensusRef,
      forward,
    });
  } catch (err) {
    await closeAll();
    throw err;
  }
}

interface Parts {
  readonly o: NodeOptions;
  readonly db: Knex;
  readonly engine: Engine;
  readonly pool: TxPool;
  readonly p2p: P2PService | undefined;
  readonly validateTx: NodeTxValidator;
  readonly allowList: SetupAllowList;
  readonly signatures: FunctionSignatureRegistry;
  readonly newChain: boolean;
  readonly closers: (() => Promise<void>)[];
  closeAll(): Promise<void>;
  readonly role: NodeRole;
  /** The follower's block source (on a follower). */
  readonly source: BlockSource | undefined;
  readonly followerRef: { current?: Follower };
  readonly consensusRef: { current?: ConsensusDuties };
  readonly forward: TxForwarder | undefined;
}

function assemble(p: Parts): L2Node {
  const { o, db, engine, pool, p2p, validateTx, allowList, signatures, role, followerRef, consensusRef } = p;
  const { config, logger } = o;
  const sequencing = role.kind === 'sequencer';
  let gate: SyncGate = new SyncSwitch(config.sequencerPollingIntervalMs);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> = Promise.resolve();
  const dbHealth = databaseHealth(db);

  const isReady = async () => {
    if (stopped || !pool.running || dbHealth.state !== DatabaseState.CONNECTED) return false;
    if (p2p !== undefined && !p2p.isReady()) return false;
    if (role.kind === 'follower' && followerRef.current?.running !== true) return false;
    return db.raw('select 1').then(
      () => true,
      () => false,
    );
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
  let slotObserver: SlotObserver | undefined;
  let proposerSelection: ProposerSelection | undefined;
  const slotReports = slotReporter(engine, logger, () => consensusRef.current);
  const step = async () => {
    // A block (or the passing of time) can invalidate pending txs: revalidate after each step.
    if (sequencing) {
      const before = await engine.chain.getBlockNumber();
      await engine.tick();
      // After the commit: peers may fetch the block by range as soon as they see the announcement.
      await announce(before + 1);
      // A checkpoint sealed in this step for one of our validators' slots: propose it to the committee.
      if (p2p?.isReady() === true)
        await consensusRef.current?.afterStep().catch((err: unknown) => logger.warn('p2p: proposing failed', { err }));
      if (slotObserver !== undefined) await slotReports(slotObserver);
    }
    await pool.revalidateAfterBlock();
    // Mined txs at or below the finalized block can no longer be unwound: forget their wire JSON.
    await pool.pruneMined((await engine.chain.getL2Tips()).finalized.block.number);
  };
  const followStatus = () => followerRef.current?.status();
  const syncState = (): FollowerState => followStatus()?.state ?? gate.state;
  // On a follower, treesAreSynched means "caught up with the source" (the trees always match our own tip).
  const worldState: WorldStateReader =
    role.kind !== 'follower'
      ? engine.worldState
      : new Proxy(engine.worldState, {
          get(target, key) {
            if (key === 'getSyncStatus') {
              return async () => ({
                ...(await target.getSyncStatus()),
                treesAreSynched:
                  followStatus()?.state === 'caught-up' && (await target.getSyncStatus()).treesAreSynched,
              });
            }
            const v: unknown = Reflect.get(target, key, target);
            return typeof v === 'function' ? v.bind(target) : v;
          },
        });
  const publicHandlers = createPublicHandlers({
    nodeVersion: o.nodeVersion,
    rollupVersion: config.rollupVersion,
    l1ChainId: config.l1ChainId,
    engine: {
      chain: engine.chain,
      checkpoints: engine.checkpoints,
      worldState,
      l1: engine.l1,
      protocolContractAddresses: engine.protocolContractAddresses,
      realProofs: false,
      getCurrentMinFees: () => engine.getCurrentMinFees(),
      isReady,
      getEncodedEnr: () => p2p?.getEncodedEnr() ?? undefined,
      signatures,
      allowList: () => allowList.list(),
      contracts: engine.contracts,
    },
    // A simulation may spend at most what one tx of a block may (the pool refuses more): bounded work per call.
    simulation: {
      engine,
      allowList: () => allowList.list(),
      signatures,
      maxL2GasLimit: BigInt(config.maxL2GasPerBlock),
    },
    transactions: { pool: publishingPool(pool, p2p, logger, p.forward), validateTx },
  });

  const startFollower = async () => {
    if (p.source === undefined) return;
    if (role.kind === 'follower' && role.over === 'rpc') await checkSource(role.source);
    const follower = new Follower({
      // Txs of imported blocks leave the pool inside each block's commit (the pool owns tx status: txpool/tx-status.ts).
      engine,
      source: p.source,
      sync: gate,
      logger,
      ownProofTips: sequencing,
      // A follower follows its source's reorgs (a sequencer importing peers' blocks keeps its own chain).
      ...(role.kind === 'follower' && { unwindTo: (target: number) => engine.rollbackTo(target) }),
      progressIntervalMs: (config.progressIntervalSeconds ?? 10) * 1000,
      ...(o.metrics && { observer: o.metrics.follower }),
    });
    followerRef.current = follower;
    // A sequencer beside validators on other nodes catches up with its peers before it builds (docs/P2P.md, "Slot timing").
    if (sequencing && p2p !== undefined) {
      const nowMs = () => engine.config.clock.nowMs();
      engine.sequencer.useSlotGate(
        new PeerBuildGate({
          peerCount: () => p2p.getPeers().length,
          catchUp: (untilMs) => follower.catchUp(untilMs, nowMs),
          previousSlotPending: async (slot) => {
            const prev = slot - 1;
            // Without a proposer selection every slot is ours.
            if (prev < 1 || proposerSelection === undefined || proposerSelection(prev) !== undefined) return false;
            const tip = await engine.chain.findBlock('latest');
            return (tip?.header.globalVariables.slotNumber ?? 0) < prev;
          },
          slotStartMs: (slot) => Number(engine.time.slotStart(slot)) * 1000,
          nowMs,
          expectsPeers: config.p2pBootstrapPeers.length > 0,
          startedAtMs: nowMs(),
          ...buildGateTiming(config.slotDurationSeconds, config.slotsPerEpoch),
          logger,
        }),
      );
    }
    await follower.start();
    p.closers.push(() => follower.stop());
    logger.info('following', {
      over: role.kind === 'follower' ? role.over : undefined,
      source: p.source.name,
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
    db,
    engine,
    pool,
    p2p,
    validateTx,
    allowList,
    signatures,
    publicHandlers,
    fundedAccounts: engine.fundedAccounts,
    newChain: p.newChain,
    role,
    followStatus,
    get sync() {
      return gate;
    },
    useSyncGate(g) {
      gate = g;
    },
    useSlotObserver(observer) {
      slotObserver = observer;
    },
    useProposer(select) {
      proposerSelection = select;
      engine.sequencer.useProposer(select);
    },
    useConsensus(duties) {
      consensusRef.current = duties;
    },
    wakeFollower() {
      followerRef.current?.wake();
    },
    syncState,
    isReady,
    async health() {
      const ready = await isReady();
      const database = dbHealth.report();
      const latestBlockNumber =
        database.state === DatabaseState.CONNECTED
          ? await engine.chain.getBlockNumber().catch(() => undefined)
          : undefined;
      const follow = followStatus();
      return {
        healthy: ready,
        version: o.nodeVersion,
        syncState: syncState(),
        database,
        ...(latestBlockNumber === undefined ? {} : { latestBlockNumber }),
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

/** Most finished slots reported in one step (after a long pause, older ones are left out). */
const MAX_SLOTS_PER_REPORT = 256;

/** With validator duties: an incomplete slot is reported this many slots after it ended. */
const REPORT_DEADLINE_SLOTS = 2;

/**
 * What the sequencer did in each finished slot, for the sentinel: the slot's checkpoint (sealed by
 * the first tick of a later slot, posted to L1 at once: `mined`) with its archive root, or blocks
 * without a checkpoint (`blocksSeen`), or nothing. Slots are reported from the one the node started
 * in, in order; an epoch is reported proven when the proven checkpoint moves into it. With
 * validator duties on p2p, the attestations received for the slot go with it, and a finished slot
 * is reported as soon as its checkpoint is sealed here and every committee member's attestation
 * has arrived, else `REPORT_DEADLINE_SLOTS` slots after it ended (docs/P2P.md, "Slot timing"):
 * the proposal goes out at the seal (the proposer's first tick after the slot), a receiver may
 * wait up to a slot for the block, then its attestation travels back.
 */
function slotReporter(
  engine: Engine,
  logger: Logger,
  consensus: () => ConsensusDuties | undefined,
): (observer: SlotObserver) => Promise<void> {
  let nextSlot: number | undefined;
  let nextCheckpoint: number | undefined;
  let provenEpoch: number | undefined;
  const bySlot = new Map<number, Checkpoint>();
  return async (observer) => {
    const duties = consensus();
    const nowMs = engine.config.clock.nowMs();
    const slotAtMs = (ms: number) => engine.time.slotAt(BigInt(Math.floor(ms / 1000)));
    const finished = slotAtMs(nowMs);
    // Slots before `due` are reported whatever arrived; later finished ones only once complete.
    const due =
      duties === undefined
        ? finished
        : slotAtMs(nowMs - REPORT_DEADLINE_SLOTS * engine.config.slotDurationSeconds * 1000);
    nextSlot ??= Math.max(1, finished);
    nextCheckpoint ??= (await engine.checkpoints.latestCheckpointNumber()) + 1;
    for (let more = true; more; ) {
      const found = await engine.checkpoints.checkpointsFrom(nextCheckpoint, 64);
      for (const c of found) bySlot.set(c.header.slotNumber, c);
      nextCheckpoint += found.length;
      more = found.length === 64;
    }
    nextSlot = Math.max(nextSlot, finished - MAX_SLOTS_PER_REPORT);
    const open = nextSlot < finished ? await engine.chain.openCheckpointBlocks() : [];
    for (; nextSlot < finished; nextSlot++) {
      const slot = nextSlot;
      const c = bySlot.get(slot);
      if (slot >= due && !(c !== undefined && duties?.attestationsComplete(slot) === true)) break;
      bySlot.delete(slot);
      const blocksSeen = c === undefined && open.some((b) => b.header.globalVariables.slotNumber === slot);
      const attestations = duties?.attestationsFor(slot) ?? [];
      await observer
        .onSlot({
          slot,
          ...(c === undefined ? {} : { proposal: { archive: c.archive.root, mined: true } }),
          ...(blocksSeen ? { blocksSeen } : {}),
          ...(attestations.length > 0 ? { attestations } : {}),
        })
        .catch((err: unknown) => logger.warn('sentinel: recording a slot failed', { slot, err }));
    }
    for (const s of bySlot.keys()) if (s < nextSlot) bySlot.delete(s);
    const proven = await engine.l1.provenCheckpointNumber();
    const cp = proven === 0 ? undefined : await engine.checkpoints.findCheckpoint(proven);
    if (cp === undefined) return;
    const epoch = engine.time.epochOfSlot(cp.header.slotNumber);
    for (let e = provenEpoch === undefined ? epoch : provenEpoch + 1; e <= epoch; e++) {
      await observer
        .onEpochProven(e)
        .catch((err: unknown) => logger.warn('sentinel: recording a proven epoch failed', { epoch: e, err }));
    }
    provenEpoch = epoch;
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

/** node_sendTx on the followed node, bounded in time (the client waits for our answer). */
function txForwarder(url: string, timeoutMs = 10_000): TxForwarder {
  const client = createNodeClient(url, { batch: false });
  return async (wire) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from ${url} within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([client.sendTx(wire as Parameters<typeof client.sendTx>[0]), timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}
