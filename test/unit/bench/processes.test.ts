import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { describe, it } from 'node:test';
import { pinProcess, separateCores } from '../../../bench/rpc/processes.ts';

const allowed = (pid: number) => /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];

describe('separateCores and pinProcess', () => {
  it('gives the server the first core and the client the rest, on this machine', () => {
    const n = availableParallelism();
    // util-linux's taskset is there (Debian: essential); one core has nothing to separate.
    assert.deepEqual(
      separateCores(),
      n < 2 ? undefined : { server: '0', client: n > 2 ? `1-${n - 1}` : '1', all: `0-${n - 1}` },
    );
  });

  it('pins every thread of a running process and gives the cores back', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const pid = child.pid!;
      const n = availableParallelism();
      const all = n > 1 ? `0-${n - 1}` : '0';
      pinProcess(pid, '0');
      assert.equal(allowed(pid), '0');
      pinProcess(pid, all);
      assert.equal(allowed(pid), all);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('refuses a core list taskset cannot read, naming it', () =>
    assert.throws(() => pinProcess(process.pid, 'cores'), /taskset -a -p -c cores \d+:/));
});
