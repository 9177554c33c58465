/**
 * The rollback rules, written once (src/impl/chain/rollback.ts `checkRollbackTarget`) and asked by
 * both the engine and the admin coordinator; the coordinator refuses before it pauses sync.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkRollbackTarget, type RollbackBounds, RollbackRefusal } from '../../../src/impl/chain/rollback.ts';
import { type RollbackDeps, rollbackTo } from '../../../src/impl/node-config/rollback-coordinator.ts';

const bounds: RollbackBounds = { tip: 10, finalized: 4, oldestHistoric: 2 };

/** The refusal reason, or 'ok' when the target is allowed. */
function verdict(target: number, force: boolean, b: RollbackBounds = bounds): string {
  try {
    checkRollbackTarget(target, b, force);
    return 'ok';
  } catch (err) {
    assert.ok(err instanceof RollbackRefusal);
    return err.reason;
  }
}

describe('checkRollbackTarget', () => {
  it('above the tip is refused, with or without force', () => {
    assert.equal(verdict(11, false), 'ABOVE_TIP');
    assert.equal(verdict(11, true), 'ABOVE_TIP');
  });

  it('between the finalized block and the tip is allowed; the tip itself too', () => {
    assert.equal(verdict(4, false), 'ok');
    assert.equal(verdict(10, false), 'ok');
  });

  it('behind the finalized block needs force; below pruned history too', () => {
    assert.equal(verdict(3, false), 'BEHIND_FINALIZED_NEEDS_FORCE');
    assert.equal(verdict(3, true), 'ok');
    assert.equal(verdict(1, false, { tip: 10, finalized: 0, oldestHistoric: 2 }), 'HISTORY_PRUNED_NEEDS_FORCE');
    assert.equal(verdict(1, true, { tip: 10, finalized: 0, oldestHistoric: 2 }), 'ok');
  });

  it('the refusal carries the block numbers it compared', () => {
    assert.throws(
      () => checkRollbackTarget(1, { tip: 10, finalized: 0, oldestHistoric: 2 }, false),
      (err: unknown) => {
        assert.ok(err instanceof RollbackRefusal);
        assert.deepEqual(err.blocks, {
          targetBlockNumber: 1,
          tipBlockNumber: 10,
          finalizedBlockNumber: 0,
          oldestHistoricBlockNumber: 2,
        });
        return true;
      },
    );
  });
});

describe('the admin coordinator asks the same rules', () => {
  it('refuses before pausing sync or touching the engine', async () => {
    const calls: string[] = [];
    const deps: RollbackDeps = {
      engine: {
        rollbackBounds: async () => bounds,
        rollbackTo: async () => {
          calls.push('rollbackTo');
          return [];
        },
      },
      sync: {
        pause: async () => void calls.push('pause'),
        resume: () => void calls.push('resume'),
      } as unknown as RollbackDeps['sync'],
      readmitTx: async () => undefined,
    };
    await assert.rejects(
      rollbackTo(deps, 3),
      (err: unknown) => (err as RollbackRefusal).reason === 'BEHIND_FINALIZED_NEEDS_FORCE',
    );
    assert.deepEqual(calls, []);
    assert.deepEqual(await rollbackTo(deps, 3, true), { unwound: 0, readmitted: 0 });
    assert.deepEqual(calls, ['pause', 'rollbackTo', 'resume']);
  });
});
