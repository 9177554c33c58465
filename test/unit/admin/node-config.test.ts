/** The live admin configuration: defaults as documented, rules the schema cannot express, persistence, listeners. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DEFAULT_NODE_ADMIN_CONFIG } from '../../../src/impl/node-config/defaults.ts';
import { ConfigRuleBroken, NodeConfig } from '../../../src/impl/node-config/node-config.ts';
import { wireConfigTargets, type SequencerLimits } from '../../../src/impl/node-config/config-targets.ts';
import { SyncSwitch } from '../../../src/impl/node-config/sync-control.ts';
import { openDatabase } from '../../../src/impl/store/database.ts';
import { memoryDb, tempDir } from '../validators/helpers.ts';

const doc = JSON.parse(readFileSync(new URL('../../../openrpc.admin.json', import.meta.url), 'utf8'));
const schema = doc.components.schemas.NodeAdminConfig;

/** A property's `default`, read through its `$ref` and description wrapper (docs/SDK.md). */
function documentedDefault(site: Record<string, any>): { value: unknown } | undefined {
  let node = site;
  for (let hops = 0; hops < 4 && node; hops++) {
    if ('default' in node) return { value: node.default };
    const ref = node.$ref ?? (Array.isArray(node.allOf) && node.allOf.length === 1 ? node.allOf[0].$ref : undefined);
    if (typeof ref !== 'string') return undefined;
    node = doc.components.schemas[ref.split('/').pop()!];
  }
  return undefined;
}

describe('defaults', () => {
  it("equal the document's defaults, key for key, and cover every required key", () => {
    const documented = Object.fromEntries(
      Object.keys(schema.properties).flatMap((k) => {
        const d = documentedDefault(schema.properties[k]);
        return d === undefined ? [] : [[k, d.value]];
      }),
    );
    assert.deepEqual({ ...DEFAULT_NODE_ADMIN_CONFIG }, documented);
    for (const k of schema.required) assert.ok(k in DEFAULT_NODE_ADMIN_CONFIG, k);
  });
});

describe('NodeConfig.update', () => {
  it('refuses cross-field violations as a whole and changes nothing', async () => {
    const db = memoryDb();
    try {
      const c = await NodeConfig.open(db);
      const cases: [object, RegExp][] = [
        [{ minTxsPerBlock: 40 }, /minTxsPerBlock \(40\) must be <= maxTxsPerBlock \(32\)/],
        [
          { maxTxsPerBlock: 300, maxPendingTxCount: 5 },
          /maxTxsPerBlock \(300\) must be <= maxTxsPerCheckpoint \(256\)/,
        ],
        [{ maxL2BlockGas: 1000 }, /maxL2BlockGas must be >= 6540000/],
        [
          { slashMinPenaltyPercentage: 3 },
          /slashMinPenaltyPercentage \(3\) must be <= slashMaxPenaltyPercentage \(2\)/,
        ],
        [
          { slashValidatorsAlways: ['0x' + 'aa'.repeat(20)], slashValidatorsNever: ['0x' + 'AA'.repeat(20)] },
          /must not be in both/,
        ],
        [{ maxDABlockGas: 2 ** 60 }, /maxDABlockGas must be at most 9007199254740991/],
        [{ maxPendingTxs: 3 }, /must not have property 'maxPendingTxs'/],
      ];
      for (const [update, rule] of cases) {
        await assert.rejects(
          c.update(update as never),
          (e: unknown) => e instanceof ConfigRuleBroken && rule.test(e.rule),
        );
      }
      assert.deepEqual(c.get(), { ...DEFAULT_NODE_ADMIN_CONFIG });
      await c.update({ maxTxsPerBlock: 64, minTxsPerBlock: 40 });
      assert.equal(c.get().minTxsPerBlock, 40);
    } finally {
      await db.destroy();
    }
  });

  it('persists changes: a reopened database keeps them over the startup values', async () => {
    const dir = tempDir();
    const db = await openDatabase({ dataDirectory: dir });
    const c = await NodeConfig.open(db, { archiverPollingIntervalMS: 700 });
    assert.equal(c.get().archiverPollingIntervalMS, 700);
    await c.update({
      maxPendingTxCount: 5,
      txPublicSetupAllowListExtend: [{ classId: '0x' + '01'.repeat(32), selector: '0x12345678' }],
    });
    await db.destroy();
    const again = await openDatabase({ dataDirectory: dir });
    try {
      const c2 = await NodeConfig.open(again, { archiverPollingIntervalMS: 700, maxPendingTxCount: 1 });
      assert.equal(c2.get().maxPendingTxCount, 5);
      assert.equal(c2.get().archiverPollingIntervalMS, 700);
      assert.deepEqual(c2.get().txPublicSetupAllowListExtend, [
        { classId: '0x' + '01'.repeat(32), selector: '0x12345678' },
      ]);
    } finally {
      await again.destroy();
    }
  });

  it('pushes changed settings to their targets, once at wiring and then only what changed', async () => {
    const db = memoryDb();
    try {
      const c = await NodeConfig.open(db);
      const sync = new SyncSwitch(1);
      const pool: number[] = [];
      const limits: SequencerLimits[] = [];
      const allow: unknown[] = [];
      await wireConfigTargets(c, {
        sync,
        pool: { setMaxPendingTxCount: (n) => void pool.push(n) },
        sequencer: { setLimits: (l) => void limits.push(l) },
        allowList: { setExtension: (x) => void allow.push(x) },
      });
      assert.equal(sync.intervalMs, 500);
      assert.deepEqual(pool, [1000]);
      assert.equal(limits.length, 1);
      await c.update({ archiverPollingIntervalMS: 50, maxPendingTxCount: 7 });
      assert.equal(sync.intervalMs, 50);
      assert.deepEqual(pool, [1000, 7]);
      assert.equal(limits.length, 1);
      await c.update({ maxTxsPerBlock: 8, slashInactivityPenalty: '1' });
      assert.equal(limits.at(-1)!.maxTxsPerBlock, 8);
      assert.equal(allow.length, 1);
      await c.update({ maxPendingTxCount: 7 });
      assert.deepEqual(pool, [1000, 7]);
    } finally {
      await db.destroy();
    }
  });
});

describe('SyncSwitch', () => {
  it('pause waits for the running step, skips later steps and is idempotent; resume restarts', async () => {
    const s = new SyncSwitch(10);
    const states: string[] = [];
    s.onChange((st) => states.push(st));
    let release!: () => void;
    let finished = false;
    const step = s.step(() => new Promise<void>((r) => (release = r)).then(() => void (finished = true)));
    await new Promise(setImmediate);
    const paused = s.pause();
    assert.equal(s.state, 'paused');
    release();
    await paused;
    assert.ok(finished, 'pause returned before the running step finished');
    await step;
    assert.equal(await s.step(async () => assert.fail('ran while paused')), false);
    await s.pause();
    s.resume();
    s.resume();
    assert.deepEqual(states, ['paused', 'syncing']);
    let ran = false;
    assert.equal(await s.step(async () => void (ran = true)), true);
    assert.ok(ran);
  });

  it('a step queued behind a running one does not start after a pause', async () => {
    const s = new SyncSwitch(10);
    let release!: () => void;
    const first = s.step(() => new Promise<void>((r) => (release = r)));
    await new Promise(setImmediate);
    let second = false;
    const queued = s.step(async () => void (second = true));
    const paused = s.pause();
    release();
    await Promise.all([first, paused]);
    assert.equal(await queued, false);
    assert.equal(second, false);
  });
});
