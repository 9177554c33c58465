/**
 * Read throughput of the public port with one and with two read-only processes (`--role rpc`) on
 * the same Postgres database (issue 13). Starts the throw-away Postgres (scripts/postgres-start.sh,
 * idempotent; left running for the others), creates a fresh database, starts one writer
 * (bin/l2node.js, 1 s slots, empty blocks) and lets it build a few blocks, pauses its sequencer so
 * every reader answers the same tip during the loads, starts two readers, then measures
 * node_getBlockNumber and node_getBlock("latest") with the load client in separate processes
 * (bench/rpc/load-client.ts, closed loop), always two load processes of connections/2 each run
 * together (same client side in both cases): (a) both against one reader, (b) one per reader.
 * Answers are checked byte-equal to one recorded before the loads. Prints req/s and the ratio
 * two/one; writes bench/out/readers.json (read by bench/collect.ts). Every child is stopped
 * by its PID and the database is dropped at the end.
 *
 * Run: ./node_modules/.bin/node bench/readers.ts [durationMs=5000] [runs=3] [connections=32]
 * @module
 */

import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import knexFactory from 'knex';
import { benchPostgresUrl } from './lib/postgres.ts';
import { median } from './lib/stats.ts';
import type { LoadResult } from './rpc/load-client.ts';
import { cpuSecondsOf, NODE_BIN, post, ROOT, rssOf, runLoadProcess } from './rpc/processes.ts';

const DURATION_MS = Number(process.argv[2] ?? 5000);
const RUNS = Number(process.argv[3] ?? 3);
const CONNECTIONS = Number(process.argv[4] ?? 32);
const WARMUP_MS = 1000;
const MIN_BLOCKS = 3;

interface Proc {
  readonly name: string;
  readonly proc: ChildProcess;
  readonly port: number;
  readonly url: string;
  readonly adminUrl: string;
  log(): string;
}

const children: Proc[] = [];
const tmp = mkdtempSync(join(tmpdir(), 'l2node-bench-readers-'));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Starts bin/l2node.js on free ports (cwd: a temp dir); resolves with the public port once both surfaces listen. */
function startL2node(name: string, args: readonly string[]): Promise<Proc> {
  const cwd = mkdtempSync(join(tmp, `${name}-`));
  const proc = spawn(
    NODE_BIN,
    [
      join(ROOT, 'bin/l2node.js'),
      '--port',
      '0',
      '--admin-port',
      '0',
      '--no-admin-api-key',
      '--log-level',
      'info',
      ...args,
    ],
    { cwd, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  let buf = '';
  const found: Record<string, number> = {};
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`${name}: not listening within 60 s; log: ${log.slice(-800)}`)),
      60_000,
    );
    const onExit = (code: number | null) =>
      fail(new Error(`${name} exited (${code}) before listening; log: ${log.slice(-800)}`));
    function fail(err: Error) {
      clearTimeout(timer);
      proc.off('exit', onExit);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      reject(err);
    }
    proc.stderr!.on('data', (d: Buffer) => {
      const s = d.toString('utf8');
      log = (log + s).slice(-20_000);
      buf += s;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (!line.startsWith('{')) continue;
        try {
          const e = JSON.parse(line) as { surface?: string; port?: number };
          if (e.surface !== undefined && e.port !== undefined) found[e.surface] = e.port;
        } catch {
          // not a log line of ours
        }
      }
      if (found.public !== undefined && found.admin !== undefined && !children.some((c) => c.proc === proc)) {
        clearTimeout(timer);
        proc.off('exit', onExit);
        const p: Proc = {
          name,
          proc,
          port: found.public,
          url: `http://127.0.0.1:${found.public}`,
          adminUrl: `http://127.0.0.1:${found.admin}`,
          log: () => log,
        };
        children.push(p);
        resolve(p);
      }
    });
    proc.once('exit', onExit);
  });
}

/** SIGTERM by PID, SIGKILL after 10 s. */
function stopByPid(p: Proc): Promise<void> {
  return new Promise((resolve) => {
    if (p.proc.exitCode !== null || p.proc.signalCode !== null || p.proc.pid === undefined) return resolve();
    const kill = setTimeout(() => process.kill(p.proc.pid!, 'SIGKILL'), 10_000);
    p.proc.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    process.kill(p.proc.pid, 'SIGTERM');
  });
}

async function call(
  url: string,
  method: string,
  ...params: unknown[]
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  });
  return (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
}

async function waitFor<T>(what: string, f: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

// 1. Postgres and a fresh database.
const baseUrl = benchPostgresUrl();
const dbName = `l2node_bench_readers_${process.pid}_${Date.now()}`;
const admin = knexFactory({ client: 'pg', connection: baseUrl, pool: { min: 0, max: 1 } });
await admin.raw('create database ??', [dbName]);
const dbUrlObj = new URL(baseUrl);
dbUrlObj.pathname = `/${dbName}`;
const dbUrl = dbUrlObj.toString();
const readOnly = new URL(dbUrl);
readOnly.searchParams.set('options', '-c default_transaction_read_only=on');

interface Measured {
  one: [LoadResult, LoadResult][];
  two: [LoadResult, LoadResult][];
}
const methods = [
  {
    key: 'getBlockNumber',
    label: 'node_getBlockNumber',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'node_getBlockNumber', params: [] }),
  },
  {
    key: 'getBlockLatest',
    label: 'node_getBlock("latest")',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'node_getBlock', params: ['latest'] }),
  },
];
const results: Record<
  string,
  {
    oneReader: number;
    twoReaders: number;
    ratio: number;
    oneRuns: number[];
    twoRuns: number[];
    p99OneMs: number;
    p99TwoMs: number;
    errors: number;
    readerCpuOne: number;
    readerCpuTwo: number;
  }
> = {};
let tip = 0;
let exitCode = 0;
try {
  // 2. The writer: short slots, empty blocks; a few blocks before the readers start.
  const genesis = Math.floor(Date.now() / 1000);
  const chain = [
    '--genesis-time',
    String(genesis),
    '--slot-duration',
    '1',
    '--slots-per-epoch',
    '2',
    '--proof-delay',
    '1',
    '--finality-depth',
    '1',
    '--sequencer-polling-interval-ms',
    '100',
  ];
  const writer = await startL2node('writer', [
    '--database-url',
    dbUrl,
    '--data-directory',
    mkdtempSync(join(tmp, 'data-')),
    ...chain,
    '--build-empty-blocks',
    '--min-txs-per-block',
    '0',
  ]);
  const t0 = performance.now();
  tip = await waitFor(
    `${MIN_BLOCKS} blocks on the writer`,
    async () => {
      const r = await call(writer.url, 'node_getBlockNumber');
      return typeof r.result === 'number' && r.result >= MIN_BLOCKS ? r.result : undefined;
    },
    120_000,
  );
  const buildS = (performance.now() - t0) / 1000;
  const paused = await fetch(writer.adminUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'nodeAdmin_pauseSync', params: [] }),
  }).then((r) => r.json() as Promise<{ error?: unknown }>);
  if (paused.error !== undefined) throw new Error(`nodeAdmin_pauseSync on the writer: ${JSON.stringify(paused.error)}`);
  await sleep(1500); // a block in flight lands
  tip = (await call(writer.url, 'node_getBlockNumber')).result as number;
  console.log(
    `writer built ${tip} blocks in ${buildS.toFixed(1)} s (1 s slots, empty blocks); sequencer paused for the loads`,
  );

  // 3. Two readers on the same database (read-only sessions), forwarding to the writer.
  const readerArgs = [
    '--role',
    'rpc',
    '--data-directory',
    '',
    '--database-url',
    readOnly.toString(),
    '--writer-url',
    writer.url,
    ...chain,
  ];
  const r1 = await startL2node('reader1', readerArgs);
  const r2 = await startL2node('reader2', readerArgs);
  for (const r of [r1, r2])
    await waitFor(`${r.name} at tip ${tip}`, async () =>
      (await call(r.url, 'node_getBlockNumber')).result === tip ? true : undefined,
    );

  // 4. Loads: (a) one reader, all connections; (b) both readers together, connections split.
  const half = Math.max(1, Math.floor(CONNECTIONS / 2));
  console.log(
    `${cpus().length} CPUs; closed loop, ${RUNS} run(s) of ${DURATION_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up; two load processes of ${half} connections each, both on one reader or one per reader`,
  );
  for (const m of methods) {
    const expect = (await post(r1.port, m.body)).body;
    const e2 = (await post(r2.port, m.body)).body;
    if (e2 !== expect)
      throw new Error(`${m.label}: the readers answer differently:\n${expect.slice(0, 300)}\n${e2.slice(0, 300)}`);
    const meas: Measured = { one: [], two: [] };
    const cpuOne: number[] = [];
    const cpuTwo: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Two load processes in both cases, so the client side is the same: (a) both on reader 1, (b) one per reader.
      const pair = (targets: readonly Proc[]) =>
        Promise.all(
          targets.map((r) =>
            runLoadProcess({
              port: r.port,
              body: m.body,
              expect,
              connections: half,
              warmupMs: WARMUP_MS,
              durationMs: DURATION_MS,
            }),
          ),
        ) as Promise<[LoadResult, LoadResult]>;
      const cpu0 = [r1, r2].map((r) => cpuSecondsOf(r.proc.pid));
      let t = performance.now();
      meas.one.push(await pair([r1, r1]));
      const cpu1 = [r1, r2].map((r) => cpuSecondsOf(r.proc.pid));
      const oneS = (performance.now() - t) / 1000;
      t = performance.now();
      meas.two.push(await pair([r1, r2]));
      const twoS = (performance.now() - t) / 1000;
      const cpu2 = [r1, r2].map((r) => cpuSecondsOf(r.proc.pid));
      cpuOne.push((cpu1[0]! - cpu0[0]!) / oneS);
      cpuTwo.push((cpu2[0]! - cpu1[0]! + cpu2[1]! - cpu1[1]!) / twoS);
    }
    const oneRuns = meas.one.map(([a, b]) => a.rps + b.rps);
    const twoRuns = meas.two.map(([a, b]) => a.rps + b.rps);
    const one = median(oneRuns);
    const two = median(twoRuns);
    const errors = [...meas.one, ...meas.two].reduce(
      (a, [x, y]) => a + x.errors + x.mismatches + y.errors + y.mismatches,
      0,
    );
    results[m.key] = {
      oneReader: one,
      twoReaders: two,
      ratio: two / one,
      oneRuns,
      twoRuns,
      p99OneMs: median(meas.one.map(([a, b]) => Math.max(a.p99Ms, b.p99Ms))),
      p99TwoMs: median(meas.two.map(([a, b]) => Math.max(a.p99Ms, b.p99Ms))),
      errors,
      readerCpuOne: median(cpuOne),
      readerCpuTwo: median(cpuTwo),
    };
    console.log(
      `${m.label.padEnd(24)} one reader ${one.toFixed(0).padStart(6)} req/s  two readers ${two.toFixed(0).padStart(6)} req/s  two/one ${(two / one).toFixed(2)}  (runs ${oneRuns.map((x) => x.toFixed(0)).join('/')} vs ${twoRuns.map((x) => x.toFixed(0)).join('/')}; ${errors} errors or mismatches; reader CPU ${median(cpuOne).toFixed(2)} vs ${median(cpuTwo).toFixed(2)} cores, incl. start/warm-up)`,
    );
  }
  const rss = children.map((c) => `${c.name} ${(rssOf(c.proc.pid) / 1024 / 1024).toFixed(0)} MB`).join(', ');
  console.log(`resident sets after the loads: ${rss}`);
  mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench', 'out', 'readers.json'),
    JSON.stringify(
      {
        cpus: cpus().length,
        tip,
        connections: CONNECTIONS,
        runs: RUNS,
        durationMs: DURATION_MS,
        warmupMs: WARMUP_MS,
        results,
      },
      null,
      2,
    ) + '\n',
  );
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  for (const c of [...children].reverse()) await stopByPid(c);
  await admin
    .raw('drop database if exists ?? with (force)', [dbName])
    .catch((e: unknown) => console.error(`dropping ${dbName}: ${String(e)}`));
  await admin.destroy();
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(exitCode);
