/** Accessors over a decoded tx agree with the vectors' `summary` and `decoded` views. @module */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  getContractClassLogs,
  getExpirationTimestamp,
  getFeePayer,
  getFirstNullifier,
  getGasSettings,
  getL2ToL1Messages,
  getNoteHashes,
  getNullifiers,
  getPrivateLogs,
  getPublicCallCounts,
  getPublicCallsWithCalldata,
  getTotalCalldataCount,
  getTxSizeBytes,
} from '../../../src/impl/tx/tx-accessors.ts';
import { decodeTx } from '../../../src/impl/tx/tx-wire.ts';
import { loadVector } from './helpers/vectors.ts';

const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');
// A spread of shapes: calls in all phases, the 32-call maximum, logs in each phase, everything private.
const FILES = [
  'public-05-setup-app-teardown.json',
  'public-04-teardown-only.json',
  'public-13-max-calls.json',
  'public-10-ccl-nonrevertible.json',
  'public-16-ccl-revertible.json',
  'public-17-u128-fees.json',
  'rollup-09-everything.json',
  'rollup-12-zero-expiration.json',
];

/** The non-revertible-then-revertible concatenation of a list in the decoded view. */
function viewItems(decoded: any, key: string): unknown[] {
  const blocks = decoded.isForPublic
    ? [decoded.forPublic.nonRevertibleAccumulatedData, decoded.forPublic.revertibleAccumulatedData]
    : [decoded.forRollup.end];
  return blocks.flatMap((b: any) => b[key].items);
}

for (const file of FILES) {
  describe(`accessors: ${file}`, () => {
    const v = loadVector(file);
    const d = v.decoded as any;
    const s = v.summary;
    const tx = decodeTx(v.wire);

    it('side-effect counts match the summary', () => {
      assert.equal(getNoteHashes(tx).length, s.noteHashes);
      assert.equal(getNullifiers(tx).length, s.nullifiers);
      assert.equal(getL2ToL1Messages(tx).length, s.l2ToL1Msgs);
      assert.equal(getPrivateLogs(tx).length, s.privateLogs);
      assert.equal(getContractClassLogs(tx).length, s.contractClassLogs);
    });

    it('nullifiers and note hashes are the decoded items, non-revertible first; the first nullifier leads', () => {
      assert.deepEqual(getNullifiers(tx).map(hex), viewItems(d, 'nullifiers'));
      assert.deepEqual(getNoteHashes(tx).map(hex), viewItems(d, 'noteHashes'));
      assert.equal(hex(getFirstNullifier(tx)), viewItems(d, 'nullifiers')[0]);
    });

    it('call counts match the summary and every call finds its calldata', () => {
      assert.deepEqual(getPublicCallCounts(tx), {
        setup: s.nonRevertiblePublicCalls,
        appLogic: s.revertiblePublicCalls,
        teardown: s.hasTeardown ? 1 : 0,
      });
      const calls = getPublicCallsWithCalldata(tx);
      assert.equal(calls.length, s.publicFunctionCalldataEntries);
      for (const { request, calldata } of calls) {
        const entry = v.wire.publicFunctionCalldata.find((c) => c.hash === hex(request.calldataHash));
        assert.deepEqual(calldata.map(hex), entry?.values);
      }
      assert.equal(
        getTotalCalldataCount(tx),
        v.wire.publicFunctionCalldata.reduce((n, c) => n + c.values.length, 0),
      );
    });

    it('fee payer, gas settings and expiration match the decoded view', () => {
      assert.equal(hex(getFeePayer(tx)), d.feePayer);
      const g = getGasSettings(tx);
      const want = d.constants.txContext.gasSettings;
      assert.deepEqual(g.gasLimits, want.gasLimits);
      assert.deepEqual(g.teardownGasLimits, want.teardownGasLimits);
      assert.equal(g.maxFeesPerGas.feePerL2Gas.toString(), want.maxFeesPerGas.feePerL2Gas);
      assert.equal(g.maxPriorityFeesPerGas.feePerDaGas.toString(), want.maxPriorityFeesPerGas.feePerDaGas);
      assert.equal(getExpirationTimestamp(tx).toString(), d.expirationTimestamp);
    });

    it('contract class logs are trimmed to their committed length', () => {
      for (const log of getContractClassLogs(tx)) assert.equal(log.fields.length, log.logHash.logHash.length);
    });
  });
}

describe('getTxSizeBytes', () => {
  it('is the p2p buffer size: hash + data + proof + two u8 counts when there are no logs or calldata (TX-FORMAT §6)', () => {
    const tx = decodeTx(loadVector('rollup-01-minimal.json').wire);
    assert.equal(getTxSizeBytes(tx), 32 + 38_557 + 61_924 + 1 + 1);
  });

  it('counts each contract class log as 3023 fields and each calldata entry as count + values + hash', () => {
    const v = loadVector('public-10-ccl-nonrevertible.json');
    const tx = decodeTx(v.wire);
    const calldata = v.wire.publicFunctionCalldata.reduce((n, c) => n + 4 + 32 * c.values.length + 32, 0);
    assert.equal(
      getTxSizeBytes(tx),
      32 + 82_722 + 61_924 + 1 + 3023 * 32 * v.wire.contractClassLogFields.length + 1 + calldata,
    );
  });
});
