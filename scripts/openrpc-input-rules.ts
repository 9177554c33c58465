/**
 * Re-runnable edit of the three OpenRPC documents for issue #22 ("liberal in what it accepts"):
 * the root `x-input-rules` (unknown members of request objects ignored; `fieldElementSchemas`, the
 * 32-byte field types whose request values must be below the BN254 modulus), hex patterns in any
 * case, and the descriptions that state these rules. The field rule lives at the root, not as a
 * keyword inside the schemas: strict ajv (its default) and tools built on it refuse unknown keywords.
 * Idempotent: running it twice changes nothing, so a conflicting rebase is resolved by taking
 * main's documents and running it again (`node scripts/openrpc-input-rules.ts && npm run codegen`).
 * @module
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const FILES = ['openrpc.public.json', 'openrpc.admin.json', 'openrpc.dev.json'];
type Json = Record<string, unknown>;

/** The root member codegen reads (codegen/model.ts `INPUT_RULES`); `fieldElementSchemas` is set per document. */
const INPUT_RULES = {
  unknownMembers: 'ignored',
  description:
    'How requests are read beyond their schemas. Members of a request object that its schema does not declare are ignored (removed before the handler runs), as Aztec 4.1.2 does, so fields a newer client adds do not break it; `additionalProperties: false` on a request schema lists what the node reads. Unknown methods and extra positional params stay errors. Hex is accepted in any case and answered in lower case. Domain rule for every method: a JSON number must be a finite safe integer (|n| <= 2^53 - 1; `1e309` is not a number), and a value of a schema listed in `fieldElementSchemas` (these `components/schemas` names) must be below the BN254 field modulus (0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001); otherwise -32602 naming the parameter and the rule.',
};

/** The 32-byte types that are BN254 field elements in Aztec (tx and block hashes are fields too). */
const FIELD_TYPES = ['AztecAddress', 'Field', 'Hash32'];

/** The in-schema keyword earlier runs of this script wrote; strict ajv refuses it, so it is removed. */
const RETIRED_KEYWORD = 'x-bn254-field';

/** Sentence replacements in descriptions: [old, new]. */
const WORDING: readonly (readonly [RegExp, string])[] = [
  [/ lowercase hex digits/g, ' hex digits (any case in requests, lower case in answers)'],
  [/`0x` \+ 64 lowercase hex;/g, '`0x` + 64 hex (any case in requests, lower case in answers);'],
  [
    /Unknown keys and `null` values are rejected with -32602\./g,
    'Unknown keys are ignored; `null` values are rejected with -32602.',
  ],
  [/Unknown keys are rejected\./g, 'Unknown keys are ignored.'],
  [
    /an unknown field, a wrong type or a value out of range makes the whole update -32602 and nothing is changed\./g,
    'a key this node does not know is ignored (and logged); a wrong type or a value out of range makes the whole update -32602 and nothing is changed.',
  ],
];

/** The BN254 field modulus (codegen/ajv-schemas.ts `BN254_MODULUS_HEX`). */
const MODULUS = '0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001';

const FIELD_RULE = `must be a BN254 field element (below ${MODULUS})`;

/** An x-error-example rejected with -32602 at `index` (`param`) for `rule`. */
function invalidParams(
  name: string,
  summary: string,
  params: unknown[],
  index: number,
  param: string,
  rule: string,
): Json {
  return {
    name,
    summary,
    params,
    error: { code: -32602, message: `params[${index}] (${param}): ${rule}`, data: { index, param, rule } },
  };
}

/** Error examples whose call is valid under the input rules, keyed `method name`, and what replaces each. */
const REPLACED_EXAMPLES: Record<string, (old: Json) => Json> = {
  'node_getPublicLogs unknown-key': () =>
    invalidParams(
      'tag-not-a-field',
      '`filter.tag` is at or above the BN254 field modulus (the shared domain rule)',
      [{ name: 'filter', value: { fromBlock: 5, tag: MODULUS } }],
      0,
      'filter',
      `tag ${FIELD_RULE}`,
    ),
  'node_getTxReceipt uppercase-hex': () =>
    invalidParams(
      'not-a-field',
      '`txHash` is the BN254 field modulus itself, not a field element',
      [{ name: 'txHash', value: MODULUS }],
      0,
      'txHash',
      FIELD_RULE,
    ),
  'node_isValidTx unknown-option': (old) =>
    invalidParams(
      'option-not-boolean',
      '`options.isSimulation` is not a boolean',
      [(old.params as unknown[])[0], { name: 'options', value: { isSimulation: 'yes' } }],
      1,
      'options',
      'isSimulation must be boolean',
    ),
  'nodeAdmin_setConfig invalid-params': () =>
    invalidParams(
      'invalid-params',
      'A value of the wrong type rejects the whole update (keys this node does not know are ignored).',
      [{ name: 'config', value: { maxPendingTxCount: 'many', maxPendingTxs: 10 } }],
      0,
      'config',
      'maxPendingTxCount must be integer',
    ),
};

const TREES_5_6_OLD =
  'SPEC.md allows 0 to 6, but the node has no tree 5 (BLOCKS_TREE, a v3 name: block hashes live in ARCHIVE, id 4) and no tree 6: both answer -32602 with rule `tree id 5 (BLOCKS_TREE) is not queryable by leaf value; use 4 (ARCHIVE)` / `tree id 6 is not defined`.';
const TREES_5_6_NEW =
  'SPEC.md allows 0 to 6: 5 (BLOCKS_TREE) reads the block hashes, which are the leaves of ARCHIVE (leaf index = block number), so it answers as 4; 6 names no tree, so every value answers `null`.';
const MERKLE_5_6_OLD = 'the node holds only trees 0-4 and answers -32602 for 5 and 6 (see `node_findLeavesIndexes`).';
const MERKLE_5_6_NEW =
  "5 answers as 4 (block hashes are the archive's leaves) and 6 indexes nothing (`null` per value; see `node_findLeavesIndexes`).";

const FIELD_SENTENCE =
  ' In a request, a value at or above the BN254 field modulus is -32602 (answers may carry L1 hashes, which are not field elements).';

function walk(node: unknown, visit: (n: Json) => void): void {
  if (Array.isArray(node)) {
    for (const n of node) walk(n, visit);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  visit(node as Json);
  for (const [key, value] of Object.entries(node)) if (key !== 'examples') walk(value, visit);
}

function edit(doc: Json): void {
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  doc['x-input-rules'] = {
    unknownMembers: INPUT_RULES.unknownMembers,
    fieldElementSchemas: FIELD_TYPES.filter((n) => n in schemas),
    description: INPUT_RULES.description,
  };
  // The retired keyword's declaration goes; an `x-input-rules` declaration without `fieldElementSchemas`
  // goes too, and codegen/shape-documents.ts declares it again from its current text.
  const stale = (d: Json): boolean =>
    d.name === RETIRED_KEYWORD ||
    (d.name === 'x-input-rules' && !JSON.stringify(d.schema ?? {}).includes('fieldElementSchemas'));
  if (Array.isArray(doc['x-extensions']))
    doc['x-extensions'] = (doc['x-extensions'] as Json[]).filter((d) => !stale(d));
  walk(doc, (n) => {
    if (typeof n.pattern === 'string' && n.pattern.startsWith('^0x'))
      n.pattern = n.pattern.replaceAll('[0-9a-f]', '[0-9a-fA-F]');
    if (typeof n.description === 'string')
      for (const [from, to] of WORDING) n.description = n.description.replace(from, to);
  });
  const info = doc.info as Json;
  if (typeof info.description === 'string')
    for (const [from, to] of WORDING) info.description = info.description.replace(from, to);
  for (const name of FIELD_TYPES) {
    const s = schemas[name];
    if (s === undefined) continue;
    delete s[RETIRED_KEYWORD];
    if (typeof s.description === 'string' && !s.description.includes(FIELD_SENTENCE.trim()))
      s.description += FIELD_SENTENCE;
  }
  // Error examples: patterns in their messages read any-case now, and the ones that showed an
  // unknown member or upper-case hex are valid calls: each becomes an example of a rule that holds.
  for (const m of (doc.methods ?? []) as Json[]) {
    const examples = m['x-error-examples'] as Json[] | undefined;
    if (examples === undefined) continue;
    for (const [i, x] of examples.entries()) {
      const replacement = REPLACED_EXAMPLES[`${String(m.name)} ${String(x.name)}`];
      if (replacement !== undefined) examples[i] = replacement(x);
      else if (x.error !== undefined)
        x.error = JSON.parse(JSON.stringify(x.error).replaceAll('^0x[0-9a-f]{', '^0x[0-9a-fA-F]{'));
    }
  }
  for (const m of (doc.methods ?? []) as Json[]) {
    // Tree ids 5 and 6 are answered (SPEC §2/§8 allow 0 to 6), so their error example goes.
    if (m.name === 'node_findLeavesIndexes') {
      m['x-error-examples'] = ((m['x-error-examples'] ?? []) as Json[]).filter((x) => x.name !== 'blocks-tree');
      m.description = String(m.description).replace(TREES_5_6_OLD, TREES_5_6_NEW);
    }
    // node_getPrivateLogs: SPEC §8 states only the maximum; 0 blocks answer [].
    if (m.name === 'node_getPrivateLogs') {
      const limit = ((m.params ?? []) as Json[]).find((p) => p.name === 'limit');
      if (limit !== undefined) {
        // Shaped documents (codegen/shape-documents.ts) hold the bound in a named component: set it there.
        const holder = boundHolder(schemas, limit.schema as Json, 'minimum');
        if (holder !== undefined) holder.minimum = 0;
        limit.description = 'Number of blocks (0 to 1000; 0 answers `[]`).';
      }
      m.description = String(m.description).replace(
        '`limit` (number of blocks) 1 to 1000.',
        '`limit` (number of blocks) 0 to 1000.',
      );
    }
  }
  const treeId = schemas.MerkleTreeId;
  if (treeId !== undefined) treeId.description = String(treeId.description).replace(MERKLE_5_6_OLD, MERKLE_5_6_NEW);
  // SPEC §7's INSUFFICIENT_FEE_PAYER_BALANCE is named wherever its condition is the cause, as a pool rejection names it.
  for (const name of ['TxInvalidErrorData', 'SimulationRefusedErrorData']) {
    const data = schemas[name];
    if (data === undefined) continue;
    // Once shape-documents has named it, the member is a `$ref`: leave it as it is.
    if ((data.properties as Json).code !== undefined) continue;
    (data.properties as Json).code = {
      description:
        "The SPEC §7 rejection code when its condition is the cause: `INSUFFICIENT_FEE_PAYER_BALANCE` when the fee payer cannot pay the fee (the reason keeps Aztec 4.1.2's words, `Insufficient fee payer balance`). Absent otherwise.",
      type: 'string',
      enum: ['INSUFFICIENT_FEE_PAYER_BALANCE'],
    };
  }
  // nodeAdmin_setConfig: keys this node does not know reach the handler, which ignores and logs them.
  const update = schemas.NodeAdminConfigUpdate;
  if (update !== undefined) update.additionalProperties = true;
}

/** The schema that states `keyword` for `schema`, following `$ref`s and single `allOf` wrappers. */
function boundHolder(schemas: Record<string, Json>, schema: Json, keyword: string): Json | undefined {
  let s: Json | undefined = schema;
  for (let hops = 0; s !== undefined && hops < 10; hops++) {
    if (keyword in s) return s;
    const ref =
      typeof s.$ref === 'string'
        ? s.$ref
        : Array.isArray(s.allOf) && s.allOf.length === 1
          ? (s.allOf[0] as Json).$ref
          : undefined;
    s = typeof ref === 'string' ? schemas[ref.split('/').pop()!] : undefined;
  }
  return undefined;
}

for (const file of FILES) {
  const path = join(root, file);
  const text = await readFile(path, 'utf8');
  const doc = JSON.parse(text) as Json;
  edit(doc);
  const out = `${JSON.stringify(doc, null, 2)}\n`;
  if (out !== text) await writeFile(path, out);
  console.log(`${file}: ${out === text ? 'unchanged' : 'updated'}`);
}
