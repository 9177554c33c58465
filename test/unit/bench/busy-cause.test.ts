import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  busyCause,
  contentionFigures,
  contentionOf,
  type RunUsage,
  schedulerContext,
} from '../../../bench/lib/busy-cause.ts';
import { usage } from './usage-fixture.ts';

// Shaped like the first standalone run in docs/PERFORMANCE-NOTES.md (fourth pass), two 4-s runs per side.
const idleRun: RunUsage = {
  node: usage(4, { 'event loop': [3.8, 0.12, 2540], 'V8 helpers': [0.12, 0.12, 400] }),
  client: usage(4, { 'load client': [2.36, 0, 0] }),
  machineBusyCores: 1.6,
};
const busyRun: RunUsage = {
  node: usage(4, {
    'event loop': [2.84, 0.92, 29_940],
    'tx-hash worker': [1.08, 0.24, 300],
    'V8 helpers': [0.2, 0.36, 900],
  }),
  client: usage(4, { 'load client': [2.04, 0, 0] }),
  machineBusyCores: 1.5,
};
const bot = usage(10, { 'event loop': [1.1, 0.05, 2000], 'tx-hash worker': [2.72, 0.1, 200] });
const contention = contentionOf([idleRun, idleRun], [busyRun, busyRun], bot, {
  idleRps: 25_000,
  busyRps: 15_000,
  loadBefore: [0.5, 0.7, 1.8],
  loadAfter: [1, 0.8, 1.8],
  cpus: 2,
});

describe('busyCause', () => {
  const text = busyCause(contention, { mainMsPerTx: 5.5, allMsPerTx: 19.1 }, bot, 200);
  it("states the loop's time on a CPU, waiting and asleep, busy against idle", () => {
    assert.match(text, /on a CPU 0\.71 of the time against 0\.95 idle/);
    assert.match(text, /waited on a run queue 0\.23 against 0\.03/);
    assert.match(text, /asleep 0\.06 against 0\.02; 7485 timeslices\/s against 635/);
  });
  it('the cores wanted by the node (by thread group) and the load client, against the cores there are', () => {
    // busy: node 0.71 + 0.23 + 0.27 + 0.06 + 0.05 + 0.09 = 1.41, client 0.51: 1.92 of 2; idle 0.95 + 0.03 + 0.03 + 0.03 + 0.59.
    assert.match(text, /wanted 1\.92 cores of 2 on average .* against 1\.63 idle/);
    assert.match(
      text,
      /event loop 0\.71 \(\+0\.23 waiting\), tx-hash worker 0\.27 \(\+0\.06 waiting\), V8 helpers 0\.05 \(\+0\.09 waiting\)/,
    );
    assert.match(text, /the load client 0\.51; other processes 0\.00/);
  });
  it("the bot's share, the reads' share left, and the ratio it predicts next to the measured one", () => {
    assert.match(text, /the bot's own work took 0\.11/);
    // reads: 0.71 - 0.11 = 0.60 against 0.95: 0.63x; measured 15 000 / 25 000.
    assert.match(
      text,
      /leaving reads 0\.60 against 0\.95 idle: 0\.63× expected from the loop's CPU time, 0\.60× measured/,
    );
    // 40.0 µs against 38.0 is within 10 %: no remark on the cost per read.
    assert.match(text, /38\.0 µs of loop CPU per read idle, 40\.0 busy\)/);
  });
  it('a read dearer busy by more than 10 % is stated as such', () => {
    const dear = contentionOf([idleRun], [busyRun], bot, {
      idleRps: 25_000,
      busyRps: 10_000,
      loadBefore: [],
      loadAfter: [],
      cpus: 2,
    });
    // reads 0.60 of the loop at 10 000 req/s: 60 µs against 38: 1.58x.
    assert.match(busyCause(dear, undefined, undefined, 0), /60\.0 busy: a read cost the loop 1\.58× its idle CPU/);
  });
  it("each tx's CPU by thread group", () =>
    assert.match(
      text,
      /each bot tx cost 5\.5 ms of event-loop CPU and 19\.1 ms in all threads \(tx-hash worker 13\.6 ms, event loop 5\.5 ms\)/,
    ));
  it('says so when the scheduler figures are missing', () =>
    assert.match(
      busyCause(
        contentionOf([], [busyRun], bot, { idleRps: 1, busyRps: 1, loadBefore: [], loadAfter: [], cpus: 2 }),
        undefined,
        undefined,
        0,
      ),
      /could not be read/,
    ));
});

describe('contentionFigures', () => {
  const figures = contentionFigures(contention, 20);
  it('the figures without goals: loop on a CPU, waiting, demand in cores, the bot share', () => {
    assert.deepEqual(
      figures.map((f) => [
        f.unit,
        Number(f.value?.toFixed(3)),
        f.baseline === undefined ? undefined : Number(f.baseline.toFixed(3)),
        f.goal,
      ]),
      [
        ['fraction', 0.71, 0.95, undefined],
        ['fraction', 0.23, 0.03, undefined],
        ['cores', 1.92, 1.63, undefined],
        ['fraction', 0.11, undefined, undefined],
      ],
    );
  });
  it('not measured when a side has no samples', () => {
    const none = contentionFigures(
      contentionOf([], [], undefined, { idleRps: 1, busyRps: 1, loadBefore: [], loadAfter: [], cpus: 2 }),
      20,
    );
    assert.equal(none.length, 1);
    assert.equal(none[0]!.value, undefined);
    assert.match(none[0]!.note!, /not measured/);
  });
});

describe('schedulerContext (the stall figure)', () => {
  it('the loop on a CPU and waiting, and the cores wanted, over the runs blocks were built in', () => {
    const text = schedulerContext([busyRun, busyRun], 2, [1, 0.8, 1.8]);
    assert.match(text!, /on a CPU 0\.71 of the time and waited on a run queue 0\.23 \(7485 timeslices\/s\)/);
    assert.match(text!, /wanted 1\.92 cores of 2 \(the node: event loop 0\.71/);
    assert.match(text!, /load average 1\.00 0\.80 1\.80$/);
  });
  it('undefined without samples', () => assert.equal(schedulerContext([], 2, [1, 1, 1]), undefined));
});
