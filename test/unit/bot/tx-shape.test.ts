/** Bot tx shapes: unique nullifiers, the configured side effects, real-format txs that decode and validate. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBotTx, gasUsedFor, nullifierFor, randomSeed, sideEffectsFor } from '../../../src/impl/bot/tx-shape.ts';
import { PRIVATE_LOG_SIZE_IN_FIELDS } from '../../../src/impl/tx/constants.ts';
import { computeTxHash, decodeTx, getNullifiers } from '../../../src/impl/tx/index.ts';
import type { BlockHeader } from '../../../src/impl/tx/types.ts';

const FIELD_MODULUS = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;
const snap = { root: 1n, nextAvailableLeafIndex: 0 };
const header: BlockHeader = {
  lastArchive: snap,
  state: { l1ToL2MessageTree: snap, partial: { noteHashTree: snap, nullifierTree: snap, publicDataTree: snap } },
  spongeBlobHash: 0n,
  globalVariables: {
    chainId: 31337n,
    version: 1n,
    blockNumber: 3,
    slotNumber: 3,
    timestamp: 1n,
    coinbase: 0n,
    feeRecipient: 0n,
    gasFees: { feePerDaGas: 0n, feePerL2Gas: 1n },
  },
  totalFees: 0n,
  totalManaUsed: 0n,
};

describe('nullifiers', () => {
  it('unique per sequence number and per run, never zero, inside the field', () => {
    const a = randomSeed();
    const b = randomSeed();
    assert.notEqual(a, b);
    const seen = new Set<bigint>();
    for (const seed of [a, b, 1n, (1n << 120n) - 1n]) {
      for (let seq = 0n; seq < 200n; seq++) {
        const n = nullifierFor(seed, seq);
        assert.ok(n > 0n && n << 8n < FIELD_MODULUS);
        seen.add(n);
      }
    }
    assert.equal(seen.size, 800);
    assert.throws(() => nullifierFor(0n, 1n), RangeError);
    assert.throws(() => nullifierFor(1n << 120n, 1n), RangeError);
  });
});

describe('sideEffectsFor', () => {
  it('the configured note hashes and logs: distinct values, tag first, lengths 2..16', () => {
    const e = sideEffectsFor({ noteHashesPerTx: 3, privateLogsPerTx: 20 }, 0xabcn, 7n);
    assert.equal(e.nullifiers.length, 1);
    assert.equal(e.noteHashes.length, 3);
    assert.equal(new Set(e.noteHashes).size, 3);
    assert.equal(e.privateLogs.length, 20);
    const tags = e.privateLogs.map((l) => l.fields[0]!);
    assert.equal(new Set(tags).size, 20);
    for (const log of e.privateLogs) {
      assert.equal(log.fields.length, PRIVATE_LOG_SIZE_IN_FIELDS);
      assert.ok(log.emittedLength >= 2 && log.emittedLength <= PRIVATE_LOG_SIZE_IN_FIELDS);
      assert.ok(log.fields.slice(0, log.emittedLength).every((f) => f !== 0n));
      assert.ok(log.fields.slice(log.emittedLength).every((f) => f === 0n));
    }
    assert.ok(new Set(e.privateLogs.map((l) => l.emittedLength)).size > 1, 'lengths vary');
  });

  it('an empty shape is one nullifier; out-of-range shapes are refused', () => {
    assert.deepEqual(sideEffectsFor({ noteHashesPerTx: 0, privateLogsPerTx: 0 }, 5n, 0n), {
      nullifiers: [5n << 64n],
      noteHashes: [],
      privateLogs: [],
    });
    assert.throws(() => sideEffectsFor({ noteHashesPerTx: 65, privateLogsPerTx: 0 }, 5n, 0n), RangeError);
    assert.throws(() => sideEffectsFor({ noteHashesPerTx: 0, privateLogsPerTx: -1 }, 5n, 0n), RangeError);
  });

  it('gas used: 32 DA gas per emitted field', () => {
    const e = sideEffectsFor({ noteHashesPerTx: 2, privateLogsPerTx: 1 }, 5n, 0n);
    assert.equal(gasUsedFor(e).daGas, 32 * (1 + 2 + e.privateLogs[0]!.emittedLength));
  });
});

describe('buildBotTx', () => {
  it('a real-format tx: decodes back to the same effects, its hash (computed on the tx-hash worker) covers the logs', async () => {
    const effects = sideEffectsFor({ noteHashesPerTx: 2, privateLogsPerTx: 2 }, 0x99n, 1n);
    const built = await buildBotTx({
      chainId: 31337n,
      rollupVersion: 1n,
      feePayer: 0x1002n,
      anchorBlockHeader: header,
      maxFeesPerGas: { feePerDaGas: 4n, feePerL2Gas: 40n },
      effects,
    });
    const decoded = decodeTx(built.wire, 'tx');
    assert.equal(decoded.txHash, computeTxHash(decoded.data));
    assert.equal(built.hash, '0x' + decoded.txHash.toString(16).padStart(64, '0'));
    assert.deepEqual(getNullifiers(decoded), [...effects.nullifiers]);
    assert.ok(!decoded.data.isForPublic);
    if (decoded.data.isForPublic) return;
    const end = decoded.data.forRollup.end;
    assert.deepEqual(
      end.noteHashes.filter((n) => n !== 0n),
      [...effects.noteHashes],
    );
    assert.deepEqual(end.privateLogs.slice(0, 2), [...effects.privateLogs]);
    assert.equal(end.privateLogs[2]!.emittedLength, 0);
    assert.deepEqual(decoded.data.constants.txContext.gasSettings.maxFeesPerGas, { feePerDaGas: 4n, feePerL2Gas: 40n });
    assert.equal(decoded.data.feePayer, 0x1002n);
    const withoutLogs = await buildBotTx({
      chainId: 31337n,
      rollupVersion: 1n,
      feePayer: 0x1002n,
      anchorBlockHeader: header,
      maxFeesPerGas: { feePerDaGas: 4n, feePerL2Gas: 40n },
      effects: { ...effects, privateLogs: [] },
    });
    assert.notEqual(withoutLogs.hash, built.hash);
  });
});
