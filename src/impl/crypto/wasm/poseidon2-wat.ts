/**
 * Generates the WebAssembly text (WAT) of the Poseidon2 kernel: BN254 Fr in Montgomery form with
 * nine 29-bit limbs held in i64 words, the t = 4 permutation, the sponge and a pair batch, in two
 * variants. `build.ts` assembles each with wabt (`poseidon2.wasm`, `poseidon2-scalar.wasm`); the
 * text is a pure function of the round constants, so a rebuild is byte-identical.
 *
 * Why 29-bit limbs: WebAssembly has no 64×64→128 multiply, so products are 29×29 = 58 bits and up
 * to 18 of them accumulate in an i64 column without a carry (18·2^58 < 2^63). Carries are then
 * propagated once per multiplication instead of once per product.
 *
 * Why two lanes (the SIMD variant): `i64x2.extmul_low_i32x4_u` forms two 29×29-bit products in one
 * instruction, so independent Montgomery products run in the two lanes of an i64x2: the 4 S-boxes of
 * a full round as 2 pairs, the 4 diagonal products of a partial round as 2 pairs. The partial
 * round's S-box is one dependent chain and stays scalar. Elements are stored in pairs limb by limb
 * (see LS) in both variants, so the two share every scalar function and the JS side. Each lane does
 * exactly the scalar arithmetic (same columns, same carries), so the bounds below hold per lane.
 *
 * Why lazy reduction: R = 2^261 is 2^7 times larger than p, so Montgomery products of inputs below
 * ~60p stay below a few p without a final subtraction. Values are canonicalised only on output.
 * Bounds (with mont(a, b) < ab/R + p and p/R < 2^-7), all values stay below 2^261:
 * - inputs enter below 2^256 < 5.3p (to_mont reduces them: mont(x, R^2 mod p) < 5.3p·p/R + p < 1.05p);
 * - full round: state < 25p, + rc < 26p, x^2 < 6.3p, x^4 < 1.4p, x^5 < 1.3p, after M4 < 21p;
 * - partial round: sum of the state < 64p, `red` brings it below 3p, D·s + red(sum) + rc < 5.2p
 *   (the two-lane product adds red(sum) and the next round constant as its addend: the same value);
 * - after the first M4 and at the end of the permutation `red` brings every element below 3p, so a
 *   sponge absorption (state + input < 4.1p) keeps the first round's bounds.
 * @module
 */
import { FIELD_MODULUS } from '../field.ts';
import { FULL_ROUND_CONSTANTS, INTERNAL_DIAG_M1, PARTIAL_ROUND_CONSTANTS } from '../poseidon2-constants.ts';

const P = FIELD_MODULUS;
/** Limb width in bits and limb count (9 × 29 = 261 bits). */
export const LIMB_BITS = 29;
export const LIMBS = 9;
const MASK = (1n << 29n) - 1n;
const R = 1n << 261n;
/**
 * Limb stride in bytes. Elements are stored in pairs, limb by limb: limb j of the pair at address a
 * is the i64x2 at a + 16j, the first element in lane 0 (address a) and its mate in lane 1 (a + 8). A
 * scalar function sees one element at a or a + 8 with its limbs 16 bytes apart; a two-lane function
 * works on both at once.
 */
const LS = 16;
/** Bytes of one pair of elements in limb form (9 × i64x2). */
const EL = LIMBS * LS;

/** Round-constant blocks (Montgomery form, pair layout): a full round's 4 constants are 2 pairs. */
const RC_FULL1 = 1296;
/** Partial round r's constant, for S0 only: the pair [rc, 0]. */
const RC_PARTIAL = RC_FULL1 + 4 * 2 * EL;
const RC_FULL2 = RC_PARTIAL + 56 * EL;

/** Memory layout (byte offsets); the JS side reads IO_BASE from the module's `io_base` global. */
export const LAYOUT = {
  /** The state: S0, S1 share the pair at 0, S2, S3 the pair at EL. */
  S: [0, 8, EL, EL + 8],
  TA: 2 * EL,
  TB: 3 * EL,
  /** The partial round's reduced sum, in both lanes. */
  SUM: 4 * EL,
  T2: 5 * EL,
  T: 6 * EL,
  /** Two zero pairs: "no round constant". */
  ZERO: 7 * EL,
  R2: RC_FULL2 + 4 * 2 * EL,
  IV2: RC_FULL2 + 4 * 2 * EL + EL,
  IO_BASE: 12288,
} as const;

/** Options of the generated module. */
export interface KernelOptions {
  /**
   * Two-lane products with WebAssembly SIMD (`i64x2.extmul_low_i32x4_u`): the 4 S-boxes of a full
   * round run as 2 two-lane S-boxes, the 4 diagonal products of a partial round as 2 two-lane
   * products. Without it every product is scalar (the fallback for engines without SIMD).
   */
  simd: boolean;
}

function mod(x: bigint): bigint {
  const r = x % P;
  return r < 0n ? r + P : r;
}

function toLimbs(x: bigint): bigint[] {
  const out: bigint[] = [];
  for (let i = 0; i < LIMBS; i++) out.push((x >> BigInt(LIMB_BITS * i)) & MASK);
  return out;
}

function modInverse(a: bigint, m: bigint): bigint {
  let [r0, r1, s0, s1] = [a % m, m, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  return ((s0 % m) + m) % m;
}

const toMont = (x: bigint): bigint => mod(x * R);
const PL = toLimbs(P);
/** -p^-1 mod 2^29. */
const MU = (1n << 29n) - modInverse(P % (1n << 29n), 1n << 29n);
/** floor(2^280 / p): the top limb (bits 232..260) times this, >> 48, under-estimates x / p by < 2. */
const RED_M = (1n << 280n) / P;

// ---- small emit helpers (folded S-expressions) ----
const c64 = (x: bigint | number): string => `(i64.const ${x})`;
const get = (n: string): string => `(local.get $${n})`;
const set = (n: string, e: string): string => `(local.set $${n} ${e})`;
const load = (ptr: string, off: number): string => `(i64.load offset=${off} ${get(ptr)})`;
const store = (ptr: string, off: number, e: string): string => `(i64.store offset=${off} ${get(ptr)} ${e})`;
const add = (a: string, b: string): string => `(i64.add ${a} ${b})`;
const mul = (a: string, b: string): string => `(i64.mul ${a} ${b})`;
const locals = (names: string[]): string => names.map((n) => `(local $${n} i64)`).join(' ');
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const T = range(LIMBS).map((j) => `t${j}`);

/** Sums expressions as a balanced tree, so that the adds of one column can run in parallel. */
function balancedSum(xs: string[], plus: (a: string, b: string) => string, zero: string): string {
  if (xs.length === 0) return zero;
  while (xs.length > 1) {
    const next: string[] = [];
    for (let i = 0; i + 1 < xs.length; i += 2) next.push(plus(xs[i]!, xs[i + 1]!));
    if (xs.length % 2) next.push(xs[xs.length - 1]!);
    xs = next;
  }
  return xs[0]!;
}
const sumTree = (xs: string[]): string => balancedSum(xs, add, c64(0));

/** The instructions montPS emits, for one i64 lane (scalar) or two (i64x2, see SIMD_OPS). */
interface LaneOps {
  add(a: string, b: string): string;
  zero: string;
  /** Product of two operand limbs (SIMD: packed, see `pack`). */
  mul(a: string, b: string): string;
  shl(a: string, bits: number): string;
  shrU(a: string, bits: number): string;
  /** m = c·(2^28 - 1) mod 2^29, as ((c << 28) - c) & MASK. */
  mOf(c: string): string;
  /** The low 29 bits. */
  mask(a: string): string;
  /** m_i·p_j for an immediate p_j (p_0 is handled by the caller). */
  mulPConst(i: number, j: number): string;
  /** Statements after m_k is set (SIMD: pack it once for its products with p). */
  afterM(k: number): string[];
  store(o: string, off: number, e: string): string;
}

const SCALAR_OPS: LaneOps = {
  add,
  zero: c64(0),
  mul,
  shl: (a, bits) => `(i64.shl ${a} ${c64(bits)})`,
  shrU: (a, bits) => `(i64.shr_u ${a} ${c64(bits)})`,
  mOf: (c) => `(i64.and (i64.sub (i64.shl ${c} ${c64(28)}) ${c}) ${c64(MASK)})`,
  mask: (a) => `(i64.and ${a} ${c64(MASK)})`,
  mulPConst: (i, j) => mul(get(`m${i}`), c64(PL[j]!)),
  afterM: () => [],
  store,
};

/**
 * Montgomery multiplication by product scanning (one column at a time, one running accumulator):
 * column k sums a_i·b_j (i + j = k), m_i·p_j (i < k) and the carry, at most 18 products of 58 bits,
 * so it never overflows. m_k = -acc·p^-1 mod 2^29 = acc·(2^28 - 1) mod 2^29 (p ≡ 2^28 + 1 mod 2^29),
 * and m_k·p_0 is a shift and an add. `b(j)` may be `0`/`1` for constant operands; `square` uses
 * a_i·a_j = a_j·a_i (45 products, not 81). `addend(j)`, when given, adds a normalised value into
 * output column j for free (o = a·b/R + s). Stores 9 normalised limbs at o. `ops` chooses one lane
 * (i64) or two (i64x2): the columns, carries and bounds are the same.
 */
function montPS(
  ops: LaneOps,
  a: (i: number) => string,
  b: ((j: number) => string | 0 | 1) | 'square',
  o: string,
  addend?: (j: number) => string,
): string[] {
  const out: string[] = [];
  const M = range(LIMBS).map((i) => `m${i}`);
  const sum = (xs: string[]): string => balancedSum(xs, ops.add, ops.zero);
  const mulP = (i: number, j: number): string =>
    PL[j] === (1n << 28n) + 1n ? ops.add(ops.shl(get(M[i]!), 28), get(M[i]!)) : ops.mulPConst(i, j);
  for (let k = 0; k < 2 * LIMBS - 1; k++) {
    const ab: string[] = [];
    if (b === 'square') {
      const cross: string[] = [];
      for (let i = Math.max(0, k - LIMBS + 1); 2 * i < k; i++) cross.push(ops.mul(a(i), a(k - i)));
      if (cross.length) ab.push(ops.shl(sum(cross), 1));
      if (k % 2 === 0) ab.push(ops.mul(a(k / 2), a(k / 2)));
    } else {
      for (let i = Math.max(0, k - LIMBS + 1); i <= Math.min(k, LIMBS - 1); i++) {
        const bj = b(k - i);
        if (bj === 0) continue;
        ab.push(bj === 1 ? a(i) : ops.mul(a(i), bj));
      }
    }
    const mp: string[] = [];
    for (let i = Math.max(0, k - LIMBS + 1); i < Math.min(k, LIMBS); i++) mp.push(mulP(i, k - i));
    const terms = [sum(ab), sum(mp)];
    if (k > 0) terms.push(get('c'));
    if (addend && k >= LIMBS) terms.push(addend(k - LIMBS));
    out.push(set('c', sum(terms)));
    if (k < LIMBS) {
      out.push(set(M[k]!, ops.mOf(get('c'))));
      out.push(...ops.afterM(k));
      out.push(set('c', ops.shrU(ops.add(get('c'), mulP(k, 0)), LIMB_BITS)));
    } else {
      out.push(ops.store(o, (k - LIMBS) * LS, ops.mask(get('c'))));
      out.push(set('c', ops.shrU(get('c'), LIMB_BITS)));
    }
  }
  out.push(ops.store(o, (LIMBS - 1) * LS, addend ? ops.add(get('c'), addend(LIMBS - 1)) : get('c')));
  return out;
}

const PS_LOCALS = locals([
  ...range(LIMBS).map((i) => `m${i}`),
  ...range(LIMBS).map((i) => `x${i}`),
  ...range(LIMBS).map((i) => `y${i}`),
  'c',
]);
const PS_LOAD_TO_LOCALS = true;
const loadA =
  (ptr: string, name: string) =>
  (i: number): string =>
    PS_LOAD_TO_LOCALS ? get(`${name}${i}`) : load(ptr, i * LS);
const preload = (ptr: string, name: string): string[] =>
  PS_LOAD_TO_LOCALS ? range(LIMBS).map((i) => set(`${name}${i}`, load(ptr, i * LS))) : [];

/** $mul(o, a, b) by product scanning. */
function funcMulPS(): string {
  const body = [
    ...preload('a', 'x'),
    ...preload('b', 'y'),
    ...montPS(SCALAR_OPS, loadA('a', 'x'), loadA('b', 'y'), 'o'),
  ];
  return `(func $mul (param $o i32) (param $a i32) (param $b i32) ${PS_LOCALS}\n  ${body.join('\n  ')})`;
}

/** $sqr(o, a): o = a²·R^-1. */
function funcSqrPS(): string {
  const body = [...preload('a', 'x'), ...montPS(SCALAR_OPS, loadA('a', 'x'), 'square', 'o')];
  return `(func $sqr (param $o i32) (param $a i32) ${PS_LOCALS}\n  ${body.join('\n  ')})`;
}

/**
 * $mulc_<name>(o, a[, s]) by product scanning, with the limbs of c as immediates; with `withAddend`
 * it computes a·c/R + s (the partial round's D·x + sum in one pass).
 */
function funcMulConstPS(name: string, c: bigint, withAddend = false): string {
  const cl = toLimbs(c);
  const body = [
    ...preload('a', 'x'),
    ...montPS(
      SCALAR_OPS,
      loadA('a', 'x'),
      (j) => (cl[j] === 0n ? 0 : cl[j] === 1n ? 1 : c64(cl[j]!)),
      'o',
      withAddend ? (j) => load('s', j * LS) : undefined,
    ),
  ];
  return `(func $mulc_${name} (param $o i32) (param $a i32) ${withAddend ? '(param $s i32) ' : ''}${PS_LOCALS}\n  ${body.join('\n  ')})`;
}

/**
 * Propagates carries through t0..t7 (signed shifts: limbs may be negative after a subtraction) and
 * stores 9 limbs at o; the top limb is t8 + carry when `withTop`, else just the carry (after a
 * Montgomery product t8 is empty). With `bothLanes` the limbs go to both lanes of the pair at o.
 */
function normalizeStore(o: string, withTop = false, bothLanes = false): string[] {
  const out: string[] = [];
  const put = (off: number, e: string): void => {
    if (!bothLanes) return void out.push(store(o, off, e));
    out.push(set('m', e), store(o, off, get('m')), store(o, off + 8, get('m')));
  };
  for (let j = 0; j < LIMBS - 1; j++) {
    out.push(set('c', `(i64.shr_s ${get(T[j]!)} ${c64(LIMB_BITS)})`));
    put(j * LS, `(i64.and ${get(T[j]!)} ${c64(MASK)})`);
    if (j + 1 < LIMBS - 1) out.push(set(T[j + 1]!, add(get(T[j + 1]!), get('c'))));
  }
  put((LIMBS - 1) * LS, withTop ? add(get(T[LIMBS - 1]!), get('c')) : get('c'));
  return out;
}

const MONT_LOCALS = locals([...T, 'm', 'c']);

/** $addn(o, a, b): o = a + b, normalised (no reduction). */
function funcAdd(): string {
  const body = [
    ...range(LIMBS).map((j) => set(T[j]!, add(load('a', j * LS), load('b', j * LS)))),
    ...normalizeStore('o', true),
  ];
  return `(func $addn (param $o i32) (param $a i32) (param $b i32) ${MONT_LOCALS}\n  ${body.join('\n  ')})`;
}

/** Subtracts q·p from t0..t8 (normalised, < 2^261), q a slight under-estimate of t / p: leaves < 3p. */
function reduceTStore(o: string, bothLanes = false): string[] {
  return [
    set('m', `(i64.shr_u ${mul(get(T[LIMBS - 1]!), c64(RED_M))} ${c64(48)})`),
    ...range(LIMBS).map((j) => set(T[j]!, `(i64.sub ${get(T[j]!)} ${mul(get('m'), c64(PL[j]!))})`)),
    ...normalizeStore(o, true, bothLanes),
  ];
}

/** Normalises t0..t8 in place (carry propagation, top limb keeps the rest). */
function normalizeT(): string[] {
  const out: string[] = [];
  for (let j = 0; j + 1 < LIMBS; j++) {
    out.push(set('c', `(i64.shr_s ${get(T[j]!)} ${c64(LIMB_BITS)})`));
    out.push(set(T[j]!, `(i64.and ${get(T[j]!)} ${c64(MASK)})`));
    out.push(set(T[j + 1]!, add(get(T[j + 1]!), get('c'))));
  }
  return out;
}

/** $red(o): o < 2^261 reduced below 3p. */
function funcRed(): string {
  const body = [...range(LIMBS).map((j) => set(T[j]!, load('o', j * LS))), ...reduceTStore('o')];
  return `(func $red (param $o i32) ${MONT_LOCALS}\n  ${body.join('\n  ')})`;
}

/** $sum_red(o): both lanes of the pair at o = S0 + S1 + S2 + S3 reduced below 3p (the partial round's shared sum). */
function funcSumRed(): string {
  const body = [
    ...range(LIMBS).map((j) =>
      set(T[j]!, sumTree(LAYOUT.S.map((s) => `(i64.load offset=${s + j * LS} (i32.const 0))`))),
    ),
    ...normalizeT(),
    ...reduceTStore('o', true),
  ];
  return `(func $sum_red (param $o i32) ${MONT_LOCALS}\n  ${body.join('\n  ')})`;
}

/** $sbox(o): o = o^5. */
function funcSbox(): string {
  const t = LAYOUT.TA;
  return `(func $sbox (param $o i32)
  (call $sqr (i32.const ${t}) (local.get $o))
  (call $sqr (i32.const ${t}) (i32.const ${t}))
  (call $mul (local.get $o) (i32.const ${t}) (local.get $o)))`;
}

/** $m4(rc): the external matrix on S0..S3 limb by limb, plus the 4 round constants at rc, normalised. */
function funcM4(): string {
  const [s0, s1, s2, s3] = LAYOUT.S;
  const body: string[] = [];
  const p = (n: string): string => `(local.get $${n})`;
  for (let j = 0; j < LIMBS; j++) {
    const o = j * LS;
    body.push(set('a', `(i64.load offset=${s0! + o} (i32.const 0))`));
    body.push(set('b', `(i64.load offset=${s1! + o} (i32.const 0))`));
    body.push(set('c', `(i64.load offset=${s2! + o} (i32.const 0))`));
    body.push(set('d', `(i64.load offset=${s3! + o} (i32.const 0))`));
    // Barretenberg's M4: t0=a+b, t1=c+d, t2=2b+t1, t3=2d+t0, t4=4t1+t3, t5=4t0+t2.
    body.push(set('x0', add(p('a'), p('b'))));
    body.push(set('x1', add(p('c'), p('d'))));
    body.push(set('x2', add(add(p('b'), p('b')), p('x1'))));
    body.push(set('x3', add(add(p('d'), p('d')), p('x0'))));
    body.push(set('x4', add(`(i64.shl ${p('x1')} ${c64(2)})`, p('x3'))));
    body.push(set('x5', add(`(i64.shl ${p('x0')} ${c64(2)})`, p('x2'))));
    const rc = (k: number): string => `(i64.load offset=${LAYOUT.S[k]! + o} (local.get $rc))`;
    body.push(`(i64.store offset=${s0! + o} (i32.const 0) ${add(add(p('x3'), p('x5')), rc(0))})`);
    body.push(`(i64.store offset=${s1! + o} (i32.const 0) ${add(p('x5'), rc(1))})`);
    body.push(`(i64.store offset=${s2! + o} (i32.const 0) ${add(add(p('x2'), p('x4')), rc(2))})`);
    body.push(`(i64.store offset=${s3! + o} (i32.const 0) ${add(p('x4'), rc(3))})`);
  }
  for (const s of LAYOUT.S) body.push(`(call $norm (i32.const ${s}))`);
  return `(func $m4 (param $rc i32) ${locals(['a', 'b', 'c', 'd', 'x0', 'x1', 'x2', 'x3', 'x4', 'x5'])}\n  ${body.join('\n  ')})`;
}

/** $norm(o): carry propagation in place. */
function funcNorm(): string {
  const body = [...range(LIMBS).map((j) => set(T[j]!, load('o', j * LS))), ...normalizeStore('o', true)];
  return `(func $norm (param $o i32) ${MONT_LOCALS}\n  ${body.join('\n  ')})`;
}

/**
 * $permute: the permutation on S0..S3 (Montgomery form, each < 4.1p), leaving each < 3p. Each round
 * constant is added by the linear layer before it (M4 or the partial round's D·x + sum), so no
 * separate addition pass runs. With SIMD the full round's S-boxes run on the pairs (S0, S1) and
 * (S2, S3), and the partial round's diagonal products likewise; the partial round's own S-box is
 * one dependent chain and stays scalar.
 */
function funcPermute(simd: boolean): string {
  const S = LAYOUT.S;
  const [P01, P23] = [S[0], S[2]];
  const Z = LAYOUT.ZERO;
  const sboxes = simd
    ? `(call $sbox2 (i32.const ${P01}) (i32.const ${LAYOUT.TA})) (call $sbox2 (i32.const ${P23}) (i32.const ${LAYOUT.TB}))`
    : S.map((s) => `(call $sbox (i32.const ${s}))`).join(' ');
  const reds = S.map((s) => `(call $red (i32.const ${s}))`).join(' ');
  const lines: string[] = [`(call $m4 (i32.const ${RC_FULL1})) ${reds}`];
  for (let r = 0; r < 4; r++) lines.push(`${sboxes} (call $m4 (i32.const ${r < 3 ? RC_FULL1 + (r + 1) * 2 * EL : Z}))`);
  lines.push(`(call $addn (i32.const ${S[0]}) (i32.const ${S[0]}) (i32.const ${RC_PARTIAL}))`);
  // Partial round i adds the next constant for S0: partial i+1's, or, after the last, full round 4's
  // (RC_FULL2 follows RC_PARTIAL); the two-lane product adds that pair [rc0, rc1] to (S0, S1), so
  // after the loop only the constants the products did not add remain.
  const diagonal = simd
    ? `(call $mulc2_d01 (i32.const ${P01}) (i32.const ${LAYOUT.SUM}) (local.get $r))
    (call $mulc2_d23 (i32.const ${P23}) (i32.const ${LAYOUT.SUM}) (i32.const ${Z}))`
    : `(call $addn (i32.const ${LAYOUT.TB}) (i32.const ${LAYOUT.SUM}) (local.get $r))
    (call $mulc_d0 (i32.const ${S[0]}) (i32.const ${S[0]}) (i32.const ${LAYOUT.TB}))
    ${[1, 2, 3].map((k) => `(call $mulc_d${k} (i32.const ${S[k]}) (i32.const ${S[k]}) (i32.const ${LAYOUT.SUM}))`).join(' ')}`;
  lines.push(`(local.set $r (i32.const ${RC_PARTIAL + EL}))
  (loop $pr
    (call $sbox (i32.const ${S[0]}))
    (call $sum_red (i32.const ${LAYOUT.SUM}))
    ${diagonal}
    (local.set $r (i32.add (local.get $r) (i32.const ${EL})))
    (br_if $pr (i32.le_u (local.get $r) (i32.const ${RC_FULL2}))))`);
  lines.push(
    (simd ? [2, 3] : [1, 2, 3])
      .map((k) => `(call $addn (i32.const ${S[k]}) (i32.const ${S[k]}) (i32.const ${RC_FULL2 + S[k]!}))`)
      .join(' '),
  );
  for (let r = 0; r < 4; r++) lines.push(`${sboxes} (call $m4 (i32.const ${r < 3 ? RC_FULL2 + (r + 1) * 2 * EL : Z}))`);
  lines.push(reds);
  return `(func $permute (local $r i32)\n  ${lines.join('\n  ')})`;
}

// ---- two-lane products (WebAssembly SIMD): lanes 0 and 1 are independent Montgomery products ----
//
// A pair's limb j is the i64x2 [x_j, y_j] (each < 2^29 after normalisation). `i64x2.extmul_low_i32x4_u`
// multiplies the i32 lanes 0 and 1 of its operands into two 64-bit products, so each operand limb is
// first packed to the i32x4 [x_j, y_j, x_j, y_j] (one shuffle per limb, reused by all 9 products it
// takes part in). The accumulators are i64x2 and follow montPS column by column, so both lanes keep
// exactly the scalar bounds (at most 18 products of 58 bits per column).

const vadd = (a: string, b: string): string => `(i64x2.add ${a} ${b})`;
const vc64 = (x: bigint | number): string => `(v128.const i64x2 ${x} ${x})`;
const vload = (ptr: string, off: number): string => `(v128.load offset=${off} ${get(ptr)})`;
const vstore = (ptr: string, off: number, e: string): string => `(v128.store offset=${off} ${get(ptr)} ${e})`;
const vmul = (x: string, y: string): string => `(i64x2.extmul_low_i32x4_u ${x} ${y})`;
const vlocals = (names: string[]): string => names.map((n) => `(local $${n} v128)`).join(' ');
/** i64x2 [x, y] (each < 2^32) to the i32x4 [x, y, x, y] extmul_low reads. */
const pack = (e: string): string => `(i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 ${e} ${e})`;

/** Two lanes: products by extmul on packed operands, m_k packed once for its 8 products with p. */
const SIMD_OPS: LaneOps = {
  add: vadd,
  zero: vc64(0),
  mul: vmul,
  shl: (a, bits) => `(i64x2.shl ${a} (i32.const ${bits}))`,
  shrU: (a, bits) => `(i64x2.shr_u ${a} (i32.const ${bits}))`,
  mOf: (c) => `(v128.and (i64x2.sub (i64x2.shl ${c} (i32.const 28)) ${c}) ${vc64(MASK)})`,
  mask: (a) => `(v128.and ${a} ${vc64(MASK)})`,
  mulPConst: (i, j) => vmul(get(`mp${i}`), `(v128.const i32x4 ${PL[j]} ${PL[j]} ${PL[j]} ${PL[j]})`),
  afterM: (k) => [set(`mp${k}`, pack(get(`m${k}`)))],
  store: vstore,
};

const PS2_LOCALS = vlocals([
  ...range(LIMBS).map((i) => `m${i}`),
  ...range(LIMBS).map((i) => `mp${i}`),
  ...range(LIMBS).map((i) => `x${i}`),
  ...range(LIMBS).map((i) => `y${i}`),
  'c',
]);
const preloadPacked = (ptr: string, name: string): string[] =>
  range(LIMBS).map((i) => set(`${name}${i}`, pack(vload(ptr, i * LS))));

/** $mul2(o, a, b): both lanes of the pair at o = a·b·R^-1, lane by lane. */
function funcMul2(): string {
  const body = [
    ...preloadPacked('a', 'x'),
    ...preloadPacked('b', 'y'),
    ...montPS(
      SIMD_OPS,
      (i) => get(`x${i}`),
      (j) => get(`y${j}`),
      'o',
    ),
  ];
  return `(func $mul2 (param $o i32) (param $a i32) (param $b i32) ${PS2_LOCALS}\n  ${body.join('\n  ')})`;
}

/** $sqr2(o, a): both lanes of o = a²·R^-1. */
function funcSqr2(): string {
  const body = [...preloadPacked('a', 'x'), ...montPS(SIMD_OPS, (i) => get(`x${i}`), 'square', 'o')];
  return `(func $sqr2 (param $o i32) (param $a i32) ${PS2_LOCALS}\n  ${body.join('\n  ')})`;
}

/** $sbox2(o, t): both lanes of the pair at o to the fifth power (t: a pair of scratch). */
function funcSbox2(): string {
  return `(func $sbox2 (param $o i32) (param $t i32)
  (call $sqr2 (local.get $t) (local.get $o))
  (call $sqr2 (local.get $t) (local.get $t))
  (call $mul2 (local.get $o) (local.get $t) (local.get $o)))`;
}

/**
 * $mulc2_<name>(o, s, r): the pair at o = (o_0·c_0, o_1·c_1)·R^-1 + s + r, the constants' limbs as
 * immediates: two of the partial round's diagonal products, with the shared sum s and the next
 * round constants r added in the same pass.
 */
function funcMulConst2(name: string, [c0, c1]: [bigint, bigint]): string {
  const [l0, l1] = [toLimbs(c0), toLimbs(c1)];
  const body = [
    ...preloadPacked('o', 'x'),
    ...montPS(
      SIMD_OPS,
      (i) => get(`x${i}`),
      (j) => `(v128.const i32x4 ${l0[j]} ${l1[j]} ${l0[j]} ${l1[j]})`,
      'o',
      (j) => vadd(vload('s', j * LS), vload('r', j * LS)),
    ),
  ];
  return `(func $mulc2_${name} (param $o i32) (param $s i32) (param $r i32) ${PS2_LOCALS}\n  ${body.join('\n  ')})`;
}

/** $to_mont(o, w): reads 4 little-endian u64 words at w (a value < 2^256) into Montgomery limbs at o. */
function funcToMont(): string {
  const body: string[] = [];
  for (let j = 0; j < LIMBS; j++) {
    const bit = j * LIMB_BITS;
    const word = Math.floor(bit / 64);
    const sh = bit % 64;
    let e = `(i64.shr_u (i64.load offset=${word * 8} (local.get $w)) ${c64(sh)})`;
    if (sh + LIMB_BITS > 64 && word + 1 < 4)
      e = `(i64.or ${e} (i64.shl (i64.load offset=${word * 8 + 8} (local.get $w)) ${c64(64 - sh)}))`;
    body.push(store('o', j * LS, `(i64.and ${e} ${c64(MASK)})`));
  }
  body.push(`(call $mul (local.get $o) (local.get $o) (i32.const ${LAYOUT.R2}))`);
  return `(func $to_mont (param $o i32) (param $w i32)\n  ${body.join('\n  ')})`;
}

/** $from_mont(w, a): writes the canonical value of Montgomery limbs at a as 4 u64 words at w. */
function funcFromMont(): string {
  const T2 = LAYOUT.T2;
  const body: string[] = [`(call $mulc_one (i32.const ${T2}) (local.get $a))`];
  // mont(x, 1) < x/R + p ≤ p: one conditional subtraction of p makes it canonical.
  for (let j = 0; j < LIMBS; j++) {
    let e = `(i64.sub (i64.load offset=${T2 + j * LS} (i32.const 0)) ${c64(PL[j]!)})`;
    if (j > 0) e = add(e, get('c'));
    body.push(set(T[j]!, e));
    if (j + 1 < LIMBS) {
      body.push(set('c', `(i64.shr_s ${get(T[j]!)} ${c64(LIMB_BITS)})`));
      body.push(set(T[j]!, `(i64.and ${get(T[j]!)} ${c64(MASK)})`));
    }
  }
  // t8 < 0 means x < p: keep x, else x - p.
  body.push(
    `(if (i64.ge_s ${get(T[LIMBS - 1]!)} ${c64(0)}) (then ${range(LIMBS)
      .map((j) => `(i64.store offset=${T2 + j * LS} (i32.const 0) ${get(T[j]!)})`)
      .join(' ')}))`,
  );
  for (let j = 0; j < LIMBS; j++) body.push(set(T[j]!, `(i64.load offset=${T2 + j * LS} (i32.const 0))`));
  for (let w = 0; w < 4; w++) {
    const parts: string[] = [];
    for (let j = 0; j < LIMBS; j++) {
      const bit = j * LIMB_BITS - w * 64;
      if (bit <= -LIMB_BITS || bit >= 64) continue;
      parts.push(bit >= 0 ? `(i64.shl ${get(T[j]!)} ${c64(bit)})` : `(i64.shr_u ${get(T[j]!)} ${c64(-bit)})`);
    }
    body.push(`(i64.store offset=${w * 8} (local.get $w) ${parts.reduce((x, y) => `(i64.or ${x} ${y})`)})`);
  }
  return `(func $from_mont (param $w i32) (param $a i32) ${MONT_LOCALS}\n  ${body.join('\n  ')})`;
}

function zero(o: number): string {
  return range(LIMBS)
    .map((j) => `(i64.store offset=${o + j * LS} (i32.const 0) (i64.const 0))`)
    .join(' ');
}

/** Exported entry points working on 4-word little-endian field values in memory. */
function funcExports(): string {
  const [s0, s1, s2, s3] = LAYOUT.S as unknown as [number, number, number, number];
  const T = LAYOUT.T;
  // Address of state element j (0..2) at run time: (j >> 1)·EL + (j & 1)·8.
  const stateAt = `(i32.add (i32.mul (i32.shr_u (local.get $j) (i32.const 1)) (i32.const ${EL})) (i32.shl (i32.and (local.get $j) (i32.const 1)) (i32.const 3)))`;
  return `
(func (export "permute") (param $p i32)
  (call $to_mont (i32.const ${s0}) (local.get $p))
  (call $to_mont (i32.const ${s1}) (i32.add (local.get $p) (i32.const 32)))
  (call $to_mont (i32.const ${s2}) (i32.add (local.get $p) (i32.const 64)))
  (call $to_mont (i32.const ${s3}) (i32.add (local.get $p) (i32.const 96)))
  (call $permute)
  (call $from_mont (local.get $p) (i32.const ${s0}))
  (call $from_mont (i32.add (local.get $p) (i32.const 32)) (i32.const ${s1}))
  (call $from_mont (i32.add (local.get $p) (i32.const 64)) (i32.const ${s2}))
  (call $from_mont (i32.add (local.get $p) (i32.const 96)) (i32.const ${s3})))
(func (export "hash_pairs") (param $in i32) (param $out i32) (param $n i32)
  (block $done (loop $next
    (br_if $done (i32.eqz (local.get $n)))
    (call $to_mont (i32.const ${s0}) (local.get $in))
    (call $to_mont (i32.const ${s1}) (i32.add (local.get $in) (i32.const 32)))
    ${zero(s2)}
    ${range(LIMBS)
      .map(
        (j) => `(i64.store offset=${s3 + j * LS} (i32.const 0) (i64.load offset=${LAYOUT.IV2 + j * LS} (i32.const 0)))`,
      )
      .join(' ')}
    (call $permute)
    (call $from_mont (local.get $out) (i32.const ${s0}))
    (local.set $in (i32.add (local.get $in) (i32.const 64)))
    (local.set $out (i32.add (local.get $out) (i32.const 32)))
    (local.set $n (i32.sub (local.get $n) (i32.const 1)))
    (br $next))))
(func (export "hash") (param $in i32) (param $n i32) (param $out i32) (local $i i32) (local $j i32)
  ${zero(s0)} ${zero(s1)} ${zero(s2)}
  ;; IV = n·2^64: words (0, n, 0, 0) written at the output slot, then converted.
  (i64.store offset=0 (local.get $out) (i64.const 0))
  (i64.store offset=8 (local.get $out) (i64.extend_i32_u (local.get $n)))
  (i64.store offset=16 (local.get $out) (i64.const 0))
  (i64.store offset=24 (local.get $out) (i64.const 0))
  (call $to_mont (i32.const ${s3}) (local.get $out))
  (loop $absorb
    (local.set $j (i32.const 0))
    (loop $lane
      (if (i32.lt_u (i32.add (local.get $i) (local.get $j)) (local.get $n)) (then
        (call $to_mont (i32.const ${T}) (i32.add (local.get $in) (i32.shl (i32.add (local.get $i) (local.get $j)) (i32.const 5))))
        (call $addn ${stateAt} ${stateAt} (i32.const ${T}))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br_if $lane (i32.lt_u (local.get $j) (i32.const 3))))
    (call $permute)
    (local.set $i (i32.add (local.get $i) (i32.const 3)))
    (br_if $absorb (i32.lt_u (local.get $i) (local.get $n))))
  (call $from_mont (local.get $out) (i32.const ${s0})))`;
}

/** Pairs of values in the pair layout: limb j of the first in lane 0, of the second in lane 1. */
function dataSegment(offset: number, pairs: (readonly [bigint, bigint])[]): string {
  const bytes: string[] = [];
  const le = (x: bigint): void => {
    for (let k = 0; k < 8; k++)
      bytes.push(
        '\\' +
          Number((x >> BigInt(8 * k)) & 0xffn)
            .toString(16)
            .padStart(2, '0'),
      );
  };
  for (const [x, y] of pairs) {
    const xl = toLimbs(x);
    const yl = toLimbs(y);
    for (let j = 0; j < LIMBS; j++) le(xl[j]!), le(yl[j]!);
  }
  return `(data (i32.const ${offset}) "${bytes.join('')}")`;
}

/** Consecutive values as pairs (an odd one out pairs with 0). */
const asPairs = (xs: bigint[]): (readonly [bigint, bigint])[] =>
  range(Math.ceil(xs.length / 2)).map((i) => [xs[2 * i]!, xs[2 * i + 1] ?? 0n] as const);

/** The complete module text. */
export function generatePoseidon2Wat(options: KernelOptions): string {
  const full = FULL_ROUND_CONSTANTS.flatMap((r) => r.map((c) => toMont(c)));
  const partial = PARTIAL_ROUND_CONSTANTS.map((c) => toMont(c));
  const D = INTERNAL_DIAG_M1.map((d) => toMont(d));
  const { simd } = options;
  return [
    `;; Generated by src/impl/crypto/wasm/poseidon2-wat.ts (${simd ? 'SIMD' : 'scalar'}) — do not edit; run \`npm run build:wasm\`.`,
    '(module',
    '(memory (export "memory") 2)',
    `(global (export "io_base") i32 (i32.const ${LAYOUT.IO_BASE}))`,
    funcMulPS(),
    funcSqrPS(),
    ...(simd
      ? [
          funcMul2(),
          funcSqr2(),
          funcSbox2(),
          funcMulConst2('d01', [D[0]!, D[1]!]),
          funcMulConst2('d23', [D[2]!, D[3]!]),
        ]
      : D.map((d, k) => funcMulConstPS(`d${k}`, d, true))),
    funcMulConstPS('one', 1n),
    funcAdd(),
    funcNorm(),
    funcRed(),
    funcSumRed(),
    funcSbox(),
    funcM4(),
    funcPermute(simd),
    funcToMont(),
    funcFromMont(),
    funcExports(),
    dataSegment(RC_FULL1, asPairs(full.slice(0, 16))),
    dataSegment(
      RC_PARTIAL,
      partial.map((c) => [c, 0n] as const),
    ),
    dataSegment(RC_FULL2, asPairs(full.slice(16))),
    dataSegment(LAYOUT.R2, [[mod(R * R), 0n]]),
    dataSegment(LAYOUT.IV2, [[toMont(2n << 64n), 0n]]),
    ')',
    '',
  ].join('\n');
}
