/**
 * Poseidon2 pair hashing on the second core: a small `node:worker_threads` pool, each worker with
 * its own WebAssembly kernel (poseidon2-pool-worker.ts). A large batch is packed once into a
 * SharedArrayBuffer as 64-bit little-endian words (no bigint structured clone) and cut into chunks
 * that the main thread and the workers claim one at a time (poseidon2-chunks.ts), so a worker the
 * scheduler delays takes fewer chunks instead of holding the batch up; the main thread then
 * unpacks the outputs.
 *
 * Only batches of at least `minPairs` are split: below that the wakeup and round trip cost more
 * than the hashing saved (crossover measured by bench/poseidon2-workers.ts, docs/PERFORMANCE-NOTES.md).
 * Workers start on the first batch large enough to split and take part once their kernel is
 * loaded (until then the main thread hashes alone); they are `unref`'d while idle so they never
 * keep the process alive, and `close()` ends them (a later split batch starts them again).
 * @module
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { FIELD_MODULUS } from './field.ts';
import type { Hasher } from './poseidon2.ts';
import { defaultHasher } from './poseidon2.ts';
import { allChunksDone, createBatch, DONE_WORD, hashFreeChunks, MAIN_ID, takeBackChunks } from './poseidon2-chunks.ts';
import { poseidon2HashInSlices } from './poseidon2-sliced.ts';
import { hashPairs } from './poseidon2-wasm.ts';

const P = FIELD_MODULUS;
const TWO_POW_256 = 1n << 256n;
/**
 * Default split threshold in pairs. With the second core idle the pool pays from ~16–64 pairs (a
 * round trip costs ~70 µs, one pair hash ~26 µs); with it busy a wakeup can take a scheduler slice
 * and small splits lose (bench/poseidon2-workers.ts, docs/PERFORMANCE-NOTES.md). 256 splits the
 * bottom levels of a block's trees, which hold most of its pairs, and keeps the many short path
 * levels (1–128 pairs) on the main thread.
 */
export const DEFAULT_MIN_PARALLEL_PAIRS = 256;

/** Options of a Poseidon2Pool. */
export interface Poseidon2PoolOptions {
  /** Worker threads; default `os.availableParallelism() - 1` (0 = always the main thread). */
  readonly workers?: number;
  /** Smallest batch split across threads; default DEFAULT_MIN_PARALLEL_PAIRS. */
  readonly minPairs?: number;
  /**
   * Whether the main thread hashes a share of a split batch (default true: most throughput). False
   * leaves the whole batch to the workers, so the event loop is free while they hash.
   */
  readonly mainThreadHashes?: boolean;
  /**
   * The workers' thread name (at most 15 characters are kept by the OS: /proc/<pid>/task/<tid>/comm),
   * so a profile or bench/rpc/busy-node.ts can tell this pool's threads from others; default
   * `poseidon2`.
   */
  readonly threadName?: string;
}

interface Pending {
  resolve: (out?: ArrayBuffer) => void;
  reject: (err: Error) => void;
}

/** One worker thread and its outstanding requests. */
class PoolWorker {
  readonly thread: Worker;
  /** Resolves once the worker's kernel is loaded (rejects if it dies first). */
  readonly started: Promise<void>;
  ready = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failed: Error | undefined;
  private ending = false;

  constructor(name: string, onExit: (w: PoolWorker, err: Error, wasReady: boolean) => void) {
    // The installed package runs compiled .js (scripts/pack.ts), the repository runs .ts.
    this.thread = new Worker(
      new URL(
        import.meta.url.endsWith('.js') ? './poseidon2-pool-worker.js' : './poseidon2-pool-worker.ts',
        import.meta.url,
      ),
      { name },
    );
    let started!: { resolve: () => void; reject: (err: Error) => void };
    this.started = new Promise<void>((resolve, reject) => {
      started = { resolve, reject };
    });
    this.started.catch(() => undefined);
    this.thread.on('message', (m: { id?: number; error?: string; ready?: true; out?: ArrayBuffer }) => {
      if (m.ready) {
        this.ready = true;
        started.resolve();
      } else if (m.id !== undefined) {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (m.error !== undefined) p?.reject(new Error(`poseidon2 worker: ${m.error}`));
        else p?.resolve(m.out);
      }
      this.unrefIfIdle();
    });
    const fail = (err: Error) => {
      if (this.failed) return; // 'error' is followed by 'exit'
      const wasReady = this.ready;
      this.failed = err;
      this.ready = false;
      started.reject(err);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
      void this.thread.terminate(); // after an 'error' the thread may still be running
      onExit(this, err, wasReady);
    };
    this.thread.on('error', fail);
    this.thread.on('exit', (code) => fail(new Error(`poseidon2 worker exited (code ${code})`)));
    // After the listeners: adding a 'message' listener references the worker's port again.
    this.thread.unref();
  }

  unrefIfIdle(): void {
    if (this.pending.size === 0 && !this.ending) this.thread.unref();
  }

  /** Terminates the thread; referenced until it is gone, so a caller awaiting this is not cut short. */
  end(): Promise<number> {
    this.ending = true;
    this.thread.ref();
    return this.thread.terminate();
  }

  /** Asks the worker to hash free chunks of the batch as thread `me`; resolves when it found none left, rejects if it dies. */
  async join(buffer: SharedArrayBuffer, me: number): Promise<void> {
    await this.request({ buffer, me });
  }

  /** Sponge hashes of packed inputs (the buffer is transferred); four words out per input. */
  async sponges(words: BigUint64Array, lengths: readonly number[]): Promise<BigUint64Array> {
    const out = await this.request({ sponges: words.buffer, lengths }, [words.buffer as ArrayBuffer]);
    return new BigUint64Array(out!);
  }

  private request(message: object, transfer: ArrayBuffer[] = []): Promise<ArrayBuffer | undefined> {
    if (this.failed) return Promise.reject(this.failed);
    // Referenced while a request is out, so an awaiting caller is not cut short by process exit.
    this.thread.ref();
    return new Promise<ArrayBuffer | undefined>((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.thread.postMessage({ id, ...message }, transfer);
    });
  }
}

/** Writes x as four little-endian 64-bit words at word k (reduced unless already below 2^256, as the kernel expects). */
function put(w: BigUint64Array, k: number, x: bigint): void {
  if (x < 0n || x >= TWO_POW_256) x = ((x % P) + P) % P;
  w[k] = BigInt.asUintN(64, x);
  w[k + 1] = BigInt.asUintN(64, x >> 64n);
  w[k + 2] = BigInt.asUintN(64, x >> 128n);
  w[k + 3] = x >> 192n;
}

function get(w: BigUint64Array, k: number): bigint {
  return (w[k + 3]! << 192n) | (w[k + 2]! << 128n) | (w[k + 1]! << 64n) | w[k]!;
}

/** A pool of Poseidon2 worker threads for large pair batches. */
export class Poseidon2Pool {
  readonly maxWorkers: number;
  readonly minPairs: number;
  readonly mainThreadHashes: boolean;
  readonly threadName: string;
  private workers: PoolWorker[] = [];
  /** Set when a worker died before it was ready (e.g. cannot load): no more are started. */
  private cannotStart: Error | undefined;
  private readonly closing = new WeakSet<PoolWorker>();
  /** One batch at a time: the main thread takes part in each, so overlapping batches gain nothing. */
  private turn: Promise<unknown> = Promise.resolve();
  /** The last sponge job given, settled in order (hashSponges). */
  private lastSponges: Promise<unknown> = Promise.resolve();

  constructor(opts: Poseidon2PoolOptions = {}) {
    this.maxWorkers = Math.max(0, opts.workers ?? availableParallelism() - 1);
    this.minPairs = Math.max(1, opts.minPairs ?? DEFAULT_MIN_PARALLEL_PAIRS);
    this.mainThreadHashes = opts.mainThreadHashes ?? true;
    this.threadName = opts.threadName ?? 'poseidon2';
  }

  /** Worker threads currently running. */
  get running(): number {
    return this.workers.length;
  }

  /**
   * hashPair(lefts[i], rights[i]) for every i, split across the workers and the main thread when
   * the batch has at least `minPairs` pairs, else on the main thread's kernel (still resolved
   * asynchronously). Results are the kernel's, in order.
   */
  hashPairsParallel(lefts: readonly bigint[], rights: readonly bigint[]): Promise<bigint[]> {
    const n = lefts.length;
    if (rights.length !== n)
      return Promise.reject(new RangeError('hashPairsParallel: lefts and rights differ in length'));
    if (n < this.minPairs || this.maxWorkers === 0) {
      try {
        return Promise.resolve(hashPairs(lefts, rights));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    const run = this.turn.then(
      () => this.split(lefts, rights),
      () => this.split(lefts, rights),
    );
    this.turn = run.catch(() => undefined);
    return run;
  }

  /**
   * poseidon2Hash(inputs[i]) for every i, as one job on the first ready worker: a sponge is
   * sequential, so a job is never split. Jobs resolve in the order they were given, wherever they
   * ran, so callers that admit what they hash (node_sendTx, gossip) keep their arrival order. With
   * no worker ready yet (starting, none configured, or one that cannot start) or one that dies
   * during the job, it is hashed here in slices that give the event loop back (poseidon2-sliced.ts).
   * Results are the kernel's.
   */
  hashSponges(inputs: readonly (readonly bigint[])[]): Promise<bigint[]> {
    const job = this.sponges(inputs);
    const before = this.lastSponges;
    const inOrder = job.then(
      async (out) => {
        await before;
        return out;
      },
      async (err: unknown) => {
        await before;
        throw err;
      },
    );
    this.lastSponges = inOrder.catch(() => undefined);
    return inOrder;
  }

  private async sponges(inputs: readonly (readonly bigint[])[]): Promise<bigint[]> {
    if (inputs.length === 0) return [];
    if (this.maxWorkers > 0) this.start();
    const worker = this.workers.find((w) => w.ready);
    if (worker !== undefined) {
      let total = 0;
      for (const x of inputs) total += x.length;
      const words = new BigUint64Array(total * 4);
      let k = 0;
      for (const x of inputs) for (const v of x) put(words, k++ * 4, v);
      try {
        const out = await worker.sponges(
          words,
          inputs.map((x) => x.length),
        );
        return inputs.map((_, i) => get(out, i * 4));
      } catch {
        // The worker died (or was closed) with the job: it is hashed below instead.
      }
    }
    const out: bigint[] = [];
    for (const x of inputs) out.push(await poseidon2HashInSlices(x));
    return out;
  }

  /** Starts the workers (if not yet) and resolves when they can take work; benchmarks and tests warm up with it. */
  async whenReady(): Promise<void> {
    if (this.maxWorkers === 0) return;
    this.start();
    if (this.cannotStart) throw this.cannotStart;
    const starting = this.workers.slice();
    // Referenced while awaited, so a caller waiting only for this is not cut short by process exit.
    for (const w of starting) w.thread.ref();
    try {
      await Promise.all(starting.map((w) => w.started));
    } finally {
      for (const w of starting) w.unrefIfIdle();
    }
  }

  /** Ends the worker threads; a later split batch starts new ones. */
  async close(): Promise<void> {
    const ending = this.workers.splice(0);
    for (const w of ending) this.closing.add(w);
    await Promise.all(ending.map((w) => w.end()));
  }

  private start(): void {
    if (this.cannotStart) return;
    while (this.workers.length < this.maxWorkers) {
      this.workers.push(
        new PoolWorker(this.threadName, (w, err, wasReady) => {
          this.workers = this.workers.filter((x) => x !== w);
          // A worker that never got its kernel loaded will not do better next time: stay on the main thread.
          if (!wasReady && !this.closing.has(w)) this.cannotStart = err;
        }),
      );
    }
  }

  private async split(lefts: readonly bigint[], rights: readonly bigint[]): Promise<bigint[]> {
    this.start();
    const n = lefts.length;
    // Workers still loading their kernel take no part: the batch never waits for a start-up.
    const workers = this.workers.filter((w) => w.ready);
    if (workers.length === 0) return hashPairs(lefts, rights);
    // ~16 chunks per thread: fine enough to balance, coarse enough that claiming costs nothing.
    const threads = workers.length + (this.mainThreadHashes ? 1 : 0);
    const chunk = Math.min(512, Math.max(4, Math.ceil(n / (threads * 16))));
    const { buffer, layout } = createBatch(n, chunk);
    const words = new BigUint64Array(buffer, layout.inBase, n * 8);
    for (let i = 0; i < n; i++) {
      put(words, i * 8, lefts[i]!);
      put(words, i * 8 + 4, rights[i]!);
    }
    const died: number[] = [];
    let wake = () => {};
    workers.forEach((w, j) => {
      w.join(buffer, j + 2).catch(() => {
        died.push(j + 2);
        wake();
      });
    });
    if (this.mainThreadHashes) hashFreeChunks(buffer, MAIN_ID);
    const header = new Int32Array(buffer, 0, 4);
    while (!allChunksDone(buffer)) {
      if (died.length > 0) {
        // A worker died (crashed, or close() ended it): its chunks, and any still free, are hashed here.
        for (const id of died.splice(0)) takeBackChunks(buffer, id, MAIN_ID);
        hashFreeChunks(buffer, MAIN_ID);
        continue;
      }
      const done = Atomics.load(header, DONE_WORD);
      if (allChunksDone(buffer)) break;
      const waited = Atomics.waitAsync(header, DONE_WORD, done);
      if (!waited.async) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        void waited.value.then(() => resolve());
      });
    }
    Atomics.notify(header, DONE_WORD); // releases a wait left behind by a worker's death
    const out = new Array<bigint>(n);
    const results = new BigUint64Array(buffer, layout.outBase, n * 4);
    for (let i = 0; i < n; i++) out[i] = get(results, i * 4);
    return out;
  }
}

/** The default kernel for single hashes and small batches, the pool for large pair batches (`hashPairsAsync`). */
export class ParallelHasher implements Hasher {
  readonly pool: Poseidon2Pool;

  constructor(pool: Poseidon2Pool = new Poseidon2Pool()) {
    this.pool = pool;
  }
  hashPair(left: bigint, right: bigint): bigint {
    return defaultHasher.hashPair(left, right);
  }
  hash(inputs: readonly bigint[]): bigint {
    return defaultHasher.hash(inputs);
  }
  hashPairs(batch: readonly (readonly [bigint, bigint])[]): bigint[] {
    return defaultHasher.hashPairs(batch);
  }
  hashPairsAsync(batch: readonly (readonly [bigint, bigint])[]): Promise<bigint[]> {
    return this.pool.hashPairsParallel(
      batch.map((p) => p[0]),
      batch.map((p) => p[1]),
    );
  }
  /** Ends the pool's workers (engine stop). */
  close(): Promise<void> {
    return this.pool.close();
  }
}
