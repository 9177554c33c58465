/** The 29 shared tx vectors: decode, re-encode, hash and wire round trip. @module */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeBase64Strict } from '../../../src/impl/tx/base64.ts';
import { decodeChonkProof, encodeChonkProof } from '../../../src/impl/tx/chonk-proof.ts';
import { decodeKernelPublicInputs } from '../../../src/impl/tx/kernel-decode.ts';
import { encodeKernelPublicInputs } from '../../../src/impl/tx/kernel-encode.ts';
import { kernelToFields } from '../../../src/impl/tx/kernel-fields.ts';
import { computeBlockHeaderHash } from '../../../src/impl/tx/tx-hash.ts';
import { decodeTx, toWireTx } from '../../../src/impl/tx/tx-wire.ts';
import { loadVector, toDecodedView, vectorFiles } from './helpers/vectors.ts';

const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');
const files = vectorFiles();

describe('tx vectors (test/vectors/tx)', () => {
  it('there are 29 vectors, 17 forPublic and 12 forRollup', () => {
    const kinds = files.map((f) => loadVector(f).kind);
    assert.equal(files.length, 29);
    assert.equal(kinds.filter((k) => k === 'forPublic').length, 17);
    assert.equal(kinds.filter((k) => k === 'forRollup').length, 12);
  });

  for (const file of files) {
    describe(file, () => {
      const v = loadVector(file);
      const dataBytes = decodeBase64Strict(v.wire.data, 'tx.data');

      it('data decodes to the whole `decoded` view', () => {
        assert.deepEqual(toDecodedView(decodeKernelPublicInputs(dataBytes)), v.decoded);
      });

      it('data re-encodes to exactly the same bytes', () => {
        assert.deepEqual(encodeKernelPublicInputs(decodeKernelPublicInputs(dataBytes)), dataBytes);
      });

      it('chonkProof decodes to 1935 fields and re-encodes to the same bytes', () => {
        const bytes = decodeBase64Strict(v.wire.chonkProof, 'tx.chonkProof');
        const proof = decodeChonkProof(bytes);
        assert.equal(proof.fields.length, 1935);
        assert.equal(
          proof.fields.every((f) => f === 0n),
          v.summary.chonkProofAllZero,
        );
        assert.deepEqual(encodeChonkProof(proof), bytes);
      });

      it('the hashed field list matches txHashComputation and the anchor header hashes to anchorBlockHeaderHash', () => {
        const data = decodeKernelPublicInputs(dataBytes);
        const fields = kernelToFields(data);
        assert.equal(fields.length, v.txHashComputation.fieldCount);
        const nonZero = fields.flatMap((f, i) => (f === 0n ? [] : [[i, hex(f)]]));
        assert.deepEqual(nonZero, v.txHashComputation.nonZeroFields);
        assert.equal(hex(computeBlockHeaderHash(data.constants.anchorBlockHeader)), v.anchorBlockHeaderHash);
      });

      it('decodeTx recomputes txHash and the wire JSON round-trips byte for byte', () => {
        const tx = decodeTx(v.wire);
        assert.equal(hex(tx.txHash), v.txHash);
        assert.equal(JSON.stringify(toWireTx(tx)), JSON.stringify(v.wire));
      });
    });
  }
});
