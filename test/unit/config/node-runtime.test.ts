/** src/config/node-runtime.ts: what a process lacks of the node's runtime, and a process that gets it. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { missingNodeRuntime } from '../../../src/config/node-runtime.ts';

test('a process started plainly lacks the young-generation bound, the exposed gc, the old-generation growth and the arena limit', () => {
  assert.deepEqual(missingNodeRuntime([], {}), {
    flags: ['--max-semi-space-size=16', '--expose-gc', '--heap-growing-percent=50'],
    env: { MALLOC_ARENA_MAX: '2' },
  });
});

test('a value the user gave wins, on the command line, in NODE_OPTIONS or in the environment', () => {
  assert.deepEqual(missingNodeRuntime(['--max-semi-space-size=64', '--heap-growing-percent=100'], {}), {
    flags: ['--expose-gc'],
    env: { MALLOC_ARENA_MAX: '2' },
  });
  assert.deepEqual(missingNodeRuntime(['--expose-gc'], { NODE_OPTIONS: '--inspect --max_semi_space_size=8' }), {
    flags: ['--heap-growing-percent=50'],
    env: { MALLOC_ARENA_MAX: '2' },
  });
  assert.deepEqual(
    missingNodeRuntime(['--max-semi-space-size-x=1', '--expose_gc', '--heap_growing_percent=30'], {
      MALLOC_ARENA_MAX: '8',
    }),
    {
      flags: ['--max-semi-space-size=16'],
      env: {},
    },
  );
  assert.equal(
    missingNodeRuntime(['--max-semi-space-size=16', '--expose-gc', '--heap-growing-percent=50'], {
      MALLOC_ARENA_MAX: '2',
    }),
    undefined,
  );
});

test('a process is replaced at most once', () => {
  assert.equal(missingNodeRuntime([], { L2NODE_NODE_RUNTIME: '1' }), undefined);
});

test('ensureNodeRuntime replaces the process in place, and V8 then bounds the young generation', () => {
  const dir = mkdtempSync(join(fileURLToPath(new URL('../../tmp/', import.meta.url)), 'node-runtime-'));
  try {
    const script = join(dir, 'probe.ts');
    const module = fileURLToPath(new URL('../../../src/config/node-runtime.ts', import.meta.url));
    // Churn that keeps half its objects across scavenges: V8 grows new space to 2 × 64 MB without a bound.
    writeFileSync(
      script,
      `import { writeSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import { ensureNodeRuntime } from ${JSON.stringify(module)};
if (process.env.L2NODE_NODE_RUNTIME === undefined) writeSync(1, 'before ' + process.pid + '\\n');
ensureNodeRuntime();
let keep = [];
let newSpace = 0;
for (let round = 0; round < 20; round++) {
  for (let i = 0; i < 200_000; i++) {
    keep.push({ a: i, b: [i, i] });
    if (keep.length > 200_000) keep = keep.slice(100_000);
  }
  newSpace = Math.max(newSpace, getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
}
writeSync(1, JSON.stringify({ pid: process.pid, argv: process.argv.slice(2), execArgv: process.execArgv, arenas: process.env.MALLOC_ARENA_MAX, newSpace }) + '\\n');
`,
    );
    const run = (env: Record<string, string>) => {
      const r = spawnSync(process.execPath, [script, 'a', 'b'], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', ...env },
      });
      assert.equal(r.status, 0, r.stderr);
      const [before, after] = r.stdout.trim().split('\n');
      return {
        before,
        ...(JSON.parse(after!) as {
          pid: number;
          argv: string[];
          execArgv: string[];
          arenas?: string;
          newSpace: number;
        }),
      };
    };
    const bounded = run({});
    assert.equal(bounded.before, `before ${bounded.pid}`, 'same process');
    assert.deepEqual(bounded.argv, ['a', 'b']);
    assert.equal(bounded.arenas, '2');
    assert.ok(bounded.execArgv.includes('--heap-growing-percent=50'), bounded.execArgv.join(' '));
    assert.ok(bounded.newSpace <= 32 * 1024 * 1024, `new space ${bounded.newSpace} bytes`);
    // The same churn with the user's own larger bound: V8 grows past the default one.
    const own = run({ NODE_OPTIONS: '--max-semi-space-size=64' });
    assert.equal(own.arenas, '2');
    assert.ok(own.newSpace > 32 * 1024 * 1024, `new space ${own.newSpace} bytes`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
