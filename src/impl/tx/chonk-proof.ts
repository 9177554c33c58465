/**
 * `Tx.chonkProof` bytes (`ChonkProof.toBuffer()`): a u32 field count, which must be
 * `CHONK_PROOF_LENGTH`, then that many fields (TX-FORMAT §3). The proof is not hashed.
 * @module
 */
import { ByteReader } from './byte-reader.ts';
import { ByteWriter } from './byte-writer.ts';
import { BYTES, CHONK_PROOF_LENGTH } from './constants.ts';
import { TxDecodeError } from './errors.ts';
import type { ChonkProof } from './types.ts';

/** Decodes chonk proof bytes; throws `TxDecodeError` on a wrong count, a field ≥ p or a wrong size. */
export function decodeChonkProof(bytes: Uint8Array, root = 'tx.chonkProof'): ChonkProof {
  const r = new ByteReader(bytes, root);
  const count = r.readU32('length');
  // The package's constructor throws on any other length.
  if (count !== CHONK_PROOF_LENGTH)
    throw new TxDecodeError(`${root}.length`, `must be ${CHONK_PROOF_LENGTH}, got ${count}`);
  const fields = new Array<bigint>(count);
  for (let i = 0; i < count; i++) fields[i] = r.readField(`fields[${i}]`);
  r.assertEnd();
  return { fields };
}

/** Encodes a chonk proof (61 924 bytes). */
export function encodeChonkProof(proof: ChonkProof): Uint8Array {
  if (proof.fields.length !== CHONK_PROOF_LENGTH) {
    throw new RangeError(`chonk proof needs ${CHONK_PROOF_LENGTH} fields, got ${proof.fields.length}`);
  }
  const w = new ByteWriter(BYTES.chonkProof);
  w.writeU32(proof.fields.length);
  for (const f of proof.fields) w.writeField(f);
  return w.finish();
}
