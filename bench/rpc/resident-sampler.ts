/**
 * What a node's resident set is made of over a soak (issue #21): every tick the split of
 * /proc/<pid>/status (anonymous, file-backed, shared), every few seconds the resident bytes of
 * /proc/<pid>/smaps by mapping, the process's threads by name and V8's heap from the node's own
 * /metrics. Two windows of the series are then compared part by part, so the soak's figure can say
 * which part grew and by how much instead of guessing from the shape of the total.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { MappingGroup, ResidentSplit, V8Heap } from '../lib/proc-memory.ts';
import {
  countThreadNames,
  parseCacheBytes,
  parseSmapsGroups,
  parseStatusSplit,
  parseV8Heap,
} from '../lib/proc-memory.ts';
import { median } from '../lib/stats.ts';

/** One tick: the resident set split by kind of page, `t` in ms from the sampler's start. */
export interface SplitSample extends ResidentSplit {
  readonly t: number;
}

/** One detailed sample: mappings, threads and V8's heap (absent when /metrics did not answer). */
export interface DetailSample {
  readonly t: number;
  readonly groups: readonly MappingGroup[];
  readonly threads: Readonly<Record<string, number>>;
  readonly v8?: V8Heap;
  /** The node's caches' bytes (l2node_cache_bytes), by cache. */
  readonly caches?: Readonly<Record<string, number>>;
}

const MB = 1024 * 1024;

/** Samples one process; `tick()` on the caller's schedule, details on its own timer. */
export class ResidentSampler {
  readonly splits: SplitSample[] = [];
  readonly details: DetailSample[] = [];
  readonly #pid: number;
  readonly #metricsPort: number | undefined;
  readonly #t0: number;
  #timer: NodeJS.Timeout | undefined;
  #pending: Promise<void> = Promise.resolve();

  constructor(pid: number, metricsPort: number | undefined, t0 = performance.now()) {
    this.#pid = pid;
    this.#metricsPort = metricsPort;
    this.#t0 = t0;
  }

  /** Reads the status split now; returns VmRSS in bytes (NaN when unreadable). */
  tick(): number {
    try {
      const split = parseStatusSplit(readFileSync(`/proc/${this.#pid}/status`, 'utf8'));
      if (split === undefined) return Number.NaN;
      this.splits.push({ t: performance.now() - this.#t0, ...split });
      return split.rss;
    } catch {
      return Number.NaN;
    }
  }

  /** Takes a detailed sample every `everyMs` until `stop()`. */
  start(everyMs: number): void {
    const take = () => {
      this.#pending = this.#pending.then(() => this.detail()).catch(() => undefined);
    };
    take();
    this.#timer = setInterval(take, everyMs);
  }

  /** Stops the detailed samples; resolves once the last one is in. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#pending;
  }

  /** One detailed sample now. */
  async detail(): Promise<void> {
    const t = performance.now() - this.#t0;
    let groups: MappingGroup[];
    let comms: string[];
    try {
      groups = parseSmapsGroups(readFileSync(`/proc/${this.#pid}/smaps`, 'utf8'));
      comms = readdirSync(`/proc/${this.#pid}/task`).flatMap((tid) => {
        try {
          return [readFileSync(`/proc/${this.#pid}/task/${tid}/comm`, 'utf8')];
        } catch {
          return []; // the thread ended meanwhile
        }
      });
    } catch {
      return; // the process has gone
    }
    let v8: V8Heap | undefined;
    let caches: Record<string, number> | undefined;
    if (this.#metricsPort !== undefined) {
      try {
        const res = await fetch(`http://127.0.0.1:${this.#metricsPort}/metrics`, { signal: AbortSignal.timeout(5000) });
        const text = await res.text();
        v8 = parseV8Heap(text);
        caches = parseCacheBytes(text);
      } catch {
        // no answer this time: the sample keeps the /proc parts
      }
    }
    this.details.push({
      t,
      groups,
      threads: countThreadNames(comms),
      ...(v8 ? { v8 } : {}),
      ...(caches && Object.keys(caches).length > 0 ? { caches } : {}),
    });
  }
}

/** The medians of each part of the resident set over one window of the series, in bytes. */
export interface WindowParts {
  readonly rss: number;
  readonly anon: number;
  readonly file: number;
  readonly shmem: number;
  /** V8's committed heap, its used part, and external memory (NaN without /metrics). */
  readonly v8Total: number;
  readonly v8Used: number;
  readonly external: number;
  /** V8's committed heap by space. */
  readonly spaces: Readonly<Record<string, number>>;
  /** Resident bytes by mapping group (parseSmapsGroups). */
  readonly groups: Readonly<Record<string, number>>;
  /** Threads by name, the most seen in the window. */
  readonly threads: Readonly<Record<string, number>>;
  /** The node's caches' bytes by cache (l2node_cache_bytes; empty without them). */
  readonly caches: Readonly<Record<string, number>>;
  /** Detailed samples in the window (the mappings, threads and V8 parts come from these). */
  readonly detailSamples: number;
}

/** The parts of the set over [from, to) ms; NaN where the window holds no sample. */
export function windowParts(
  splits: readonly SplitSample[],
  details: readonly DetailSample[],
  from: number,
  to: number,
): WindowParts {
  const s = splits.filter((x) => x.t >= from && x.t < to);
  const d = details.filter((x) => x.t >= from && x.t < to);
  const v = d.flatMap((x) => (x.v8 ? [x.v8] : []));
  const names = new Set(d.flatMap((x) => x.groups.map((g) => g.name)));
  const spaceNames = new Set(v.flatMap((x) => Object.keys(x.spaces)));
  const threadNames = new Set(d.flatMap((x) => Object.keys(x.threads)));
  const withCaches = d.flatMap((x) => (x.caches ? [x.caches] : []));
  const cacheNames = new Set(withCaches.flatMap((x) => Object.keys(x)));
  return {
    rss: median(s.map((x) => x.rss)),
    anon: median(s.map((x) => x.anon)),
    file: median(s.map((x) => x.file)),
    shmem: median(s.map((x) => x.shmem)),
    v8Total: median(v.map((x) => x.total)),
    v8Used: median(v.map((x) => x.used)),
    external: median(v.map((x) => x.external)),
    spaces: Object.fromEntries([...spaceNames].map((n) => [n, median(v.map((x) => x.spaces[n] ?? 0))])),
    groups: Object.fromEntries(
      [...names].map((n) => [n, median(d.map((x) => x.groups.find((g) => g.name === n)?.rssBytes ?? 0))]),
    ),
    threads: Object.fromEntries([...threadNames].map((n) => [n, Math.max(...d.map((x) => x.threads[n] ?? 0))])),
    caches: Object.fromEntries([...cacheNames].map((n) => [n, median(withCaches.map((x) => x[n] ?? 0))])),
    detailSamples: d.length,
  };
}

const mb = (x: number) => (Number.isFinite(x) ? (x / MB).toFixed(0) : '—');
const signedMb = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : '−'}${Math.abs(x / MB).toFixed(0)}` : '—');
const threadTotal = (t: Readonly<Record<string, number>>) => Object.values(t).reduce((a, n) => a + n, 0);

/**
 * The parts of one window against an earlier one, in words: each kind of page with its change, V8's
 * heap within the anonymous pages, the mappings that moved most, and threads that came or went.
 */
export function describeParts(before: WindowParts, after: WindowParts): string {
  const split = `resident ${mb(before.rss)} → ${mb(after.rss)} MB (${signedMb(after.rss - before.rss)}): anonymous ${mb(before.anon)} → ${mb(after.anon)} (${signedMb(after.anon - before.anon)}), file-backed ${mb(before.file)} → ${mb(after.file)} (${signedMb(after.file - before.file)}), shared memory ${mb(before.shmem)} → ${mb(after.shmem)} (${signedMb(after.shmem - before.shmem)})`;
  if (before.detailSamples === 0 || after.detailSamples === 0)
    return `${split}; no detailed sample (mappings, threads, V8's heap) in ${before.detailSamples === 0 ? 'the earlier' : 'the later'} window: shorter than the time between two`;
  const v8 = Number.isFinite(before.v8Total) && Number.isFinite(after.v8Total);
  // Anonymous pages outside V8's committed heap: malloc arenas (SQLite's page caches, prepared
  // statements, addons), thread stacks, V8's pooled pages and code. An estimate: committed is not resident.
  const nativeBefore = before.anon - before.v8Total;
  const nativeAfter = after.anon - after.v8Total;
  const moved = Object.keys({ ...before.groups, ...after.groups })
    .map((n) => ({ n, d: (after.groups[n] ?? 0) - (before.groups[n] ?? 0) }))
    .filter((x) => Math.abs(x.d) >= MB)
    .sort((a, b) => Math.abs(b.d) - Math.abs(a.d))
    .slice(0, 4);
  const spaces = Object.keys({ ...before.spaces, ...after.spaces })
    .map((n) => ({ n, d: (after.spaces[n] ?? 0) - (before.spaces[n] ?? 0) }))
    .filter((x) => Math.abs(x.d) >= MB)
    .sort((a, b) => Math.abs(b.d) - Math.abs(a.d));
  // The node's own caches (l2node_cache_bytes): how much of the heap's change is a cache filling to its bound.
  const cacheNames = Object.keys({ ...before.caches, ...after.caches }).sort();
  const cacheSum = (c: Readonly<Record<string, number>>) => Object.values(c).reduce((a, x) => a + x, 0);
  const mb1 = (x: number) => (x / MB).toFixed(1);
  const cacheText =
    cacheNames.length === 0
      ? undefined
      : `the node's caches (l2node_cache_bytes) ${mb1(cacheSum(before.caches))} → ${mb1(cacheSum(after.caches))} MB: ${cacheNames
          .map((n) => `${n} ${mb1(before.caches[n] ?? 0)} → ${mb1(after.caches[n] ?? 0)}`)
          .join(', ')}`;
  const threadChanges = Object.keys({ ...before.threads, ...after.threads })
    .map((n) => ({ n, d: (after.threads[n] ?? 0) - (before.threads[n] ?? 0) }))
    .filter((x) => x.d !== 0)
    .map((x) => `${x.d > 0 ? '+' : '−'}${Math.abs(x.d)} '${x.n}'`);
  return [
    split,
    v8
      ? `V8 heap committed ${mb(before.v8Total)} → ${mb(after.v8Total)} MB (${signedMb(after.v8Total - before.v8Total)}${spaces.length > 0 ? `; ${spaces.map((x) => `${x.n} ${signedMb(x.d)}`).join(', ')}` : ''}), used ${mb(before.v8Used)} → ${mb(after.v8Used)}, external ${mb(before.external)} → ${mb(after.external)}; anonymous outside V8's committed heap (malloc arenas, thread stacks, pooled pages) ${mb(nativeBefore)} → ${mb(nativeAfter)} (${signedMb(nativeAfter - nativeBefore)})`
      : "V8 heap not sampled (the node's /metrics did not answer)",
    `mappings that moved: ${moved.length > 0 ? moved.map((x) => `${x.n} ${signedMb(x.d)}`).join(', ') : 'none by 1 MB or more'}`,
    `threads ${threadTotal(before.threads)} → ${threadTotal(after.threads)}${threadChanges.length > 0 ? ` (${threadChanges.join(', ')})` : ''}`,
    ...(cacheText === undefined ? [] : [cacheText]),
  ].join('; ');
}

/** The part of the set that grew most between two windows, and by how much (bytes). */
export function largestGrowth(before: WindowParts, after: WindowParts): { part: string; bytes: number } {
  const v8 = Number.isFinite(before.v8Total) && Number.isFinite(after.v8Total);
  const parts = [
    ...(v8
      ? [
          { part: "the main thread's V8 heap (committed)", bytes: after.v8Total - before.v8Total },
          {
            part: "anonymous memory outside the main thread's V8 heap (malloc arenas with SQLite's caches, workers' heaps, thread stacks, pooled V8 pages)",
            bytes: after.anon - after.v8Total - (before.anon - before.v8Total),
          },
        ]
      : [{ part: 'anonymous memory', bytes: after.anon - before.anon }]),
    { part: "file-backed pages (the executable, libraries, SQLite's -shm index)", bytes: after.file - before.file },
    { part: 'shared memory', bytes: after.shmem - before.shmem },
  ];
  return parts.reduce((a, b) => (b.bytes > a.bytes ? b : a));
}
