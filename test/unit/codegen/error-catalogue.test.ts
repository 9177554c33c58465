/**
 * One error contract: both documents' `components/errors` (message templates), their `x-errors`
 * data schemas, every `x-error-examples` entry, the classes of src/impl/rpc/errors.ts and the
 * server's protocol errors agree. Each example is rebuilt from its own `data` with the class the
 * node throws, and must come out with exactly the example's message and data.
 * @module
 */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { messageProblem, placeholders } from '../../../codegen/error-template.ts';
import { RollbackRefusal } from '../../../src/impl/chain/rollback.ts';
import { NodeIsReadOnly } from '../../../src/impl/node-config/rollback-coordinator.ts';
import type { JsonRpcErrorObject } from '../../../src/impl/rpc/errors.ts';
import * as errors from '../../../src/impl/rpc/errors.ts';
import { toJsonRpcError } from '../../../src/impl/rpc/wire-errors.ts';
import { SnapshotBusy } from '../../../src/impl/snapshots/snapshot-writer.ts';
import { PoolRejection } from '../../../src/impl/txpool/errors.ts';
import { SlotRangeTooWide } from '../../../src/impl/validators/errors.ts';
import { KeystoreError } from '../../../src/impl/validators/keystore.ts';
import { BlockNotRetained, BlockNotYetSynced, LeafIndexOutOfRange } from '../../../src/impl/world-state/errors.ts';
import * as protocol from '../../../src/server/protocol-errors.ts';
import { ROOT } from './helpers.ts';

type Json = Record<string, any>;
type Example = { name: string; error: { code: number; message: string; data?: unknown } };

const DOCS: Record<string, Json> = Object.fromEntries(
  ['openrpc.public.json', 'openrpc.admin.json'].map((file) => [
    file,
    JSON.parse(readFileSync(join(ROOT, file), 'utf8')),
  ]),
);

/** What the server sends for a thrown value: the one mapping (src/impl/rpc/wire-errors.ts). */
const wire = (err: unknown): JsonRpcErrorObject => toJsonRpcError(err);

/**
 * How the node builds each catalogue error from the `data` it carries (and, for -32001, the method):
 * the domain error the engine throws where there is one, else the class a handler throws.
 */
const BUILD: Record<string, (data: any, method: string) => JsonRpcErrorObject> = {
  INVALID_PARAMS: (d) => wire(new errors.InvalidParamsError(d.index, d.param, d.rule)),
  INTERNAL_ERROR: () => wire(new Error('disk on fire')),
  UNAUTHORIZED: () => wire(new errors.UnauthorizedError()),
  NOT_IMPLEMENTED: (_d, method) => wire(new errors.NotImplementedError(method)),
  NODE_NOT_READY: (d) => wire(new errors.NodeNotReadyError(d.reason)),
  BLOCK_NOT_YET_SYNCED: (d) => wire(new BlockNotYetSynced(d.requested, d.latest)),
  BLOCK_NOT_RETAINED: (d) => wire(new BlockNotRetained(d.requested, d.oldestAvailable)),
  LEAF_INDEX_OUT_OF_RANGE: (d) => wire(new LeafIndexOutOfRange(BigInt(d.leafIndex), BigInt(d.treeSize))),
  TX_POOL_REJECTED: ({ code, message, ...details }) => wire(new PoolRejection(code, message, details)),
  TX_INVALID: (d) => wire(new errors.TxInvalidError(d.reasons, d.code)),
  SIMULATION_REFUSED: (d) =>
    wire(
      new errors.SimulationRefusedError(d.reason, {
        ...(d.l2GasLimit === undefined ? {} : { l2GasLimit: BigInt(d.l2GasLimit) }),
        ...(d.maxL2GasLimit === undefined ? {} : { maxL2GasLimit: BigInt(d.maxL2GasLimit) }),
        ...(d.code === undefined ? {} : { code: d.code }),
      }),
    ),
  SLOT_RANGE_TOO_WIDE: (d) => wire(new SlotRangeTooWide(BigInt(d.fromSlot), BigInt(d.toSlot), d.maxSlots)),
  KEYSTORE_RELOAD_REJECTED: (d) => wire(new KeystoreError(d.reason, d.detail, d.validator)),
  SNAPSHOT_IN_PROGRESS: () => wire(new SnapshotBusy()),
  ROLLBACK_REFUSED: ({ reason, ...blocks }) => wire(new RollbackRefusal(reason, blocks)),
  READ_ONLY_NODE: () => wire(new NodeIsReadOnly()),
};

/** Server-level errors: never in examples; their placeholder is free text and they carry no data. */
const SERVER_LEVEL: Record<string, JsonRpcErrorObject[]> = {
  PARSE_ERROR: [protocol.parseError('Unexpected end of JSON input')],
  INVALID_REQUEST: [protocol.invalidRequest('empty batch'), protocol.batchTooLarge(100)],
  METHOD_NOT_FOUND: [protocol.methodNotFound('node_nope')],
};

/** A schema without its prose, to compare the two documents' data schemas by shape. */
function shape(doc: Json, node: unknown): unknown {
  if (Array.isArray(node)) return node.map((n) => shape(doc, n));
  if (typeof node !== 'object' || node === null) return node;
  const o = node as Json;
  if (typeof o.$ref === 'string')
    return shape(
      doc,
      o.$ref
        .slice(2)
        .split('/')
        .reduce((at: Json, k: string) => at[k], doc),
    );
  // A one-element allOf only carries a description beside its reference (codegen/shape-documents.ts).
  if (
    Array.isArray(o.allOf) &&
    o.allOf.length === 1 &&
    Object.keys(o).every((k) => ['allOf', 'title', 'description'].includes(k))
  )
    return shape(doc, o.allOf[0]);
  return Object.fromEntries(
    Object.entries(o)
      .filter(([k]) => k !== 'description' && k !== 'title')
      .map(([k, v]) => [k, shape(doc, v)]),
  );
}

describe('error catalogue: documents, classes and server agree', () => {
  for (const [file, doc] of Object.entries(DOCS)) {
    const catalogue = doc.components.errors as Record<string, { code: number; message: string }>;
    const byCode = new Map(Object.entries(catalogue).map(([name, e]) => [e.code, name]));

    it(`${file}: every error has the code of RpcErrorCode and a way to build it`, () => {
      for (const [name, e] of Object.entries(catalogue)) {
        assert.equal(e.code, (errors.RpcErrorCode as Record<string, number>)[name], `${name} code`);
        assert.ok(
          Object.hasOwn(BUILD, name) || Object.hasOwn(SERVER_LEVEL, name),
          `${name} has a builder in this test`,
        );
      }
    });

    for (const m of doc.methods as Json[]) {
      for (const x of (m['x-error-examples'] ?? []) as Example[]) {
        it(`${file} ${m.name} "${x.name}": the node's error equals the example`, () => {
          const name = byCode.get(x.error.code);
          assert.ok(
            name !== undefined && Object.hasOwn(BUILD, name),
            `code ${x.error.code} is a catalogue error with a class`,
          );
          assert.deepEqual(BUILD[name](x.error.data, m.name), x.error);
          assert.equal(messageProblem(catalogue[name].message, x.error.message, x.error.data), null);
        });
      }
    }

    it(`${file}: server-level errors fit their templates and carry no data`, () => {
      for (const [name, sent] of Object.entries(SERVER_LEVEL)) {
        if (!Object.hasOwn(catalogue, name)) continue;
        for (const e of sent) {
          assert.equal(e.code, catalogue[name].code);
          assert.equal(messageProblem(catalogue[name].message, e.message, undefined), null, e.message);
          assert.equal(e.data, undefined);
        }
      }
    });
  }

  it('the server sends validator messages unprefixed, with data {index, param, rule}', () => {
    assert.deepEqual(protocol.invalidParams('params[1] (limit): must be <= 100'), {
      code: -32602,
      message: 'params[1] (limit): must be <= 100',
      data: { index: 1, param: 'limit', rule: 'must be <= 100' },
    });
    assert.deepEqual(protocol.invalidParams('params[0] (filter): fromBlock must be integer'), {
      code: -32602,
      message: 'params[0] (filter): fromBlock must be integer',
      data: { index: 0, param: 'filter', rule: 'fromBlock must be integer' },
    });
    assert.deepEqual(protocol.notImplemented('node_x'), {
      code: -32001,
      message: 'Method not implemented: node_x',
      data: { method: 'node_x' },
    });
  });

  it('an error in both documents has one code, one message template and one data shape', () => {
    const [pub, adm] = Object.values(DOCS) as [Json, Json];
    const shared = Object.keys(pub.components.errors).filter((n) => Object.hasOwn(adm.components.errors, n));
    assert.deepEqual(shared, [
      'PARSE_ERROR',
      'INVALID_REQUEST',
      'METHOD_NOT_FOUND',
      'INVALID_PARAMS',
      'INTERNAL_ERROR',
      'NOT_IMPLEMENTED',
      'NODE_NOT_READY',
    ]);
    for (const name of shared) {
      assert.deepEqual(pub.components.errors[name], adm.components.errors[name], name);
      assert.deepEqual(
        shape(pub, pub['x-errors'][name].dataSchema),
        shape(adm, adm['x-errors'][name].dataSchema),
        `${name} data schema`,
      );
    }
  });

  it('placeholders of an error with data name members of its data schema', () => {
    for (const doc of Object.values(DOCS)) {
      for (const [name, e] of Object.entries(doc.components.errors as Record<string, { message: string }>)) {
        const schema = shape(doc, doc['x-errors'][name].dataSchema) as Json;
        if (schema.type === 'null') continue;
        const members = new Set(
          [schema, ...(schema.oneOf ?? [])].flatMap((s: Json) => Object.keys(s.properties ?? {})),
        );
        for (const p of placeholders(e.message)) assert.ok(members.has(p), `${name}: <${p}> is a member of its data`);
      }
    }
  });
});
