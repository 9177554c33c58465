/**
 * Poseidon2 over BN254 as Barretenberg/Aztec use it, in plain BigInt: permutation width t = 4 (x^5
 * S-box, 8 full and 56 partial rounds), sponge with rate 3 and IV = len·2^64, and the `Hasher` seam
 * through which trees hash. The oracle the WebAssembly kernel is tested against, and the hash of
 * the client package's tx builder (`@l2node/client/tx`), which must run where no WebAssembly file
 * can be read. No imports beyond field constants, so it runs in any JavaScript runtime.
 * @module
 */
import { FIELD_MODULUS } from './field.ts';
import { FULL_ROUND_CONSTANTS, INTERNAL_DIAG_M1, PARTIAL_ROUND_CONSTANTS } from './poseidon2-constants.ts';

const P = FIELD_MODULUS;
const [D0, D1, D2, D3] = INTERNAL_DIAG_M1 as [bigint, bigint, bigint, bigint];
const TWO_POW_64 = 1n << 64n;

/** x^5 mod p. */
function sbox(x: bigint): bigint {
  const x2 = (x * x) % P;
  const x4 = (x2 * x2) % P;
  return (x4 * x) % P;
}

/**
 * Permutes [a, b, c, d] in place (values in [0, p)). Kept as scalar locals rather than arrays:
 * external-matrix sums stay unreduced (they are small multiples of p) and are folded into the
 * next multiplication's reduction.
 */
function permute4(s: bigint[]): void {
  let a = s[0]!,
    b = s[1]!,
    c = s[2]!,
    d = s[3]!;
  let t0: bigint, t1: bigint, t2: bigint, t3: bigint, t4: bigint, t5: bigint;
  // Round -1 is the initial external linear layer alone; the 56 partial rounds sit before full round 4.
  for (let r = -1; r < 8; r++) {
    if (r === 4) {
      // 56 partial rounds: S-box on state[0] only, then the internal matrix 1 + diag(D).
      for (let i = 0; i < 56; i++) {
        a = sbox((a + PARTIAL_ROUND_CONSTANTS[i]!) % P);
        const sum = a + b + c + d;
        a = (a * D0 + sum) % P;
        b = (b * D1 + sum) % P;
        c = (c * D2 + sum) % P;
        d = (d * D3 + sum) % P;
      }
    }
    if (r >= 0) {
      const rc = FULL_ROUND_CONSTANTS[r]!;
      a = sbox((a + rc[0]!) % P);
      b = sbox((b + rc[1]!) % P);
      c = sbox((c + rc[2]!) % P);
      d = sbox((d + rc[3]!) % P);
    }
    // External linear layer (Barretenberg's 4x4 MDS "M4").
    t0 = a + b;
    t1 = c + d;
    t2 = b + b + t1;
    t3 = d + d + t0;
    t4 = 4n * t1 + t3;
    t5 = 4n * t0 + t2;
    a = (t3 + t5) % P;
    b = t5 % P;
    c = (t2 + t4) % P;
    d = t4 % P;
  }
  s[0] = a;
  s[1] = b;
  s[2] = c;
  s[3] = d;
}

/** The Poseidon2 permutation on a 4-element state; returns a new array (BigInt reference). */
export function poseidon2PermutationReference(state: readonly bigint[]): bigint[] {
  if (state.length !== 4) throw new RangeError('Poseidon2 state must have 4 elements');
  const s = state.map((x) => ((x % P) + P) % P);
  permute4(s);
  return s;
}

/** Sponge hash of any number of field elements (Aztec's poseidon2Hash; BigInt reference). */
export function poseidon2HashReference(inputs: readonly bigint[]): bigint {
  const n = inputs.length;
  const s: bigint[] = [0n, 0n, 0n, BigInt(n) * TWO_POW_64];
  // Absorb full chunks of 3; the last (partial, possibly empty) chunk is absorbed at squeeze time,
  // so exactly ceil(n/3) permutations run (one for n = 0).
  let i = 0;
  do {
    for (let j = 0; j < 3; j++) {
      const x = i + j < n ? inputs[i + j]! : 0n;
      s[j] = (s[j]! + x) % P;
    }
    permute4(s);
    i += 3;
  } while (i < n);
  return s[0]!;
}

/** poseidon2Hash([separator, ...inputs]) — Aztec's domain-separated hash (BigInt reference). */
export function poseidon2HashWithSeparatorReference(inputs: readonly bigint[], separator: number | bigint): bigint {
  return poseidon2HashReference([BigInt(separator), ...inputs]);
}

/** The hashing seam used by the Merkle trees; implementations must agree with poseidon2Hash. */
export interface Hasher {
  /** poseidon2Hash([left, right]). */
  hashPair(left: bigint, right: bigint): bigint;
  /** poseidon2Hash(inputs). */
  hash(inputs: readonly bigint[]): bigint;
  /** hashPair for each [left, right] in the batch, in order (a batched kernel can vectorise this). */
  hashPairs(batch: readonly (readonly [bigint, bigint])[]): bigint[];
  /** hashPairs off the main thread where it pays (crypto/poseidon2-pool.ts); the Merkle update path awaits it when present. */
  hashPairsAsync?(batch: readonly (readonly [bigint, bigint])[]): Promise<bigint[]>;
}

const PAIR_IV = 2n * TWO_POW_64;

/** Pure-BigInt Hasher, the reference. */
export class BigIntPoseidon2Hasher implements Hasher {
  hashPair(left: bigint, right: bigint): bigint {
    const s = [left, right, 0n, PAIR_IV];
    permute4(s);
    return s[0]!;
  }
  hash(inputs: readonly bigint[]): bigint {
    return poseidon2HashReference(inputs);
  }
  hashPairs(batch: readonly (readonly [bigint, bigint])[]): bigint[] {
    return batch.map(([l, r]) => this.hashPair(l, r));
  }
}
