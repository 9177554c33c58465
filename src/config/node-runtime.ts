/**
 * How an l2node process runs V8 and glibc's allocator, and the entry points' way to get it.
 *
 * A node that builds or imports blocks back to back (a follower catching up, a chain import,
 * `--build-empty-blocks` on a manual clock) never idles, so V8 grows its young generation to the
 * default 2 × 64 MB and glibc gives each thread that mallocs its own arena; V8 gives memory back only
 * once the process idles. An engine process ended 9 600 empty blocks at 2.3–2.5× the resident set it
 * opened with (docs/PERFORMANCE-NOTES.md, "Memory"):
 * - `--max-semi-space-size=16`: the young generation stays ≤ 2 × 16 MB (no measured cost in blocks/s
 *   or RPC req/s);
 * - `--expose-gc`: lets the chain run V8's memory-reducing collection during such a burst
 *   (src/impl/chain/burst-memory.ts); with it 1.12–1.16×, for more CPU per block during the burst;
 * - `MALLOC_ARENA_MAX=2`: native allocations of V8's and libuv's threads share two arenas;
 * - `--heap-growing-percent=50`: after a major collection V8 lets the old generation grow to 1.5× what
 *   survived before the next one, instead of a factor it picks between 1.1 and 4 from its own speed
 *   figures. A node serving reads at a steady rate (~45 MB live) otherwise let the old space reach
 *   76–139 MB of mostly garbage between major collections, and the pages freed afterwards stay
 *   resident in V8's page pool, so the set followed the highest such excursion (the 10-minute soak:
 *   old space at most 49 MB with the bound, resident median 257 against 277 MB, no more CPU;
 *   docs/PERFORMANCE-NOTES.md, "The soak's resident set, measured part by part").
 *
 * These can only be set when a process starts, so an entry point started without them replaces itself
 * with a run that has them (`process.execve`: same pid, arguments, stdio and signal handling). What
 * the user set wins: a `--max-semi-space-size` (or `--expose-gc`) in the command line or `NODE_OPTIONS`, a
 * `--heap-growing-percent` in the command line (Node.js does not take it in `NODE_OPTIONS`), a
 * `MALLOC_ARENA_MAX` in the environment.
 * @module
 */

/** V8 flags every l2node process starts with, unless the user gave their own value. */
export const NODE_RUNTIME_FLAGS: readonly string[] = [
  '--max-semi-space-size=16',
  '--expose-gc',
  '--heap-growing-percent=50',
];

/** Environment every l2node process starts with, unless the user set the variable. */
export const NODE_RUNTIME_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** Set in the environment of the replacing run, so a process is replaced at most once. */
const APPLIED = 'L2NODE_NODE_RUNTIME';

/** `--max-semi-space-size=16` → `max_semi_space_size` (V8 accepts dashes and underscores alike). */
function flagName(flag: string): string {
  return flag.replace(/^--/, '').split('=')[0]!.replaceAll('-', '_');
}

/**
 * What a process started with `execArgv` and `env` lacks of the runtime: the flags to add in front of
 * its own and the variables to add to its environment; undefined when nothing is missing (or it was
 * already replaced once).
 */
export function missingNodeRuntime(
  execArgv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): { flags: string[]; env: Record<string, string> } | undefined {
  if (env[APPLIED] !== undefined) return undefined;
  const given = new Set(
    [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].filter((a) => a.startsWith('--')).map(flagName),
  );
  const flags = NODE_RUNTIME_FLAGS.filter((f) => !given.has(flagName(f)));
  const vars = Object.fromEntries(Object.entries(NODE_RUNTIME_ENV).filter(([k]) => env[k] === undefined));
  if (flags.length === 0 && Object.keys(vars).length === 0) return undefined;
  return { flags, env: vars };
}

/**
 * Called first by an entry point (bin/l2node.js, the installed package's bin, a benchmark's engine
 * process): when this process lacks part of the runtime, replaces it with `node <flags> <its own
 * flags> <script> <args>` and never returns; otherwise returns at once. Without `process.execve`
 * (not on POSIX) the process runs on as it is.
 */
export function ensureNodeRuntime(): void {
  const missing = missingNodeRuntime(process.execArgv, process.env);
  if (missing === undefined || typeof process.execve !== 'function') return;
  process.execve(
    process.execPath,
    [process.execPath, ...missing.flags, ...process.execArgv, ...process.argv.slice(1)],
    { ...process.env, ...missing.env, [APPLIED]: '1' },
  );
}
