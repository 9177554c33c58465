import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { fmtNumber, fmtRatio, renderReport, renderRow, verdict } from '../../../bench/lib/report.ts';
import type { Figure, Report } from '../../../bench/lib/report.ts';

const rps = (value: number | undefined, baseline: number): Figure => ({
  name: 'cheap call',
  unit: 'req/s',
  baseline,
  baselineName: 'bare node:http',
  goal: { kind: 'ratio-min', target: 0.8 },
  ...(value === undefined ? {} : { value }),
});

describe('verdict', () => {
  it('ratio goal met', () => assert.deepEqual(verdict(rps(9000, 10000)), { status: 'met' }));
  it('ratio goal met exactly at the target', () => assert.equal(verdict(rps(8000, 10000)).status, 'met'));
  it('ratio goal not met: says by how much, in percent when close', () => {
    const v = verdict(rps(7000, 10000));
    assert.equal(v.status, 'not met');
    assert.equal(v.shortfall, '0.70× against ≥ 0.80×: 13% below the goal');
  });
  it('far from the goal: says it as a factor', () => {
    const v = verdict({ name: 'p50', unit: 'ms', value: 3, goal: { kind: 'value-max', target: 1 } });
    assert.equal(v.shortfall, '3 ms against ≤ 1 ms: 3.0× above the goal');
  });
  it('value-min goal', () => {
    assert.equal(
      verdict({ name: 'h', unit: 'hashes/s', value: 37000, goal: { kind: 'value-min', target: 31000 } }).status,
      'met',
    );
    assert.equal(
      verdict({ name: 'h', unit: 'hashes/s', value: 30000, goal: { kind: 'value-min', target: 31000 } }).shortfall,
      '30,000 hashes/s against ≥ 31,000 hashes/s: 3% below the goal',
    );
  });
  it('ratio-max goal', () => {
    const f: Figure = {
      name: 'apply',
      unit: 'ms',
      value: 300,
      baseline: 100,
      goal: { kind: 'ratio-max', target: 1.5 },
    };
    assert.equal(verdict(f).shortfall, '3.00× against ≤ 1.50×: 2.0× above the goal');
  });
  it('not measured and no goal', () => {
    assert.equal(verdict(rps(undefined, 1)).status, 'not measured');
    assert.equal(verdict({ name: 'x', unit: 'u', value: 1 }).status, 'no goal');
    assert.equal(
      verdict({ name: 'x', unit: 'u', value: 1, goal: { kind: 'ratio-min', target: 1 } }).status,
      'not measured',
    );
  });
});

describe('formatting', () => {
  it('numbers: separators and precision by magnitude', () => {
    assert.equal(fmtNumber(31234.6), '31,235');
    assert.equal(fmtNumber(12.345), '12.3');
    assert.equal(fmtNumber(0.1234), '0.123');
    assert.equal(fmtNumber(undefined), '—');
  });
  it('ratios', () => {
    assert.equal(fmtRatio(0.834), '0.83×');
    assert.equal(fmtRatio(12.34), '12.3×');
    assert.equal(fmtRatio(Number.NaN), '—');
  });
  it('a row: value, baseline, ratio, goal, plain NOT MET', () => {
    assert.equal(
      renderRow({ ...rps(7000, 10000), note: 'a|b' }),
      '| cheap call | 7,000 req/s | 10,000 req/s (bare node:http) | 0.70× | ratio ≥ 0.80× | **NOT MET** — 0.70× against ≥ 0.80×: 13% below the goal | a\\|b |',
    );
  });
  it('a row not met shows its cause when the runner knows one', () => {
    assert.match(
      renderRow({ ...rps(7000, 10000), cause: 'JSON encoding per call' }),
      /\*\*NOT MET\*\* — 0\.70× against ≥ 0\.80×: 13% below the goal\. Cause: JSON encoding per call \|/,
    );
  });
  it('a row not measured keeps its reason', () => {
    assert.match(
      renderRow({ name: 'medium', unit: 'req/s', note: 'not measured: needs blocks with txs' }),
      /\| not measured \|.*needs blocks with txs/,
    );
  });
});

describe('renderReport', () => {
  const report: Report = {
    date: '2026-01-01T00:00:00.000Z',
    mode: 'quick',
    durationSeconds: 120,
    commit: 'abc1234',
    nodeVersion: 'v24.12.0',
    machine: { cpuModel: 'Test CPU', cores: 2, memoryGiB: 8, loadAverage: [1, 2, 3], os: 'linux' },
    method: ['medians of 3 runs'],
    timeBudget: [
      { name: 'RPC throughput', seconds: 61.4 },
      { name: 'soak', seconds: 604 },
    ],
    sections: [
      {
        title: 'RPC',
        intro: 'load from a separate process',
        figures: [
          rps(9000, 10000),
          { ...rps(7000, 10000), cause: 'one allocation per call' },
          { name: 'n', unit: 'u', note: 'needs x' },
        ],
      },
    ],
  };
  const page = renderReport(report);
  it('header: machine, node, date', () => {
    assert.match(page, /^# Performance/);
    assert.match(page, /Test CPU, 2 cores, 8\.0 GiB/);
    assert.match(page, /Node\.js v24\.12\.0/);
    assert.match(page, /2026-01-01/);
  });
  it('summary counts and a list of the goals not met, each with its cause', () => {
    assert.match(page, /1 goals met, 1 not met, 1 figures not measured/);
    assert.match(
      page,
      /Goals not met:\n\n- cheap call: 0\.70× against ≥ 0\.80×: 13% below the goal\. Cause: one allocation per call/,
    );
  });
  it('the time budget of each step in the header', () =>
    assert.match(page, /- Time budget \(120 s in all\): RPC throughput 61 s, soak 604 s/));
  it('a table per section', () => assert.match(page, /## RPC\n\nload from a separate process\n\n\| figure \| value/));
});
