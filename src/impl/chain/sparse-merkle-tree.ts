/**
 * A sparse Poseidon2 Merkle tree held in memory: empty leaves are 0 and empty subtrees hash to the
 * zero ladder (reference §5.2), so only touched nodes are stored. Used by the in-memory world state.
 * @module
 */
import { defaultHasher, type Hasher } from '../crypto/poseidon2.ts';

const zeroLadders = new Map<number, bigint[]>();

/** zero[i] = root of an empty subtree of height i. */
export function zeroHashes(height: number, hasher: Hasher = defaultHasher): bigint[] {
  const cached = zeroLadders.get(height);
  if (cached !== undefined) return cached;
  const z = [0n];
  for (let i = 0; i < height; i++) z.push(hasher.hashPair(z[i]!, z[i]!));
  zeroLadders.set(height, z);
  return z;
}

/** A fixed-height binary Merkle tree with sparse node storage. */
export class SparseMerkleTree {
  readonly height: number;
  #levels: Map<number, bigint>[];
  #zero: bigint[];
  #hasher: Hasher;
  #size = 0;

  constructor(height: number, hasher: Hasher = defaultHasher) {
    this.height = height;
    this.#hasher = hasher;
    this.#zero = zeroHashes(height, hasher);
    this.#levels = Array.from({ length: height + 1 }, () => new Map<number, bigint>());
  }

  /** Next free leaf index (one past the highest leaf ever set). */
  get size(): number {
    return this.#size;
  }

  get root(): bigint {
    return this.#node(this.height, 0);
  }

  /** The leaf at `index` (0 when empty). */
  leaf(index: number): bigint {
    return this.#node(0, index);
  }

  /** Sets many leaves, then rehashes each touched path once. */
  setLeaves(entries: readonly (readonly [number, bigint])[]): void {
    let dirty = new Set<number>();
    for (const [i, v] of entries) {
      this.#levels[0]!.set(i, v);
      dirty.add(i);
      if (i + 1 > this.#size) this.#size = i + 1;
    }
    for (let level = 0; level < this.height; level++) {
      const next = new Set<number>();
      for (const i of dirty) next.add(Math.floor(i / 2));
      for (const p of next) {
        const l = this.#node(level, 2 * p);
        const r = this.#node(level, 2 * p + 1);
        const z = this.#zero[level]!;
        const h = l === z && r === z ? this.#zero[level + 1]! : this.#hasher.hashPair(l, r);
        this.#levels[level + 1]!.set(p, h);
      }
      dirty = next;
    }
  }

  /** Appends leaves at the end; returns the first index used. */
  append(values: readonly bigint[]): number {
    const start = this.#size;
    this.setLeaves(values.map((v, k) => [start + k, v] as const));
    if (values.length > 0) this.#size = start + values.length;
    return start;
  }

  /** Sibling path of leaf `index`, bottom up. */
  siblingPath(index: number): bigint[] {
    const path: bigint[] = [];
    let i = index;
    for (let level = 0; level < this.height; level++) {
      // Indices reach 2^42, beyond 32-bit bit operators.
      path.push(this.#node(level, i % 2 === 0 ? i + 1 : i - 1));
      i = Math.floor(i / 2);
    }
    return path;
  }

  #node(level: number, index: number): bigint {
    return this.#levels[level]!.get(index) ?? this.#zero[level]!;
  }
}
