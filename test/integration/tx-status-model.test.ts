/**
 * Model-based test of tx status (fast-check's async model runner) on a whole in-process node, on
 * SQLite and on Postgres: random sequences of sendTx (valid, conflicting on a nullifier, expiring,
 * anchored at any block of the chain), production steps, rollbacks with and without force,
 * pause/resume, and kill -9 + restart. After every command the node is checked against a small
 * model (what was accepted, each tx's anchor and nullifiers, which blocks a rollback must keep):
 *
 * - every mined tx's anchor block is an ancestor of its block (in the chain, below it);
 * - receipt, pending count, pending list and getTxByHash agree for every accepted tx;
 * - nullifiers are unique across the chain; only accepted txs are in blocks;
 * - every accepted tx is pending, mined or dropped with its own reason — never unknown (lost);
 *   at the end, after draining, every one is mined or dropped;
 * - tips are ordered finalized ≤ proven ≤ checkpointed ≤ proposed;
 * - a rollback keeps the blocks up to its target and leaves nothing pending anchored above it;
 *   with force nothing is pending; a restart changes nothing observable.
 *
 * Each seed is printed (rerun with L2NODE_MODEL_SEED=<seed>); a failure shrinks to a short command
 * list, printed by fast-check. L2NODE_MODEL_RUNS (lists per seed), L2NODE_MODEL_COMMANDS (longest
 * list) and L2NODE_MODEL_MIN_STEPS (default 500) scale a run.
 * @module
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { ManualClock } from '../../src/impl/chain/time.ts';
import { FORCED_ROLLBACK_REASON, UNKNOWN_TX_REASON } from '../../src/impl/txpool/tx-status.ts';
import { freshPostgresDatabase, testDatabaseUrl } from '../unit/store/engines.ts';
import {
  clockAtSlot,
  crash,
  IN_PROCESS_GENESIS,
  inProcessConfig,
  openInProcessNode,
  SLOT_SECONDS,
  txAnchoredAt,
  type InProcessNode,
  type NodeStorage,
} from './in-process-node.ts';
import { toJsonRpcError } from '../../src/impl/rpc/wire-errors.ts';

const SEED = Number(process.env.L2NODE_MODEL_SEED ?? Math.floor(Math.random() * 2 ** 31));
const PAYERS = [0x1001n, 0x1002n, 0x1003n];
/** At least this many steps per engine and CI run (more seeds run until it is reached). */
const MIN_STEPS = Number(process.env.L2NODE_MODEL_MIN_STEPS ?? 500);
/** Command lists per seed. */
const RUNS_PER_SEED = Number(process.env.L2NODE_MODEL_RUNS ?? 6);

/** What the test remembers of an accepted tx. */
interface AcceptedTx {
  readonly anchor: number;
  readonly anchorHash: string;
  readonly nullifiers: readonly bigint[];
  readonly expiration: bigint;
}

/** The model: the accepted txs, and what the node must keep. */
interface Model {
  readonly accepted: Map<string, AcceptedTx>;
  nextNullifier: bigint;
  paused: boolean;
}

/** The system under test: the node and everything needed to kill and reopen it. */
interface Real {
  n: InProcessNode;
  readonly clock: ManualClock;
  readonly storage: NodeStorage;
}

let steps = 0;

const h = (r: Real) => r.n.node.publicHandlers;
const tip = (r: Real) => r.n.node.engine.chain.getBlockNumber();
const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');

/** Everything a client could observe about the accepted txs and the chain, for comparisons across a restart. */
async function observe(r: Real, m: Model) {
  const receipts: Record<string, unknown> = {};
  for (const hash of m.accepted.keys()) receipts[hash] = await h(r).getTxReceipt!(hash);
  const pending = ((await h(r).getPendingTxs!(100)) as { txHash: string }[]).map((t) => t.txHash);
  const blocks = await r.n.node.engine.chain.blocksFrom(1, await tip(r));
  return { tip: await tip(r), blockHashes: blocks.map((b) => hex(b.hash)), receipts, pending };
}

/** The invariants, checked after every command. */
async function checkInvariants(r: Real, m: Model): Promise<void> {
  const chain = r.n.node.engine.chain;
  const t = await chain.getL2Tips();
  assert.ok(
    t.finalized.block.number <= t.proven.block.number &&
      t.proven.block.number <= t.checkpointed.block.number &&
      t.checkpointed.block.number <= t.proposed.number,
    `tips out of order: ${JSON.stringify({ f: t.finalized.block.number, p: t.proven.block.number, c: t.checkpointed.block.number, tip: t.proposed.number })}`,
  );
  const blocks = await chain.blocksFrom(1, t.proposed.number);
  const hashAt = new Map<number, string>([
    [0, hex(chain.genesisBlock.hash)],
    ...blocks.map((b) => [b.header.globalVariables.blockNumber, hex(b.hash)] as const),
  ]);
  const nullifiers = new Set<bigint>();
  const minedIn = new Map<string, number>();
  for (const b of blocks) {
    for (const e of b.body.txEffects) {
      const hash = hex(e.txHash);
      minedIn.set(hash, b.header.globalVariables.blockNumber);
      const acc = m.accepted.get(hash);
      assert.ok(
        acc !== undefined,
        `block ${b.header.globalVariables.blockNumber} holds ${hash}, a tx the node never accepted`,
      );
      assert.ok(
        acc.anchor < b.header.globalVariables.blockNumber && hashAt.get(acc.anchor) === acc.anchorHash,
        `${hash} mined in block ${b.header.globalVariables.blockNumber} but its anchor (block ${acc.anchor}) is not an ancestor`,
      );
      assert.ok(
        b.header.globalVariables.blockNumber === 1 || acc.expiration >= b.header.globalVariables.timestamp,
        `${hash} mined after its expiration`,
      );
      for (const n of e.nullifiers) {
        assert.ok(!nullifiers.has(n), `nullifier ${hex(n)} twice in the chain`);
        nullifiers.add(n);
      }
    }
  }
  const pendingList = ((await h(r).getPendingTxs!(100)) as { txHash: string }[]).map((x) => x.txHash);
  assert.equal(await h(r).getPendingTxCount!(), pendingList.length, 'pending count and pending list disagree');
  assert.equal(new Set(pendingList).size, pendingList.length);
  for (const [hash] of m.accepted) {
    const receipt = await h(r).getTxReceipt!(hash);
    const byHash = await h(r).getTxByHash!(hash);
    const listed = pendingList.includes(hash);
    if (receipt.status === 'mined') {
      assert.equal(receipt.blockNumber, minedIn.get(hash), `${hash}: receipt says block ${receipt.blockNumber}`);
      assert.equal(receipt.blockHash, hashAt.get(receipt.blockNumber!));
    } else {
      assert.ok(!minedIn.has(hash), `${hash} is in block ${minedIn.get(hash)} but its receipt says ${receipt.status}`);
    }
    assert.equal(
      receipt.status === 'pending',
      listed,
      `${hash}: receipt ${receipt.status}, ${listed ? '' : 'not '}in the pending list`,
    );
    assert.equal(
      receipt.status === 'pending',
      byHash !== null,
      `${hash}: receipt ${receipt.status}, getTxByHash ${byHash === null ? 'null' : 'the tx'}`,
    );
    if (receipt.status === 'dropped')
      assert.ok(
        receipt.error !== undefined && receipt.error !== UNKNOWN_TX_REASON,
        `${hash} lost: dropped without a reason (${receipt.error})`,
      );
  }
  for (const hash of pendingList) assert.ok(m.accepted.has(hash), `pending ${hash} was never accepted`);
}

type Cmd = fc.AsyncCommand<Model, Real>;

/** How many of the newest blocks a pick favours (the ones a rollback above the finalized block can unwind). */
const RECENT_BLOCKS = 6;

/**
 * A block of a chain whose tip is `top`, from `at` in [-1, 1]: at < 0 picks among the newest
 * RECENT_BLOCKS + 1 blocks (tip first), at ≥ 0 anywhere in the chain — so anchors and rollback
 * targets often meet above the finalized block, where rollbacks without force happen.
 */
function pickBlock(top: number, at: number): number {
  if (at < 0) return Math.max(0, top - Math.min(RECENT_BLOCKS, Math.floor(-at * (RECENT_BLOCKS + 1))));
  return Math.min(top, Math.floor(at * (top + 1)));
}

/** node_sendTx of a new tx with fresh nullifiers, or reusing one of an accepted tx (a conflict), anchored at a block picked by `at`. */
function sendTx(kind: 'valid' | 'conflict' | 'expiring', at: number, payer: number, fee: bigint, pick: number): Cmd {
  const self = { kind, at, payer, fee, pick };
  return {
    check: () => true,
    async run(m: Model, r: Real): Promise<void> {
      const it = self;
      const top = await tip(r);
      const anchor = pickBlock(top, it.at);
      const fresh = m.nextNullifier++;
      const others = [...m.accepted.values()];
      const nullifiers =
        it.kind === 'conflict' && others.length > 0
          ? [others[it.pick % others.length]!.nullifiers[0]!, fresh]
          : [fresh];
      const nowSeconds = BigInt(Math.floor(r.clock.nowMs() / 1000));
      const expiration =
        it.kind === 'expiring'
          ? nowSeconds + BigInt(SLOT_SECONDS * (1 + (it.pick % 3)))
          : BigInt(IN_PROCESS_GENESIS + 10_000_000);
      const tx = await txAnchoredAt(r.n, {
        anchor,
        payer: PAYERS[it.payer]!,
        nullifiers,
        priorityFee: it.fee,
        expirationTimestamp: expiration,
      });
      const anchorHash = hex((await r.n.node.engine.chain.findBlock(anchor))!.hash);
      try {
        await h(r).sendTx!(tx.wire as never);
        m.accepted.set(tx.hash, { anchor, anchorHash, nullifiers, expiration });
      } catch (err) {
        // Only a conflict may be refused (nullifier in the pool or already in the chain).
        assert.ok(
          it.kind === 'conflict' && [-32020, -32021].includes(toJsonRpcError(err).code),
          `${describe_()} refused: ${(err as Error).message}`,
        );
      }
    },
    toString: () => describe_(),
  };
  function describe_() {
    return `sendTx(${kind}, at ${at.toFixed(2)}, payer ${payer}, fee ${fee}, pick ${pick})`;
  }
}

/** Time passes (`slots` slots) and the node runs one production step. */
function step(slots: number): Cmd {
  return {
    check: () => true,
    async run(m: Model, r: Real): Promise<void> {
      const before = await tip(r);
      r.clock.advance(slots * SLOT_SECONDS * 1000);
      await r.n.node.step();
      if (m.paused) assert.equal(await tip(r), before, 'a paused node built a block');
    },
    toString: () => `step(${slots})`,
  };
}

/** nodeAdmin_rollbackTo a block picked by `at`, with or without force. */
function rollback(at: number, force: boolean): Cmd {
  return {
    check: () => true,
    async run(m: Model, r: Real): Promise<void> {
      const top = await tip(r);
      const target = pickBlock(top, at);
      const finalized = (await r.n.node.engine.chain.getL2Tips()).finalized.block.number;
      const before = await observe(r, m);
      try {
        await r.n.admin.rollbackTo!(target, force);
      } catch (err) {
        assert.ok(
          !force && target < finalized && toJsonRpcError(err).code === -32052,
          `rollbackTo(${target}, ${force}) failed: ${(err as Error).message}`,
        );
        assert.deepEqual(await observe(r, m), before, 'a refused rollback changed something');
        return;
      }
      m.paused = false; // a rollback always resumes sync
      assert.equal(await tip(r), target);
      assert.deepEqual(
        (await observe(r, m)).blockHashes,
        before.blockHashes.slice(0, target),
        'the rollback changed blocks at or below its target',
      );
      const pending = ((await h(r).getPendingTxs!(100)) as { txHash: string }[]).map((t) => t.txHash);
      if (force) {
        assert.deepEqual(pending, [], 'force left txs pending');
        for (const hash of [
          ...before.pending,
          ...Object.keys(before.receipts).filter(
            (x) => (before.receipts[x] as { blockNumber?: number }).blockNumber! > target,
          ),
        ]) {
          assert.equal((await h(r).getTxReceipt!(hash)).error, FORCED_ROLLBACK_REASON);
        }
      }
      for (const hash of pending)
        assert.ok(
          m.accepted.get(hash)!.anchor <= target,
          `${hash} pending but anchored above the rollback target ${target}`,
        );
    },
    toString: () => `rollbackTo(at ${at.toFixed(2)}, force ${force})`,
  };
}

const pause = (): Cmd => ({
  check: () => true,
  async run(m, r) {
    await r.n.admin.pauseSync!();
    m.paused = true;
  },
  toString: () => 'pauseSync',
});

const resume = (): Cmd => ({
  check: () => true,
  async run(m, r) {
    await r.n.admin.resumeSync!();
    m.paused = false;
  },
  toString: () => 'resumeSync',
});

/** kill -9 between two steps, then a restart on the same database: nothing observable changes. */
const killAndRestart = (): Cmd => ({
  check: () => true,
  async run(m, r) {
    const before = await observe(r, m);
    await crash(r.n);
    r.n = await openInProcessNode(inProcessConfig(r.storage, ['--build-empty-blocks']), r.clock);
    m.paused = false; // a pause does not outlive the process
    assert.deepEqual(await observe(r, m), before, 'the restart changed what the node reports');
  },
  toString: () => 'kill -9 and restart',
});

/** Counts the step and checks the invariants after it. */
function checked(c: Cmd): Cmd {
  return {
    check: (m) => c.check(m),
    async run(m, r) {
      await c.run(m, r);
      steps++;
      await checkInvariants(r, m);
    },
    toString: () => c.toString(),
  };
}

const commands = fc.commands(
  [
    fc
      .tuple(
        fc.constantFrom('valid', 'valid', 'conflict', 'expiring') as fc.Arbitrary<'valid' | 'conflict' | 'expiring'>,
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: PAYERS.length - 1 }),
        fc.bigInt({ min: 1n, max: 40n }),
        fc.nat(1000),
      )
      .map(([kind, at, payer, fee, pick]) => checked(sendTx(kind, at, payer, fee, pick))),
    fc.integer({ min: 0, max: 2 }).map((slots) => checked(step(slots))),
    fc.integer({ min: 0, max: 2 }).map((slots) => checked(step(slots))),
    fc
      .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.boolean())
      .map(([at, force]) => checked(rollback(at, force))),
    fc.constant(null).map(() => checked(pause())),
    fc.constant(null).map(() => checked(resume())),
    fc.constant(null).map(() => checked(killAndRestart())),
  ],
  { maxCommands: Number(process.env.L2NODE_MODEL_COMMANDS ?? 60), size: 'max' },
);

/**
 * Runs the model on fresh storage from `newStorage`, `runs` command lists per seed, seeds SEED,
 * SEED + 1, … until at least MIN_STEPS steps ran; returns the number of steps run.
 */
async function runModel(
  engine: string,
  newStorage: () => Promise<{ storage: NodeStorage; drop(): Promise<void> }>,
  runs: number,
): Promise<number> {
  steps = 0;
  for (let seed = SEED; steps < MIN_STEPS; seed++) {
    console.log(`tx-status model test (${engine}): seed ${seed} (rerun with L2NODE_MODEL_SEED=${seed})`);
    await fc.assert(
      fc.asyncProperty(commands, async (cmds) => {
        const { storage, drop } = await newStorage();
        const clock = clockAtSlot(1);
        const real: Real = {
          n: await openInProcessNode(inProcessConfig(storage, ['--build-empty-blocks']), clock),
          clock,
          storage,
        };
        const model: Model = { accepted: new Map(), nextNullifier: 0x5eed0000n, paused: false };
        try {
          await real.n.node.step();
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          // The end: resumed and drained, every accepted tx is mined or dropped with its reason.
          await real.n.admin.resumeSync!();
          model.paused = false;
          for (let i = 0; i < 8 && (await h(real).getPendingTxCount!()) > 0; i++) await step(1).run(model, real);
          await checkInvariants(real, model);
          assert.equal(await h(real).getPendingTxCount!(), 0, 'txs still pending after draining');
        } finally {
          await real.n.node.stop();
          await drop();
        }
      }),
      { seed, numRuns: runs },
    );
  }
  return steps;
}

describe('tx status model (fast-check model runner)', () => {
  it('SQLite: every invariant after every step, over several seeds of runs', async () => {
    const run = await runModel(
      'sqlite',
      async () => ({ storage: { dataDirectory: mkdtempSync(join(tmpdir(), 'tx-model-')) }, drop: async () => {} }),
      RUNS_PER_SEED,
    );
    console.log(`tx-status model test (sqlite): ${run} steps`);
    assert.ok(run >= MIN_STEPS, `only ${run} steps ran (at least ${MIN_STEPS} wanted)`);
  });

  it('Postgres: every invariant after every step, over several seeds of runs', async () => {
    const base = testDatabaseUrl();
    const run = await runModel(
      'postgres',
      async () => {
        const db = await freshPostgresDatabase(base, 'l2node_model');
        return { storage: { databaseUrl: db.url }, drop: () => db.drop() };
      },
      RUNS_PER_SEED,
    );
    console.log(`tx-status model test (postgres): ${run} steps`);
    assert.ok(run >= MIN_STEPS, `only ${run} steps ran (at least ${MIN_STEPS} wanted)`);
  });
});
