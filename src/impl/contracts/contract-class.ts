/**
 * Contract class identity: the public bytecode commitment and the class id (trees.json
 * `contract.publicBytecodeCommitment`, `contract.contractClassId`).
 * @module
 */
import { poseidon2HashWithSeparator } from '../crypto/poseidon2.ts';
import { DomainSeparator } from './domain-separators.ts';

const CHUNK = 31;
const TWO_POW_32 = 1n << 32n;

/** Returns the bytes as fields: 31-byte chunks read big-endian (a short last chunk is zero-padded on the right). */
export function bytecodeToFields(bytecode: Uint8Array): bigint[] {
  const fields: bigint[] = [];
  for (let i = 0; i < bytecode.length; i += CHUNK) {
    let x = 0n;
    for (let j = 0; j < CHUNK; j++) x = (x << 8n) | BigInt(bytecode[i + j] ?? 0);
    fields.push(x);
  }
  return fields;
}

/** Returns the commitment to a class's packed public bytecode (the byte length rides in the separator). */
export function computePublicBytecodeCommitment(packedBytecode: Uint8Array): bigint {
  const separator = BigInt(DomainSeparator.PUBLIC_BYTECODE) + BigInt(packedBytecode.length) * TWO_POW_32;
  return poseidon2HashWithSeparator(bytecodeToFields(packedBytecode), separator);
}

/** The three inputs of a contract class id. */
export interface ContractClassIdPreimage {
  readonly artifactHash: bigint;
  readonly privateFunctionsRoot: bigint;
  readonly publicBytecodeCommitment: bigint;
}

/** Returns the contract class id. */
export function computeContractClassId(preimage: ContractClassIdPreimage): bigint {
  return poseidon2HashWithSeparator(
    [preimage.artifactHash, preimage.privateFunctionsRoot, preimage.publicBytecodeCommitment],
    DomainSeparator.CONTRACT_CLASS_ID,
  );
}
