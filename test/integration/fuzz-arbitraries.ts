/**
 * fast-check arbitraries for JSON-RPC calls built from the OpenRPC documents themselves: for every
 * method, params that fit its schemas (biased to values the node knows), values at and past the
 * schemas' bounds, and hostile ones (wrong types, numbers JSON.stringify cannot write, hex at or
 * above the BN254 modulus, upper-case hex, extra members, nulls, deep nesting, huge strings).
 * @module
 */
import fc from 'fast-check';

type Json = Record<string, unknown>;
type Schema = Json;

/** A JSON number written as its literal text (`1e309`, `-0`, `9007199254740993`): JSON.stringify cannot. */
export class RawNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toJSON(): string {
    return `\u0000RAW:${this.text}\u0000`;
  }
}

/** The request body text of `value`, with RawNumber literals written as they are. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0000RAW:([^"\\]*)\\u0000"/g, '$1');
}

const MODULUS = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;
const hex64 = (v: bigint) => `0x${v.toString(16).padStart(64, '0')}`;

/** Hex text in a random case: lower, upper or mixed, the `0x` prefix kept. */
const anyCase = (text: string) =>
  fc.constantFrom('lower', 'upper', 'mixed').map((mode) => {
    if (mode === 'lower' || !text.startsWith('0x')) return text;
    const digits = text.slice(2);
    return `0x${mode === 'upper' ? digits.toUpperCase() : [...digits].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('')}`;
  });

/** Values at the edge of the shared domain rule and past it; none of them is valid anywhere. */
const DOMAIN_EDGES: readonly unknown[] = [
  new RawNumber('1e309'),
  new RawNumber('-1e309'),
  new RawNumber('1e400'),
  new RawNumber('9007199254740993'),
  new RawNumber('1e20'),
  new RawNumber('-9007199254740993'),
  2 ** 53,
  -(2 ** 53),
  1.5,
  -1,
  0.1,
  hex64(MODULUS),
  hex64(MODULUS + 1n),
  `0x${'f'.repeat(64)}`,
  `0x${'F'.repeat(64)}`,
  hex64(MODULUS).toUpperCase().replace('0X', '0x'),
];

/** Values that break most shapes: wrong types, broken hex, odd strings, prototype keys, deep nesting. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -0,
    new RawNumber('-0'),
    '',
    'latest',
    'LATEST',
    '0x',
    '0x0',
    '0xg',
    '0X00',
    `0x${'0'.repeat(63)}`,
    `0x${'0'.repeat(65)}`,
    '\u0000',
    '\ud800',
    '../../../../etc/passwd',
    '/proc/self/mem',
    'file:///sys/kernel',
    'gs://bucket/x',
    '__proto__',
    'constructor',
    [],
    {},
    [null],
    JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}'),
    'x'.repeat(10_000),
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    -Number.MAX_VALUE,
  ),
  fc.constantFrom(...DOMAIN_EDGES),
  fc.integer({ min: 0, max: 40 }).map((depth) => nest(depth * 5)),
  fc.double(),
  fc.string({ maxLength: 40 }),
  fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }).map(hex64),
);

function nest(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { a: v };
  return v;
}

/** Builds arbitraries from one document's schemas; `known` are 32-byte values the node holds. */
export class SchemaArbitraries {
  readonly #schemas: Readonly<Record<string, Schema>>;
  readonly #known: fc.Arbitrary<string>;

  constructor(doc: Json, known: readonly string[]) {
    this.#schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Schema>;
    this.#known = known.length > 0 ? fc.constantFrom(...known) : fc.constant(hex64(0n));
  }

  /** A value of `schema`: mostly fitting, sometimes at a bound, sometimes hostile (at any depth). */
  value(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
    // Deeper down, mostly fitting: a call fails at its first broken part, so hostility everywhere hides the handlers.
    return fc.oneof(
      { weight: depth === 0 ? 6 : 16, arbitrary: this.#fitting(schema, depth) },
      { weight: 1, arbitrary: this.#bound(schema) },
      { weight: 1, arbitrary: hostile },
    );
  }

  #resolve(schema: Schema): Schema {
    let s = schema;
    for (let hops = 0; typeof s.$ref === 'string' && hops < 10; hops++)
      s = this.#schemas[(s.$ref as string).split('/').pop()!] ?? {};
    return s;
  }

  /** Values at and just past the schema's numeric bounds and lengths (one side always invalid). */
  #bound(schema: Schema): fc.Arbitrary<unknown> {
    const s = this.#resolve(schema);
    const edges: unknown[] = [];
    if (typeof s.minimum === 'number') edges.push(s.minimum, s.minimum - 1);
    if (typeof s.maximum === 'number') edges.push(s.maximum, s.maximum + 1);
    if (typeof s.maxItems === 'number' && s.maxItems <= 1000 && s.items !== undefined && !Array.isArray(s.items)) {
      const item = this.#resolve(s.items as Schema);
      const filler = item.type === 'string' ? hex64(1n) : 1;
      edges.push(Array(s.maxItems).fill(filler), Array(s.maxItems + 1).fill(filler));
    }
    return edges.length > 0 ? fc.constantFrom(...edges) : fc.constantFrom(...DOMAIN_EDGES);
  }

  #fitting(schema: Schema, depth: number): fc.Arbitrary<unknown> {
    const s = this.#resolve(schema);
    if (depth > 6) return fc.constant(null);
    const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
    if (Array.isArray(branches)) return fc.oneof(...branches.map((b) => this.value(b, depth + 1)));
    if (Array.isArray(s.allOf))
      return this.#fitting(Object.assign({}, ...(s.allOf as Schema[]).map((b) => this.#resolve(b))), depth);
    if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
    if ('const' in s) return fc.constant(s.const);
    const type = Array.isArray(s.type)
      ? fc.constantFrom(...(s.type as string[]))
      : fc.constant(s.type as string | undefined);
    return type.chain((t) => this.#ofType(s, t, depth));
  }

  #ofType(s: Schema, type: string | undefined, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer': {
        const min = typeof s.minimum === 'number' ? s.minimum : -1_000_000;
        const max = typeof s.maximum === 'number' ? s.maximum : Math.max(min, 0) + 1_000_000;
        // Mostly small (block numbers the chain has, tree ids, limits), sometimes anywhere in range.
        return fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min, max: Math.min(max, min + 12) }) },
          { weight: 1, arbitrary: fc.integer({ min, max }) },
        );
      }
      case 'number':
        return fc.double({
          noNaN: true,
          noDefaultInfinity: true,
          min: (s.minimum as number | undefined) ?? -1e6,
          max: (s.maximum as number | undefined) ?? 1e6,
        });
      case 'string':
        return this.#string(s);
      case 'array': {
        if (Array.isArray(s.items)) return fc.tuple(...(s.items as Schema[]).map((i) => this.value(i, depth + 1)));
        const item = (s.items ?? {}) as Schema;
        const minLength = Math.min((s.minItems as number | undefined) ?? 0, 4);
        return fc.array(this.value(item, depth + 1), {
          minLength,
          maxLength: Math.max(minLength, Math.min((s.maxItems as number | undefined) ?? 4, 4)),
        });
      }
      case 'object':
        return this.#object(s, depth);
      default:
        return hostile;
    }
  }

  #string(s: Schema): fc.Arbitrary<unknown> {
    const pattern = s.pattern as string | undefined;
    if (pattern === undefined) return fc.string({ maxLength: 24 });
    if (/^\^0x\[0-9a-fA-F\]\{64\}\$$/.test(pattern) || /^\^0x\[0-9a-f\]\{64\}\$$/.test(pattern)) {
      // A known value (so lookups find something), or any field element, in any case.
      return fc
        .oneof(
          this.#known,
          fc.bigInt({ min: 0n, max: MODULUS - 1n }).map(hex64),
          fc.bigInt({ min: 0n, max: 1000n }).map(hex64),
        )
        .chain(anyCase);
    }
    if (pattern.startsWith('^(/|file:///|https?://)')) {
      // Snapshot locations: never a writable place or a real host (the fuzz must not write files or go online).
      return fc.constantFrom(
        '/proc/self/x',
        '/sys/kernel/x',
        'file:///proc/x',
        'http://127.0.0.1:1/x',
        'https://0.0.0.0:1/x',
        'relative/path',
        's3://b/x',
      );
    }
    return fc
      .stringMatching(new RegExp(pattern), { size: 'small' })
      .chain((text) => (pattern.startsWith('^0x') ? anyCase(text) : fc.constant(text)));
  }

  #object(s: Schema, depth: number): fc.Arbitrary<unknown> {
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    const required = new Set((s.required ?? []) as string[]);
    const parts: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, sub] of Object.entries(properties)) parts[key] = this.value(sub, depth + 1);
    const record = fc.record(parts, { requiredKeys: [...required].filter((k) => k in parts) });
    const map =
      typeof s.additionalProperties === 'object' && s.additionalProperties !== null
        ? fc.dictionary(fc.string({ maxLength: 8 }), this.value(s.additionalProperties as Schema, depth + 1), {
            maxKeys: 3,
          })
        : fc.constant({});
    // Members the schema does not declare: a newer client's fields, `sizeCache`, prototype names.
    const extra = fc.option(
      fc.dictionary(
        fc.constantFrom('sizeCache', 'extra', '__proto__', 'constructor', 'toString', 'x-new-field'),
        hostile,
        { maxKeys: 2 },
      ),
      { freq: 3, nil: {} },
    );
    return fc.tuple(record, map, extra).map(([r, m, e]) => Object.assign(Object.create(null) as object, m, e, r));
  }
}
