/**
 * The tx codec's public surface: decode/encode the `Tx` wire object, the hashes, the accessors
 * the pool and validators use, and the decode error.
 * @module
 */
export type * from './types.ts';
export { TxDecodeError } from './errors.ts';
export { decodeTx, toWireTx } from './tx-wire.ts';
export { decodeTxOffThread } from './tx-hash-worker.ts';
export { decodeKernelPublicInputs } from './kernel-decode.ts';
export { encodeKernelPublicInputs } from './kernel-encode.ts';
export { decodeChonkProof, encodeChonkProof } from './chonk-proof.ts';
export { kernelToFields, blockHeaderToFields } from './kernel-fields.ts';
export { computeTxHash, computeCalldataHash, computeContractClassLogHash, computeBlockHeaderHash } from './tx-hash.ts';
export * from './tx-accessors.ts';
export * from './tx-validation.ts';
