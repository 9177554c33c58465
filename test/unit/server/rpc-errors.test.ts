/** The error catalogue classes and the one domain-to-wire mapping, toJsonRpcError (docs/ARCHITECTURE.md, error catalogue). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messageProblem } from '../../../codegen/error-template.ts';
import * as adminDoc from '../../../src/generated/admin/errors.ts';
import * as devDoc from '../../../src/generated/dev/errors.ts';
import * as publicDoc from '../../../src/generated/public/errors.ts';
import { RollbackRefusal } from '../../../src/impl/chain/rollback.ts';
import { ConfigRuleBroken } from '../../../src/impl/node-config/node-config.ts';
import { NodeIsReadOnly } from '../../../src/impl/node-config/rollback-coordinator.ts';
import * as errors from '../../../src/impl/rpc/errors.ts';
import { toJsonRpcError, toRpcError } from '../../../src/impl/rpc/wire-errors.ts';
import { SnapshotBusy, SnapshotNotReady } from '../../../src/impl/snapshots/snapshot-writer.ts';
import { PoolNotRunning, PoolRejection } from '../../../src/impl/txpool/errors.ts';
import { ParamRuleBroken, SlotRangeTooWide } from '../../../src/impl/validators/errors.ts';
import { KeystoreError } from '../../../src/impl/validators/keystore.ts';
import { BlockNotRetained, BlockNotYetSynced, LeafIndexOutOfRange } from '../../../src/impl/world-state/errors.ts';

const classes = Object.values(errors).filter(
  (value): value is typeof errors.RpcError & { code: number } =>
    typeof value === 'function' && value.prototype instanceof errors.RpcError,
);

describe('error catalogue', () => {
  it('every class has a distinct code from RpcErrorCode, and every non-protocol code has a class', () => {
    const codes = classes.map((c) => c.code);
    assert.equal(new Set(codes).size, codes.length);
    const protocol = [-32700, -32600, -32601, -32603];
    const expected = Object.values(errors.RpcErrorCode).filter((c) => !protocol.includes(c));
    assert.deepEqual([...codes].sort(), [...expected].sort());
  });

  it('an RpcError passes through with code, message and data', () => {
    assert.deepEqual(
      toJsonRpcError(new errors.TxPoolRejectedError('LOW_PRIORITY_FEE', 'fee too low', { minFee: '10' })),
      {
        code: -32020,
        message: 'fee too low',
        data: { code: 'LOW_PRIORITY_FEE', message: 'fee too low', minFee: '10' },
      },
    );
    assert.deepEqual(toJsonRpcError(new errors.SnapshotInProgressError()), {
      code: -32051,
      message: 'Snapshot upload already in progress',
    });
  });

  it('anything else becomes -32603 without its message', () => {
    assert.deepEqual(toJsonRpcError(new TypeError('x is undefined')), {
      code: -32603,
      message: 'Internal error',
    });
    assert.deepEqual(toJsonRpcError('string thrown'), { code: -32603, message: 'Internal error' });
  });

  it('bigint data is sent as decimal strings', () => {
    assert.deepEqual(toJsonRpcError(new errors.LeafIndexOutOfRangeError(2n ** 70n, 5n)).data, {
      leafIndex: (2n ** 70n).toString(),
      treeSize: '5',
    });
  });

  it('every domain error the engine throws becomes its catalogue error, with the template filled from its data', () => {
    const blocks = { targetBlockNumber: 9, tipBlockNumber: 3, finalizedBlockNumber: 1 };
    const cases: [unknown, errors.JsonRpcErrorObject][] = [
      [
        new BlockNotYetSynced(7, 5),
        {
          code: -32010,
          message: 'Block 7 not yet synced (world state is at block 5)',
          data: { requested: 7, latest: 5 },
        },
      ],
      [
        new BlockNotRetained(0, 1),
        {
          code: -32011,
          message: 'State of block 0 is no longer retained (oldest available: 1)',
          data: { requested: 0, oldestAvailable: 1 },
        },
      ],
      [
        new LeafIndexOutOfRange(8n, 8n),
        {
          code: -32012,
          message: 'Leaf index 8 out of range (tree size 8)',
          data: { leafIndex: '8', treeSize: '8' },
        },
      ],
      [
        PoolRejection.lowPriorityFee(10n, 9n),
        {
          code: -32020,
          message: 'Tx does not meet minimum priority fee. Required: 10, got: 9',
          data: {
            code: 'LOW_PRIORITY_FEE',
            message: 'Tx does not meet minimum priority fee. Required: 10, got: 9',
            minimumPriorityFee: '10',
            txPriorityFee: '9',
          },
        },
      ],
      [
        new PoolNotRunning(),
        {
          code: -32002,
          message: 'Node not ready: P2P client not running',
          data: { reason: 'P2P client not running' },
        },
      ],
      [
        new ParamRuleBroken('toSlot', 2, 'toSlot must be >= fromSlot'),
        {
          code: -32602,
          message: 'params[2] (toSlot): toSlot must be >= fromSlot',
          data: { index: 2, param: 'toSlot', rule: 'toSlot must be >= fromSlot' },
        },
      ],
      [
        new ConfigRuleBroken('maxPendingTxCount must be >= 0'),
        {
          code: -32602,
          message: 'params[0] (config): maxPendingTxCount must be >= 0',
          data: { index: 0, param: 'config', rule: 'maxPendingTxCount must be >= 0' },
        },
      ],
      [
        new SlotRangeTooWide(0n, 10n, 5),
        {
          code: -32040,
          message: 'Slot range 0..10 exceeds the slot window of 5',
          data: { fromSlot: '0', toSlot: '10', maxSlots: 5 },
        },
      ],
      [
        new KeystoreError('INVALID_KEYSTORE', 'a.json: bad json'),
        {
          code: -32050,
          message: 'Keystore reload rejected: INVALID_KEYSTORE',
          data: { reason: 'INVALID_KEYSTORE', detail: 'a.json: bad json' },
        },
      ],
      [
        new RollbackRefusal('ABOVE_TIP', blocks),
        {
          code: -32052,
          message: 'Rollback to block 9 refused: ABOVE_TIP',
          data: { reason: 'ABOVE_TIP', ...blocks },
        },
      ],
      [new SnapshotBusy(), { code: -32051, message: 'Snapshot upload already in progress' }],
      [
        new SnapshotNotReady('initial sync not complete'),
        {
          code: -32002,
          message: 'Node not ready: initial sync not complete',
          data: { reason: 'initial sync not complete' },
        },
      ],
      [new NodeIsReadOnly(), { code: -32053, message: 'Node is read-only' }],
    ];
    for (const [domain, wire] of cases) {
      assert.ok(!(domain instanceof errors.RpcError), `${(domain as Error).name} is a domain error`);
      assert.deepEqual(toJsonRpcError(domain), wire, (domain as Error).name);
    }
    assert.equal(toRpcError(new RangeError('bad block number -1')), undefined);
  });

  it('classes are named after themselves', () => {
    assert.equal(new errors.UnauthorizedError().name, 'UnauthorizedError');
  });
});

describe('lockstep with the documents (src/generated/*/errors.ts)', () => {
  for (const [surface, doc] of [
    ['public', publicDoc],
    ['admin', adminDoc],
    ['dev', devDoc],
  ] as const) {
    it(`every error declared in openrpc.${surface}.json has the same code here`, () => {
      for (const [name, code] of Object.entries(doc.ErrorCode)) {
        assert.equal(errors.RpcErrorCode[name as errors.RpcErrorName], code, name);
      }
    });

    it(`each class's message is the template openrpc.${surface}.json declares, filled from its data`, () => {
      const byCode = new Map<number, string>(
        Object.entries(doc.ErrorCode).map(([name, code]) => [
          code,
          doc.ErrorMessage[name as keyof typeof doc.ErrorMessage],
        ]),
      );
      const samples: errors.RpcError[] = [
        new errors.InvalidParamsError(1, 'limit', 'must be <= 100'),
        new errors.UnauthorizedError(),
        new errors.NotImplementedError('node_x'),
        new errors.NodeNotReadyError(),
        new errors.BlockNotYetSyncedError(2, 1),
        new errors.BlockNotRetainedError(1, 5),
        new errors.LeafIndexOutOfRangeError(9n, 8n),
        new errors.TxPoolRejectedError('NULLIFIER_CONFLICT', 'x'),
        new errors.TxInvalidError(['bad']),
        new errors.SimulationRefusedError('gas'),
        new errors.SlotRangeTooWideError(0n, 10n, 5),
        new errors.KeystoreReloadRejectedError('INVALID_KEYSTORE'),
        new errors.SnapshotInProgressError(),
        new errors.RollbackRefusedError('ABOVE_TIP', {
          targetBlockNumber: 9,
          tipBlockNumber: 3,
          finalizedBlockNumber: 1,
        }),
        new errors.ReadOnlyNodeError(),
      ];
      assert.equal(samples.length, classes.length, 'one sample per class');
      for (const sample of samples) {
        const declared = byCode.get(sample.code);
        if (declared !== undefined) assert.equal(messageProblem(declared, sample.message, sample.data), null);
      }
    });
  }
});
