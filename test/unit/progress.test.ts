/** Progress lines of long work (src/impl/progress.ts): at most one per interval, with rate and ETA. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Progress } from '../../src/impl/progress.ts';

it('logs done/target, rate and ETA once per interval, and a closing line', () => {
  let now = 1_000_000;
  const lines: { msg: string; fields: Record<string, unknown> }[] = [];
  const logger = {
    info: (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, fields: fields ?? {} }),
  };
  const p = new Progress({
    message: 'follower: catching up',
    unit: 'blocks',
    target: 100,
    start: 20,
    intervalMs: 1000,
    logger,
    fields: { source: 's' },
    nowMs: () => now,
  });
  now += 500;
  p.update(30);
  assert.equal(lines.length, 0, 'not before an interval has passed');
  now += 500;
  p.update(40);
  assert.deepEqual(lines, [
    {
      msg: 'follower: catching up',
      fields: {
        source: 's',
        done: 40,
        target: 100,
        percent: 40,
        blocksPerSecond: 20,
        etaSeconds: 3,
        elapsedSeconds: 1,
      },
    },
  ]);
  now += 100;
  p.update(45, 120);
  assert.equal(lines.length, 1, 'at most one line per interval');
  assert.deepEqual(p.snapshot(), {
    done: 45,
    target: 120,
    perSecond: 25 / 1.1,
    etaSeconds: 75 / (25 / 1.1),
    elapsedSeconds: 1.1,
  });
  p.finish('follower: caught up');
  assert.equal(lines[1]!.msg, 'follower: caught up');
});

it('has no ETA before anything is done', () => {
  const p = new Progress({ message: 'm', unit: 'bytes', target: 10, intervalMs: 0, logger: undefined, nowMs: () => 5 });
  assert.deepEqual(p.snapshot(), { done: 0, target: 10, perSecond: 0, etaSeconds: undefined, elapsedSeconds: 0 });
});
