import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  addUsage,
  groupShare,
  machineBusyCores,
  type ProcessSnapshot,
  parseLoadavg,
  parseProcStat,
  parseSchedstat,
  parseTaskStat,
  threadGroup,
  totalShare,
  usageBetween,
} from '../../../bench/lib/proc-threads.ts';

// Recorded from a Linux 6.x machine (a node process and its threads).
const SCHEDSTAT = '57963609 7820875 157\n';
const STAT_MAIN =
  '25414 (MainThread) R 25400 25414 25400 0 -1 4194304 9000 0 0 0 412 37 0 0 20 0 11 0 3151481 1246976000 24000 18446744073709551615 1 1 0 0 0 0 0 16781312 134235650 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n';
const STAT_V8 =
  '25426 (DelayedTaskSche) S 25400 25414 25400 0 -1 1077936192 0 0 0 0 3 1 0 0 20 0 11 0 3151490 1246976000 24000 18446744073709551615 1 1 0 0 0 0 0 16781312 134235650 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n';
const PROC_STAT =
  'cpu  3628852 114141 774455 1654140 20143 0 56550 3837 0 0\ncpu0 1781694 56826 378399 875983 5947 0 25459 1945 0 0\n';

describe('parseSchedstat', () => {
  it('reads on-CPU ns, run-queue ns and timeslices', () =>
    assert.deepEqual(parseSchedstat(SCHEDSTAT), { onCpuNs: 57963609, runQueueNs: 7820875, timeslices: 157 }));
  it('refuses anything else', () => assert.throws(() => parseSchedstat('57963609 x\n'), /three numbers/));
});

describe('parseTaskStat', () => {
  it('reads name, state, utime + stime and stime', () => {
    assert.deepEqual(parseTaskStat(STAT_MAIN), { name: 'MainThread', state: 'R', cpuTicks: 449, systemTicks: 37 });
    assert.deepEqual(parseTaskStat(STAT_V8), { name: 'DelayedTaskSche', state: 'S', cpuTicks: 4, systemTicks: 1 });
  });
  it('a name with spaces and parentheses is read up to the last ")"', () =>
    assert.deepEqual(parseTaskStat(STAT_MAIN.replace('(MainThread)', '(a) (b c)')), {
      name: 'a) (b c',
      state: 'R',
      cpuTicks: 449,
      systemTicks: 37,
    }));
  it('refuses a line without (comm) or with too few fields', () => {
    assert.throws(() => parseTaskStat('25414 MainThread R'), /no \(comm\)/);
    assert.throws(() => parseTaskStat('25414 (MainThread) R 1 2'), /too few fields/);
  });
});

describe('parseProcStat and machineBusyCores', () => {
  it('busy is everything but idle and iowait', () =>
    assert.deepEqual(parseProcStat(PROC_STAT), {
      busyTicks: 3628852 + 114141 + 774455 + 56550 + 3837,
      totalTicks: 3628852 + 114141 + 774455 + 1654140 + 20143 + 56550 + 3837,
    }));
  it('busy cores between two readings', () =>
    assert.equal(machineBusyCores({ busyTicks: 100, totalTicks: 200 }, { busyTicks: 250, totalTicks: 400 }, 2), 1.5));
  it('refuses text without the aggregate line', () =>
    assert.throws(() => parseProcStat('cpu0 1 2 3\n'), /no aggregate/));
});

describe('parseLoadavg', () => {
  it('reads the three averages', () =>
    assert.deepEqual(parseLoadavg('0.39 2.52 3.27 3/138 26227\n'), [0.39, 2.52, 3.27]));
});

describe('threadGroup', () => {
  it('the main thread is the event loop whatever its name', () =>
    assert.equal(threadGroup({ tid: 7, name: 'l2node' }, 7), 'event loop'));
  it("the node's named workers, V8's and libuv's threads", () => {
    assert.equal(threadGroup({ tid: 8, name: 'l2-tx-hash' }, 7), 'tx-hash worker');
    assert.equal(threadGroup({ tid: 9, name: 'l2-tree-levels' }, 7), 'tree-level worker');
    assert.equal(threadGroup({ tid: 10, name: 'l2-wal-ckpt' }, 7), 'WAL checkpointer');
    assert.equal(threadGroup({ tid: 11, name: 'V8Worker' }, 7), 'V8 helpers');
    assert.equal(threadGroup({ tid: 12, name: 'libuv-worker' }, 7), 'libuv pool');
    assert.equal(threadGroup({ tid: 13, name: 'SignalInspector' }, 7), 'other threads');
  });
});

describe('usageBetween, addUsage, shares', () => {
  const t = (tid: number, name: string, onCpuNs: number, runQueueNs: number, timeslices: number) => ({
    tid,
    name,
    onCpuNs,
    runQueueNs,
    timeslices,
  });
  const before: ProcessSnapshot = {
    pid: 1,
    atNs: 1e9,
    threads: [t(1, 'MainThread', 1e9, 1e8, 100), t(2, 'l2-tx-hash', 5e8, 0, 10), t(3, 'gone', 7e9, 0, 1)],
  };
  // One second later: the loop ran 0.6 s and waited 0.3 s; the worker ran 0.3 s; a new V8 thread 0.1 s.
  const after: ProcessSnapshot = {
    pid: 1,
    atNs: 2e9,
    threads: [t(1, 'MainThread', 1.6e9, 4e8, 7100), t(2, 'l2-tx-hash', 8e8, 1e8, 40), t(4, 'V8Worker', 1e8, 2e7, 5)],
  };
  const u = usageBetween(before, after, (x) => threadGroup(x, 1));

  it('each group: the difference; a new thread from zero; an ended one left out', () => {
    assert.equal(u.elapsedNs, 1e9);
    assert.deepEqual(u.groups.get('event loop'), { threads: 1, onCpuNs: 6e8, runQueueNs: 3e8, timeslices: 7000 });
    assert.deepEqual(u.groups.get('tx-hash worker'), { threads: 1, onCpuNs: 3e8, runQueueNs: 1e8, timeslices: 30 });
    assert.deepEqual(u.groups.get('V8 helpers'), { threads: 1, onCpuNs: 1e8, runQueueNs: 2e7, timeslices: 5 });
    assert.equal(u.groups.has('other threads'), false);
  });
  it('fractions of the wall time, and the sum in cores', () => {
    const loop = groupShare(u, 'event loop');
    assert.ok(Math.abs(loop.onCpu - 0.6) < 1e-12 && Math.abs(loop.runQueue - 0.3) < 1e-12);
    assert.equal(loop.timeslicesPerSecond, 7000);
    const all = totalShare(u);
    assert.ok(Math.abs(all.onCpu - 1.0) < 1e-12 && Math.abs(all.runQueue - 0.42) < 1e-12);
    assert.deepEqual(groupShare(u, 'libuv pool'), { onCpu: 0, runQueue: 0, timeslicesPerSecond: 0 });
  });
  it('windows added: times and wall time summed', () => {
    const twice = addUsage(u, u);
    assert.equal(twice.elapsedNs, 2e9);
    assert.equal(twice.groups.get('event loop')?.onCpuNs, 1.2e9);
    assert.ok(Math.abs(groupShare(twice, 'event loop').onCpu - 0.6) < 1e-12);
  });
  it('refuses snapshots out of order', () => assert.throws(() => usageBetween(after, before, () => 'x'), /later/));
});
