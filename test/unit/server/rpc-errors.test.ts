/** The error catalogue classes and toJsonRpcError (docs/ARCHITECTURE.md, error catalogue). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as adminDoc from '../../../src/generated/admin/errors.ts';
import * as publicDoc from '../../../src/generated/public/errors.ts';
import * as errors from '../../../src/impl/rpc/errors.ts';
import { messageProblem } from '../../../codegen/error-template.ts';

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
      errors.toJsonRpcError(new errors.TxPoolRejectedError('LOW_PRIORITY_FEE', 'fee too low', { minFee: '10' })),
      {
        code: -32020,
        message: 'fee too low',
        data: { code: 'LOW_PRIORITY_FEE', message: 'fee too low', minFee: '10' },
      },
    );
    assert.deepEqual(errors.toJsonRpcError(new errors.SnapshotInProgressError()), {
      code: -32051,
      message: 'Snapshot upload already in progress',
    });
  });

  it('anything else becomes -32603 without its message', () => {
    assert.deepEqual(errors.toJsonRpcError(new TypeError('x is undefined')), {
      code: -32603,
      message: 'Internal error',
    });
    assert.deepEqual(errors.toJsonRpcError('string thrown'), { code: -32603, message: 'Internal error' });
  });

  it('bigint data is sent as decimal strings', () => {
    assert.deepEqual(errors.toJsonRpcError(new errors.LeafIndexOutOfRangeError(2n ** 70n, 5n)).data, {
      leafIndex: (2n ** 70n).toString(),
      treeSize: '5',
    });
  });

  it('classes are named after themselves', () => {
    assert.equal(new errors.UnauthorizedError().name, 'UnauthorizedError');
  });
});

describe('lockstep with the documents (src/generated/*/errors.ts)', () => {
  for (const [surface, doc] of [
    ['public', publicDoc],
    ['admin', adminDoc],
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
        new errors.SyncPausedError(),
      ];
      assert.equal(samples.length, classes.length, 'one sample per class');
      for (const sample of samples) {
        const declared = byCode.get(sample.code);
        if (declared !== undefined) assert.equal(messageProblem(declared, sample.message, sample.data), null);
      }
    });
  }
});
