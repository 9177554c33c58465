/** A reader on a replica: recovery-conflict retries, NODE_NOT_READY for a lost database, the forwarded-tx memory. @module */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  FORWARDED_TX_LIMIT,
  ForwardedTxs,
  guardReaderCall,
  isRecoveryConflict,
  RECOVERY_CONFLICT_RETRIES,
} from '../../../src/impl/reader/replication.ts';
import { NodeNotReadyError, RpcError } from '../../../src/impl/rpc/errors.ts';

/** What node-postgres throws when a hot standby cancels a query for WAL replay. */
const conflict = () => Object.assign(new Error('canceling statement due to conflict with recovery'), { code: '40001' });

describe('guardReaderCall', () => {
  it('runs a call again after a recovery-conflict cancellation, up to the retry limit', async () => {
    let calls = 0;
    assert.equal(
      await guardReaderCall(
        async () => (++calls < 3 ? Promise.reject(conflict()) : 'answer'),
        () => false,
      ),
      'answer',
    );
    assert.equal(calls, 3);
    calls = 0;
    await assert.rejects(
      guardReaderCall(
        async () => {
          calls++;
          throw conflict();
        },
        () => false,
      ),
      /conflict with recovery/,
    );
    assert.equal(calls, RECOVERY_CONFLICT_RETRIES + 1);
  });

  it('a lost connection, or any failure while the database is known down, is NODE_NOT_READY; RPC errors pass', async () => {
    const lost = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    await assert.rejects(
      guardReaderCall(
        () => Promise.reject(lost),
        () => false,
      ),
      (e) => e instanceof NodeNotReadyError && e.code === -32002,
    );
    await assert.rejects(
      guardReaderCall(
        () => Promise.resolve(1),
        () => true,
      ),
      NodeNotReadyError,
    );
    const rpc = new RpcError(-32602, 'params[0] (x): bad');
    await assert.rejects(
      guardReaderCall(
        () => Promise.reject(rpc),
        () => false,
      ),
      (e) => e === rpc,
    );
    assert.equal(isRecoveryConflict(Object.assign(new Error('could not serialize access'), { code: '40001' })), false);
  });
});

describe('ForwardedTxs', () => {
  it('remembers a forwarded tx until the database shows it, and at most the newest FORWARDED_TX_LIMIT', () => {
    const f = new ForwardedTxs();
    f.add(1n, { txHash: '0x01' });
    assert.deepEqual(f.get(1n), { txHash: '0x01' });
    f.seen(1n);
    assert.equal(f.get(1n), undefined);
    for (let i = 0; i <= FORWARDED_TX_LIMIT; i++) f.add(BigInt(i + 10), {});
    assert.equal(f.size, FORWARDED_TX_LIMIT);
    assert.equal(f.get(10n), undefined);
  });
});
