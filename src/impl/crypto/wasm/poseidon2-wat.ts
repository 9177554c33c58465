/**
 * Generates the WebAssembly text (WAT) of the Poseidon2 kernel: BN254 Fr in Montgomery form with
 * nine 29-bit limbs held in i64 words, the t = 4 permutation, the sponge and a pair batch.
 * `build.ts` assembles this text with wabt into `poseidon2.wasm`; the text is a pure function of
 * the round constants, so a rebuild is byte-identical.
 *
 * Why 29-bit limbs: WebAssembly has no 64×64→128 multiply, so products are 29×29 = 58 bits and up
 * to 18 of them accumulate in an i64 column without a carry (18·2^58 < 2^63). Carries are then
 * propagated once per multiplication instead of once per product.
 *
 * Why lazy reduction: R = 2^261 is 2^7 times larger than p, so Montgomery products of inputs below
 * ~60p stay below a few p without a final subtraction. Values are canonicalised only on output.
 * Bounds (with mont(a, b) < ab/R + p and p/R < 2^-7), all values stay below 2^261:
 * - full round: state < 25p, + rc < 26p, x^2 < 6.3p, x^4 < 1.4p, x^5 < 1.3p, after M4 < 21p;
 * - partial round: sum of the state < 64p, `red` brings it below 3p, D·s + red(sum) < 4.2p;
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
/** Bytes of one element in limb form (9 × i64). */
const EL = LIMBS * 8;

/** Memory layout (byte offsets); the JS side only needs IO_BASE. */
export const LAYOUT = {
  S: [0, 72, 144, 216],
  T: 288,
  SUM: 360,
  T2: 432,
  FULL_RC: 1024,
  PARTIAL_RC: 1024 + 32 * 72,
  R2: 1024 + 32 * 72 + 56 * 72,
  IV2: 1024 + 32 * 72 + 56 * 72 + 72,
  IO_BASE: 8192,
} as const;

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

/**
 * Montgomery multiplication body (CIOS, carries deferred): `a(i)` yields limb i of a (an expression,
 * evaluated once per i), `b(j)` limb j of b (an expression, `1` or `0` for constants that simplify).
 * Leaves the unnormalised result in t0..t7; `normalizeStore` finishes it.
 */
function montBody(a: (i: number) => string, b: (j: number) => string | 0 | 1): string[] {
  const out: string[] = [];
  for (let i = 0; i < LIMBS; i++) {
    out.push(set('ai', a(i)));
    for (let j = 0; j < LIMBS; j++) {
      const bj = b(j);
      const fresh = i === 0 || j === LIMBS - 1;
      if (bj === 0) {
        if (fresh) out.push(set(T[j]!, c64(0)));
        continue;
      }
      const prod = bj === 1 ? get('ai') : mul(get('ai'), bj);
      out.push(set(T[j]!, fresh ? prod : add(get(T[j]!), prod)));
    }
    // m makes the low limb divisible by 2^29; only t0's low 29 bits matter, and i64 wrap keeps them.
    out.push(set('m', `(i64.and ${mul(get('t0'), c64(MU))} ${c64(MASK)})`));
    out.push(set('c', `(i64.shr_u ${add(get('t0'), mul(get('m'), c64(PL[0]!)))} ${c64(LIMB_BITS)})`));
    for (let j = 1; j < LIMBS; j++) {
      let e = add(get(T[j]!), mul(get('m'), c64(PL[j]!)));
      if (j === 1) e = add(e, get('c'));
      out.push(set(T[j - 1]!, e));
    }
  }
  return out;
}

/**
 * Propagates carries through t0..t7 (signed shifts: limbs may be negative after a subtraction) and
 * stores 9 limbs at o; the top limb is t8 + carry when `withTop`, else just the carry (after a
 * Montgomery product t8 is empty).
 */
function normalizeStore(o: string, withTop = false): string[] {
  const out: string[] = [];
  for (let j = 0; j < LIMBS - 1; j++) {
    out.push(set('c', `(i64.shr_s ${get(T[j]!)} ${c64(LIMB_BITS)})`));
    out.push(store(o, j * 8, `(i64.and ${get(T[j]!)} ${c64(MASK)})`));
    if (j + 1 < LIMBS - 1) out.push(set(T[j + 1]!, add(get(T[j + 1]!), get('c'))));
  }
  out.push(store(o, (LIMBS - 1) * 8, withTop ? add(get(T[LIMBS - 1]!), get('c')) : get('c')));
  return out;
}

const MONT_LOCALS = locals([...T, 'ai', 'm', 'c']);

/** $mul(o, a, b): o = a·b·R^-1 (o may alias a or b: everything is loaded before the first store). */
function funcMul(): string {
  const B = range(LIMBS).map((j) => `b${j}`);
  const body = [
    ...range(LIMBS).map((j) => set(B[j]!, load('b', j * 8))),
    ...montBody((i) => load('a', i * 8), (j) => get(B[j]!)),
    ...normalizeStore('o'),
  ];
  return `(func $mul (param $o i32) (param $a i32) (param $b i32) ${locals(B)} ${MONT_LOCALS}\n  ${body.join('\n  ')})`;
}

/** $mulc_<name>(o, a): o = a·c·R^-1 with the limbs of c as immediates. */
function funcMulConst(name: string, c: bigint): string {
  const cl = toLimbs(c);
  const body = [
    ...montBody((i) => load('a', i * 8), (j) => (cl[j] === 0n ? 0 : cl[j] === 1n ? 1 : c64(cl[j]!))),
    ...normalizeStore('o'),
  ];
  return `(func $mulc_${name} (param $o i32) (param $a i32) ${MONT_LOCALS}\n  ${body.join('\n  ')})`;
}

/** $addn(o, a, b): o = a + b, normalised (no reduction). */
function funcAdd(): string {
  const body = [...range(LIMBS).map((j) => set(T[j]!, add(load('a', j * 8), load('b', j * 8)))), ...normalizeStore('o', true)];
  return `(func $addn (param $o i32) (param $a i32) (param $b i32) ${MONT_LOCALS}\n  ${body.join('\n  ')})`;
}

/** $red(o): o = o - q·p with q a slight under-estimate of o / p, so o < 3p afterwards. */
function funcRed(): string {
  const body = [
    set('m', `(i64.shr_u ${mul(load('o', (LIMBS - 1) * 8), c64(RED_M))} ${c64(48)})`),
    ...range(LIMBS).map((j) => set(T[j]!, `(i64.sub ${load('o', j * 8)} ${mul(get('m'), c64(PL[j]!))})`)),
    ...normalizeStore('o', true),
  ];
  return `(func $red (param $o i32) ${MONT_LOCALS}\n  ${body.join('\n  ')})`;
}

/** $sbox(o): o = o^5. */
function funcSbox(): string {
  const t = LAYOUT.T;
  return `(func $sbox (param $o i32)
  (call $mul (i32.const ${t}) (local.get $o) (local.get $o))
  (call $mul (i32.const ${t}) (i32.const ${t}) (i32.const ${t}))
  (call $mul (local.get $o) (i32.const ${t}) (local.get $o)))`;
}

/** $m4: the external matrix on S0..S3, limb by limb, then normalisation. */
function funcM4(): string {
  const [s0, s1, s2, s3] = LAYOUT.S;
  const body: string[] = [];
  const p = (n: string): string => `(local.get $${n})`;
  for (let j = 0; j < LIMBS; j++) {
    const o = j * 8;
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
    body.push(`(i64.store offset=${s0! + o} (i32.const 0) ${add(p('x3'), p('x5'))})`);
    body.push(`(i64.store offset=${s1! + o} (i32.const 0) ${p('x5')})`);
    body.push(`(i64.store offset=${s2! + o} (i32.const 0) ${add(p('x2'), p('x4'))})`);
    body.push(`(i64.store offset=${s3! + o} (i32.const 0) ${p('x4')})`);
  }
  for (const s of LAYOUT.S) body.push(`(call $norm (i32.const ${s}))`);
  return `(func $m4 ${locals(['a', 'b', 'c', 'd', 'x0', 'x1', 'x2', 'x3', 'x4', 'x5'])}\n  ${body.join('\n  ')})`;
}

/** $norm(o): carry propagation in place. */
function funcNorm(): string {
  const body = [...range(LIMBS).map((j) => set(T[j]!, load('o', j * 8))), ...normalizeStore('o', true)];
  return `(func $norm (param $o i32) ${MONT_LOCALS}\n  ${body.join('\n  ')})`;
}

/** $permute: the permutation on S0..S3 (Montgomery form, each < 4.1p), leaving each < 3p. */
function funcPermute(): string {
  const S = LAYOUT.S;
  const full = (rcOff: string): string[] => [
    ...S.map((s, k) => `(call $addn (i32.const ${s}) (i32.const ${s}) (i32.add ${rcOff} (i32.const ${k * EL})))`),
    ...S.map((s) => `(call $sbox (i32.const ${s}))`),
    '(call $m4)',
  ];
  const su = LAYOUT.SUM;
  return `(func $permute (local $r i32)
  (call $m4)
  ${S.map((s) => `(call $red (i32.const ${s}))`).join(' ')}
  (local.set $r (i32.const ${LAYOUT.FULL_RC}))
  (loop $f1
    ${full(get('r')).join('\n    ')}
    (local.set $r (i32.add (local.get $r) (i32.const ${4 * EL})))
    (br_if $f1 (i32.lt_u (local.get $r) (i32.const ${LAYOUT.FULL_RC + 4 * 4 * EL}))))
  (local.set $r (i32.const ${LAYOUT.PARTIAL_RC}))
  (loop $pr
    (call $addn (i32.const ${S[0]}) (i32.const ${S[0]}) (local.get $r))
    (call $sbox (i32.const ${S[0]}))
    (call $addn (i32.const ${su}) (i32.const ${S[0]}) (i32.const ${S[1]}))
    (call $addn (i32.const ${su}) (i32.const ${su}) (i32.const ${S[2]}))
    (call $addn (i32.const ${su}) (i32.const ${su}) (i32.const ${S[3]}))
    (call $red (i32.const ${su}))
    ${S.map((s, k) => `(call $mulc_d${k} (i32.const ${s}) (i32.const ${s})) (call $addn (i32.const ${s}) (i32.const ${s}) (i32.const ${su}))`).join('\n    ')}
    (local.set $r (i32.add (local.get $r) (i32.const ${EL})))
    (br_if $pr (i32.lt_u (local.get $r) (i32.const ${LAYOUT.PARTIAL_RC + 56 * EL}))))
  (local.set $r (i32.const ${LAYOUT.FULL_RC + 4 * 4 * EL}))
  (loop $f2
    ${full(get('r')).join('\n    ')}
    (local.set $r (i32.add (local.get $r) (i32.const ${4 * EL})))
    (br_if $f2 (i32.lt_u (local.get $r) (i32.const ${LAYOUT.FULL_RC + 8 * 4 * EL}))))
  ${S.map((s) => `(call $red (i32.const ${s}))`).join(' ')})`;
}

/** $to_mont(o, w): reads 4 little-endian u64 words at w (a value < 2^256) into Montgomery limbs at o. */
function funcToMont(): string {
  const body: string[] = [];
  for (let j = 0; j < LIMBS; j++) {
    const bit = j * LIMB_BITS;
    const word = Math.floor(bit / 64);
    const sh = bit % 64;
    let e = `(i64.shr_u (i64.load offset=${word * 8} (local.get $w)) ${c64(sh)})`;
    if (sh + LIMB_BITS > 64 && word + 1 < 4) e = `(i64.or ${e} (i64.shl (i64.load offset=${word * 8 + 8} (local.get $w)) ${c64(64 - sh)}))`;
    body.push(store('o', j * 8, `(i64.and ${e} ${c64(MASK)})`));
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
    let e = `(i64.sub (i64.load offset=${T2 + j * 8} (i32.const 0)) ${c64(PL[j]!)})`;
    if (j > 0) e = add(e, get('c'));
    body.push(set(T[j]!, e));
    if (j + 1 < LIMBS) {
      body.push(set('c', `(i64.shr_s ${get(T[j]!)} ${c64(LIMB_BITS)})`));
      body.push(set(T[j]!, `(i64.and ${get(T[j]!)} ${c64(MASK)})`));
    }
  }
  // t8 < 0 means x < p: keep x, else x - p.
  body.push(`(if (i64.ge_s ${get(T[LIMBS - 1]!)} ${c64(0)}) (then ${range(LIMBS).map((j) => `(i64.store offset=${T2 + j * 8} (i32.const 0) ${get(T[j]!)})`).join(' ')}))`);
  for (let j = 0; j < LIMBS; j++) body.push(set(T[j]!, `(i64.load offset=${T2 + j * 8} (i32.const 0))`));
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
  return range(LIMBS).map((j) => `(i64.store offset=${o + j * 8} (i32.const 0) (i64.const 0))`).join(' ');
}

/** Exported entry points working on 4-word little-endian field values in memory. */
function funcExports(): string {
  const [s0, s1, s2, s3] = LAYOUT.S as unknown as [number, number, number, number];
  const T = LAYOUT.T;
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
    ${range(LIMBS).map((j) => `(i64.store offset=${s3 + j * 8} (i32.const 0) (i64.load offset=${LAYOUT.IV2 + j * 8} (i32.const 0)))`).join(' ')}
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
        (call $addn (i32.mul (local.get $j) (i32.const ${EL})) (i32.mul (local.get $j) (i32.const ${EL})) (i32.const ${T}))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br_if $lane (i32.lt_u (local.get $j) (i32.const 3))))
    (call $permute)
    (local.set $i (i32.add (local.get $i) (i32.const 3)))
    (br_if $absorb (i32.lt_u (local.get $i) (local.get $n))))
  (call $from_mont (local.get $out) (i32.const ${s0})))`;
}

function dataSegment(offset: number, values: bigint[]): string {
  const bytes: string[] = [];
  for (const v of values) {
    for (const limb of toLimbs(v)) {
      for (let k = 0; k < 8; k++) bytes.push('\\' + Number((limb >> BigInt(8 * k)) & 0xffn).toString(16).padStart(2, '0'));
    }
  }
  return `(data (i32.const ${offset}) "${bytes.join('')}")`;
}

/** The complete module text. */
export function generatePoseidon2Wat(): string {
  const full = FULL_ROUND_CONSTANTS.flatMap((r) => r.map((c) => toMont(c)));
  const partial = PARTIAL_ROUND_CONSTANTS.map((c) => toMont(c));
  const D = INTERNAL_DIAG_M1.map((d) => toMont(d));
  return [
    ';; Generated by src/impl/crypto/wasm/poseidon2-wat.ts — do not edit; run `npm run build:wasm`.',
    '(module',
    '(memory (export "memory") 2)',
    funcMul(),
    ...D.map((d, k) => funcMulConst(`d${k}`, d)),
    funcMulConst('one', 1n),
    funcAdd(),
    funcNorm(),
    funcRed(),
    funcSbox(),
    funcM4(),
    funcPermute(),
    funcToMont(),
    funcFromMont(),
    funcExports(),
    dataSegment(LAYOUT.FULL_RC, full),
    dataSegment(LAYOUT.PARTIAL_RC, partial),
    dataSegment(LAYOUT.R2, [mod(R * R)]),
    dataSegment(LAYOUT.IV2, [toMont(2n << 64n)]),
    ')',
    '',
  ].join('\n');
}
