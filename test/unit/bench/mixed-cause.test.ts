import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { RunUsage } from '../../../bench/lib/busy-cause.ts';
import {
  gcDifference,
  type MixedRun,
  type MixedRunSample,
  mixedCause,
  parseLoopMetrics,
  rankCorrelation,
} from '../../../bench/lib/mixed-cause.ts';
import { usage } from './usage-fixture.ts';

// prom-client's exposition as the node serves it (trimmed to the families read).
const exposition = (
  minor: [number, number, number, number],
  lagP99: number,
) => `# HELP nodejs_eventloop_lag_p99_seconds The 99th percentile of the recorded event loop delays.
# TYPE nodejs_eventloop_lag_p99_seconds gauge
nodejs_eventloop_lag_p99_seconds ${lagP99}
nodejs_eventloop_lag_max_seconds 0.0123
# TYPE nodejs_gc_duration_seconds histogram
nodejs_gc_duration_seconds_bucket{le="0.001",kind="minor"} ${minor[0]}
nodejs_gc_duration_seconds_bucket{le="0.01",kind="minor"} ${minor[1]}
nodejs_gc_duration_seconds_bucket{le="0.1",kind="minor"} ${minor[2]}
nodejs_gc_duration_seconds_bucket{le="+Inf",kind="minor"} ${minor[2]}
nodejs_gc_duration_seconds_sum{kind="minor"} ${minor[3]}
nodejs_gc_duration_seconds_count{kind="minor"} ${minor[2]}
nodejs_gc_duration_seconds_bucket{le="0.001",kind="major"} 0
nodejs_gc_duration_seconds_bucket{le="0.01",kind="major"} 2
nodejs_gc_duration_seconds_bucket{le="+Inf",kind="major"} 2
nodejs_gc_duration_seconds_sum{kind="major"} 0.006
nodejs_gc_duration_seconds_count{kind="major"} 2
`;

describe('parseLoopMetrics and gcBetween', () => {
  it('reads collections by kind, those over 1 and 10 ms, and the loop delay', () => {
    const m = parseLoopMetrics(exposition([100, 140, 141, 0.2], 0.0021))!;
    assert.deepEqual(m.gc.minor, { count: 141, seconds: 0.2, over1ms: 41, over10ms: 1 });
    assert.deepEqual(m.gc.major, { count: 2, seconds: 0.006, over1ms: 2, over10ms: 0 });
    assert.equal(m.lagP99Ms, 2.1);
    assert.equal(m.lagMaxMs, 12.3);
  });
  it('differences two scrapes', () => {
    const before = parseLoopMetrics(exposition([100, 140, 141, 0.2], 0.002))!;
    const after = parseLoopMetrics(exposition([130, 190, 191, 0.26], 0.002))!;
    const d = gcDifference(before.gc, after.gc);
    assert.equal(d.minor!.count, 50);
    assert.equal(d.minor!.over1ms, 20);
    assert.ok(Math.abs(d.minor!.seconds - 0.06) < 1e-9);
    assert.equal(d.major!.count, 0);
  });
  it('is undefined without the delay gauges (not prom-client)', () => {
    assert.equal(parseLoopMetrics('up 1\n'), undefined);
  });
});

/** A 2-s run: p99 and the loop's on-CPU, run-queue seconds, with the load client and the machine. */
function sample(p99Ms: number, loop: [number, number], client = 0.9, machine = 1.4): MixedRunSample {
  const u: RunUsage = {
    node: usage(2, { 'event loop': [loop[0], loop[1], 5000], 'V8 helpers': [0.05, 0.01, 100] }),
    client: usage(2, { 'load client': [client, 0, 0] }),
    machineBusyCores: machine,
  };
  return { p99Ms, usage: u };
}
const gc = (count: number, seconds: number, over1ms: number) => ({ minor: { count, seconds, over1ms, over10ms: 0 } });

/** Three runs per side, from round 2 of the standalone runs in docs/PERFORMANCE-NOTES.md (a quiet machine). */
function quiet(o: Partial<{ nodeGc: ReturnType<typeof gc>; nodeLoop: [number, number] }> = {}): MixedRun {
  const loop = o.nodeLoop ?? [1.05, 0.09];
  return {
    cpus: 2,
    load: [3.11, 2.37, 2.73],
    node: {
      runs: [sample(2.41, loop), sample(2.2, loop), sample(2.88, loop)],
      gc: o.nodeGc ?? gc(74, 0.045, 3),
      gcWallSeconds: 6.6,
    },
    bare: {
      runs: [
        sample(1.38, [0.92, 0.12], 0.7, 1.2),
        sample(1.17, [0.92, 0.12], 0.7, 1.2),
        sample(2.01, [0.92, 0.12], 0.7, 1.2),
      ],
      gc: gc(40, 0.02, 0),
      gcWallSeconds: 6.6,
    },
    classP99Ms: [2.41, 2.38, 2.55, 2.48],
    lagP99Ms: 1.43,
  };
}

describe('rankCorrelation', () => {
  it('1 for the same order, −1 reversed, ties at their mean rank', () => {
    assert.equal(rankCorrelation([1, 2, 3, 4], [10, 20, 30, 40]), 1);
    assert.equal(rankCorrelation([1, 2, 3, 4], [4, 3, 2, 1]), -1);
    assert.ok(Math.abs(rankCorrelation([1, 1, 2, 3], [1, 2, 3, 4]) - 0.9487) < 1e-3);
    assert.ok(Number.isNaN(rankCorrelation([1, 2], [1, 2])));
  });
});

describe('mixedCause', () => {
  it("names the wait for a core when the p99 followed it run by run (round 1: other processes' load)", () => {
    const run: MixedRun = {
      ...quiet(),
      node: {
        runs: [sample(2.67, [1.3, 0.3]), sample(2.71, [1.35, 0.34]), sample(6.09, [1.37, 0.48])],
        gc: gc(97, 0.081, 14),
        gcWallSeconds: 6.6,
      },
      bare: {
        runs: [sample(1.72, [1.0, 0.2]), sample(5.42, [1.05, 0.7]), sample(5.35, [1.1, 0.66])],
        gc: gc(40, 0.02, 0),
        gcWallSeconds: 6.6,
      },
    };
    const text = mixedCause(run);
    assert.match(
      text,
      /^the p99 followed how long each server's event loop waited for a core, run by run \(rank correlation 0\.83 over 6 runs; waiting 18\.7 % of the time on the node against 26\.0 % on the bare server\)/,
    );
    assert.match(
      text,
      /run by run, p99 \/ loop waiting for a core: node 2\.67 ms\/15\.0 %, 2\.71 ms\/17\.0 %, 6\.09 ms\/24\.0 %; bare 1\.72 ms\/10\.0 %/,
    );
  });
  it("names the node's collections when they paused its loop more than the bare server's", () => {
    const text = mixedCause(quiet({ nodeGc: gc(120, 0.099, 12) }));
    assert.match(
      text,
      /^the node's collections: they paused its loop 1\.5 % of the time against the bare server's 0\.3 %, 1\.8 pauses over 1 ms a second against 0\.0/,
    );
    assert.match(
      text,
      /collections paused the loop 1\.5 % \(120 minor of 0\.82 ms; 12 over 1 ms\) \/ 0\.3 % \(40 minor of 0\.50 ms; 0 over 1 ms\)/,
    );
  });
  it("names the node's busier loop when neither the wait nor the collections account for it", () => {
    const text = mixedCause(quiet());
    assert.match(text, /^the node's loop was busier at the same rate \(on a CPU 52\.5 % against 46\.0 %/);
    assert.match(text, /waiting for a core 4\.5 % \/ 6\.0 %/);
    assert.match(
      text,
      /load client 0\.45 \/ 0\.35 cores, other processes 0\.40 \/ 0\.36 \(2 cores, load average 3\.11 2\.37 2\.73\)/,
    );
    assert.match(text, /the node's event-loop delay p99 1\.43 ms/);
    assert.match(
      text,
      /every call class had about the same p99 \(2\.41, 2\.38, 2\.55, 2\.48 ms\): the delay is the whole loop's/,
    );
  });
  it('says so when nothing measured differs', () => {
    const text = mixedCause(quiet({ nodeLoop: [0.92, 0.12], nodeGc: gc(40, 0.02, 0) }));
    assert.match(text, /^none of the loop's wait for a core, the collections or the loop's own time differs enough/);
  });
  it('says when the scheduler figures are missing', () => {
    const run = quiet();
    assert.match(mixedCause({ ...run, node: { ...run.node, runs: [] } }), /^the scheduler figures could not be read/);
  });
});
