/**
 * Grumpkin curve arithmetic (y² = x³ − 17 over the BN254 scalar field), just enough for contract
 * address derivation: affine addition and scalar multiplication by the fixed generator.
 * @module
 */
import { FIELD_MODULUS } from '../crypto/field.ts';

const P = FIELD_MODULUS;

/** An affine Grumpkin point; `isInfinite` marks the identity. */
export interface GrumpkinPoint {
  readonly x: bigint;
  readonly y: bigint;
  readonly isInfinite: boolean;
}

/** The identity point (serialised as x = y = 0, isInfinite = true). */
export const GRUMPKIN_INFINITY: GrumpkinPoint = { x: 0n, y: 0n, isInfinite: true };

/** The Grumpkin generator used by Aztec (barretenberg `grumpkin::g1::one`). */
export const GRUMPKIN_GENERATOR: GrumpkinPoint = {
  x: 1n,
  y: 17631683881184975370165255887551781615748388533673675138860n,
  isInfinite: false,
};

function mod(x: bigint): bigint {
  const r = x % P;
  return r < 0n ? r + P : r;
}

/** Returns a⁻¹ mod p (p prime); throws on zero. */
export function invertMod(a: bigint, p: bigint = P): bigint {
  let r0 = ((a % p) + p) % p;
  if (r0 === 0n) throw new RangeError('zero has no inverse');
  let r1 = p,
    s0 = 1n,
    s1 = 0n;
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return ((s0 % p) + p) % p;
}

/** Returns a + b on Grumpkin. */
export function grumpkinAdd(a: GrumpkinPoint, b: GrumpkinPoint): GrumpkinPoint {
  if (a.isInfinite) return b;
  if (b.isInfinite) return a;
  let lambda: bigint;
  if (a.x === b.x) {
    if (mod(a.y + b.y) === 0n) return GRUMPKIN_INFINITY;
    lambda = mod(3n * a.x * a.x * invertMod(2n * a.y));
  } else {
    lambda = mod((b.y - a.y) * invertMod(b.x - a.x));
  }
  const x = mod(lambda * lambda - a.x - b.x);
  const y = mod(lambda * (a.x - x) - a.y);
  return { x, y, isInfinite: false };
}

/** Returns scalar · point by double-and-add (not constant time: only public values go in). */
export function grumpkinMul(point: GrumpkinPoint, scalar: bigint): GrumpkinPoint {
  let acc = GRUMPKIN_INFINITY;
  let addend = point;
  for (let k = scalar; k > 0n; k >>= 1n) {
    if (k & 1n) acc = grumpkinAdd(acc, addend);
    addend = grumpkinAdd(addend, addend);
  }
  return acc;
}

/** True when the point satisfies y² = x³ − 17 (or is the identity). */
export function isOnGrumpkin(p: GrumpkinPoint): boolean {
  return p.isInfinite || mod(p.y * p.y) === mod(p.x * p.x * p.x - 17n);
}

/** Parses Aztec's wire `Point` (0x + 128 hex: x ‖ y; all-zero is the identity). */
export function parseGrumpkinPoint(hex: string): GrumpkinPoint {
  if (!/^0x[0-9a-fA-F]{128}$/.test(hex)) throw new RangeError(`not a point (0x + 128 hex): ${hex}`);
  const x = BigInt('0x' + hex.slice(2, 66));
  const y = BigInt('0x' + hex.slice(66));
  if (x === 0n && y === 0n) return GRUMPKIN_INFINITY;
  return { x, y, isInfinite: false };
}
