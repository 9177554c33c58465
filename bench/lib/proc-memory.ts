/**
 * Parsers of Linux /proc memory text for the bench (issue #21: what a node's resident set is made of).
 * Pure functions over the text, so they are unit-tested on recorded files; the reading is the caller's.
 * @module
 */

/** A resident set split by kind of page, in bytes (/proc/<pid>/status). */
export interface ResidentSplit {
  /** VmRSS: the sum of the three below. */
  readonly rss: number;
  /** RssAnon: private anonymous pages — the JS heap, malloc arenas, thread stacks. */
  readonly anon: number;
  /** RssFile: pages of mapped files — the executable and libraries, SQLite's `-shm` WAL index, any mmap of a file. */
  readonly file: number;
  /** RssShmem: shared memory (System V, POSIX, tmpfs files mapped). */
  readonly shmem: number;
}

/** VmRSS, RssAnon, RssFile and RssShmem of /proc/<pid>/status, in bytes; undefined when VmRSS is absent. */
export function parseStatusSplit(text: string): ResidentSplit | undefined {
  const kb = (key: string) => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
    return m === null ? Number.NaN : Number(m[1]) * 1024;
  };
  const rss = kb('VmRSS');
  if (Number.isNaN(rss)) return undefined;
  return { rss, anon: kb('RssAnon'), file: kb('RssFile'), shmem: kb('RssShmem') };
}

/** The resident bytes of one kind of mapping in /proc/<pid>/smaps. */
export interface MappingGroup {
  /** `[heap]` (glibc's main arena, grown with brk), `[stack]`, `anonymous` (every other private anonymous mapping: V8's heap pages, thread arenas and stacks), or a mapped file's name. */
  readonly name: string;
  readonly rssBytes: number;
  /** Mappings in the group. */
  readonly mappings: number;
}

/** The header line of a mapping: `start-end perms offset dev inode [path]`. */
const MAPPING_HEADER = /^([0-9a-f]+)-([0-9a-f]+) \S{4} [0-9a-f]+ \S+ \d+\s*(.*)$/;

/**
 * Resident bytes of /proc/<pid>/smaps grouped by what is mapped, largest first: the process's
 * `[heap]`, its other anonymous mappings together, and each file (by its last path component,
 * so `chain.sqlite-shm` names SQLite's WAL index and `node` the executable).
 */
export function parseSmapsGroups(text: string): MappingGroup[] {
  const groups = new Map<string, { rssBytes: number; mappings: number }>();
  let current: string | undefined;
  for (const line of text.split('\n')) {
    const header = MAPPING_HEADER.exec(line);
    if (header !== null) {
      const path = header[3]!.trim();
      current =
        path === ''
          ? 'anonymous'
          : path.startsWith('[')
            ? path.startsWith('[anon') || path.startsWith('[stack:')
              ? 'anonymous'
              : path
            : path.slice(path.lastIndexOf('/') + 1).replace(/ \(deleted\)$/, '');
      const g = groups.get(current) ?? { rssBytes: 0, mappings: 0 };
      g.mappings++;
      groups.set(current, g);
      continue;
    }
    if (current !== undefined && line.startsWith('Rss:')) {
      const m = /^Rss:\s+(\d+) kB/.exec(line);
      if (m !== null) groups.get(current)!.rssBytes += Number(m[1]) * 1024;
    }
  }
  return [...groups]
    .map(([name, g]) => ({ name, rssBytes: g.rssBytes, mappings: g.mappings }))
    .sort((a, b) => b.rssBytes - a.rssBytes || a.name.localeCompare(b.name));
}

/** Thread names (`comm`) of a process, one per /proc/<pid>/task/<tid>/comm text, counted by name. */
export function countThreadNames(comms: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of comms) {
    const name = c.trim();
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

/** V8's heap as the node's own /metrics reports it (prom-client's default metrics), in bytes. */
export interface V8Heap {
  /** nodejs_heap_size_used_bytes: live and not yet collected objects. */
  readonly used: number;
  /** nodejs_heap_size_total_bytes: what V8 has committed for its heap. */
  readonly total: number;
  /** nodejs_external_memory_bytes: memory held outside the heap by JS objects (Buffers, ArrayBuffers). */
  readonly external: number;
  /** nodejs_heap_space_size_total_bytes by space (new, old, code, large_object, …). */
  readonly spaces: Readonly<Record<string, number>>;
}

/** The V8 heap figures in a Prometheus text exposition; undefined when its default metrics are absent. */
export function parseV8Heap(exposition: string): V8Heap | undefined {
  let used: number | undefined;
  let total: number | undefined;
  let external = Number.NaN;
  const spaces: Record<string, number> = {};
  for (const line of exposition.split('\n')) {
    if (line.startsWith('#')) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith('nodejs_heap_size_used_bytes ')) used = value;
    else if (line.startsWith('nodejs_heap_size_total_bytes ')) total = value;
    else if (line.startsWith('nodejs_external_memory_bytes ')) external = value;
    else {
      const space = /^nodejs_heap_space_size_total_bytes\{space="([^"]+)"\} /.exec(line);
      if (space !== null) spaces[space[1]!] = value;
    }
  }
  return used === undefined || total === undefined ? undefined : { used, total, external, spaces };
}

/**
 * The node's own caches' fill (`l2node_cache_bytes{cache}`: bytes held against each cache's bound,
 * docs/OPERATIONS.md), by cache; empty when the family is absent.
 */
export function parseCacheBytes(exposition: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of exposition.split('\n')) {
    const m = /^l2node_cache_bytes\{cache="([^"]+)"\} (\S+)/.exec(line);
    if (m !== null) out[m[1]!] = Number(m[2]);
  }
  return out;
}
