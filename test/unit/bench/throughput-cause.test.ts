import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { type CheapCallCost, cheapCallCause, metricsCostCause } from '../../../bench/rpc/throughput-cause.ts';

const base: CheapCallCost = {
  nodeUs: 22,
  bareUs: 20,
  nodeKernelUs: 12.5,
  bareKernelUs: 12,
  clientNodeUs: 14,
  clientBareUs: 11,
  nodeRps: [19_259, 27_238, 16_263],
  bareRps: [23_081, 24_000, 22_000],
  cores: 2,
  loadAverage: 3.14,
};

describe('cheapCallCause', () => {
  it('names both servers’ CPU per answer and their ratio', () => {
    const text = cheapCallCause(base);
    assert.match(text, /22\.0 µs of CPU per answer against the bare server's 20\.0/);
    assert.match(text, /1\.10×/);
  });

  it('splits each server’s CPU into user mode and kernel, with the differences', () => {
    const text = cheapCallCause(base);
    assert.match(text, /user mode 9\.5 against 8\.0 \(\+1\.5 µs/);
    assert.match(text, /kernel 12\.5 against 12\.0 \(\+0\.5 µs/);
  });

  it('says where the load client ran when the servers had a core of their own', () =>
    assert.match(
      cheapCallCause({ ...base, separate: { server: '0', client: '1' } }),
      /from the bare server, on core 1 while each server ran on core 0 \(load average/,
    ));

  it('without a kernel reading it says the split is missing', () =>
    assert.match(cheapCallCause({ ...base, bareKernelUs: Number.NaN }), /no user\/kernel split was read/));

  it('a measured ratio below the CPU bound is the machine’s share, with the client, cores, load and spread', () => {
    const text = cheapCallCause(base);
    assert.match(text, /would allow about 0\.91×/);
    assert.match(text, /measured 0\.83× is the machine/);
    assert.match(text, /14\.0 µs per answer from the node against 11\.0/);
    assert.match(text, /on 2 cores/);
    assert.match(text, /load average 3\.1/);
    assert.match(text, /16,263–27,238 req\/s/);
  });

  it('a measured ratio at the CPU bound is the node’s own CPU', () => {
    const text = cheapCallCause({ ...base, nodeUs: 24, nodeRps: [19_000], bareRps: [23_000] });
    assert.match(text, /accounts for the measured 0\.83×/);
    assert.doesNotMatch(text, /would allow/);
  });

  it('without a CPU reading it still states what was measured', () => {
    const text = cheapCallCause({ ...base, nodeUs: Number.NaN });
    assert.match(text, /spent — µs/);
    assert.doesNotMatch(text, /would allow/);
  });
});

describe('metricsCostCause', () => {
  it('a throughput ratio below what the CPU ratio allows is the spread between runs', () => {
    const text = metricsCostCause({
      onUs: 25.8,
      offUs: 25.5,
      onRps: [33_237, 40_573, 37_649],
      offRps: [37_963, 40_439, 40_916],
    });
    assert.match(text, /25\.8 µs of CPU per call against 25\.5 without \(1\.01×/);
    assert.match(text, /would allow about 0\.99×/);
    assert.match(text, /measured 0\.93× is the spread between runs/);
    assert.match(text, /33,237–40,573 req\/s, without 37,963–40,916 req\/s/);
  });

  it('a CPU ratio that explains the throughput ratio is the instrumentation', () => {
    const text = metricsCostCause({ onUs: 30, offUs: 25, onRps: [30_000], offRps: [36_000] });
    assert.match(text, /accounts for the measured 0\.83×/);
  });
});
