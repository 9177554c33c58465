/**
 * Contract instance addresses: public keys hash, salted initialization hash, partial address and
 * the address itself, the x coordinate of `preaddress·G + ivpk_m` on Grumpkin (trees.json
 * `contract`; Aztec stdlib `keys/utils.ts computeAddress`).
 * @module
 */
import { poseidon2HashWithSeparator } from '../crypto/poseidon2.ts';
import { DomainSeparator } from './domain-separators.ts';
import { GRUMPKIN_GENERATOR, grumpkinAdd, grumpkinMul, parseGrumpkinPoint } from './grumpkin.ts';
import type { GrumpkinPoint } from './grumpkin.ts';

/** An account's four master public keys. */
export interface PublicKeys {
  readonly masterNullifierPublicKey: GrumpkinPoint;
  readonly masterIncomingViewingPublicKey: GrumpkinPoint;
  readonly masterOutgoingViewingPublicKey: GrumpkinPoint;
  readonly masterTaggingPublicKey: GrumpkinPoint;
}

/** Public keys as on the wire (`Point` hex strings). */
export type WirePublicKeys = { readonly [K in keyof PublicKeys]: string };

/** Parses the wire shape of `publicKeys`. */
export function parsePublicKeys(wire: WirePublicKeys): PublicKeys {
  return {
    masterNullifierPublicKey: parseGrumpkinPoint(wire.masterNullifierPublicKey),
    masterIncomingViewingPublicKey: parseGrumpkinPoint(wire.masterIncomingViewingPublicKey),
    masterOutgoingViewingPublicKey: parseGrumpkinPoint(wire.masterOutgoingViewingPublicKey),
    masterTaggingPublicKey: parseGrumpkinPoint(wire.masterTaggingPublicKey),
  };
}

/** Returns the public keys hash: each point contributes [x, y, isInfinite]; all-identity keys hash to 0. */
export function computePublicKeysHash(keys: PublicKeys): bigint {
  const points = [
    keys.masterNullifierPublicKey,
    keys.masterIncomingViewingPublicKey,
    keys.masterOutgoingViewingPublicKey,
    keys.masterTaggingPublicKey,
  ];
  if (points.every((p) => p.isInfinite)) return 0n;
  return poseidon2HashWithSeparator(
    points.flatMap((p) => [p.x, p.y, p.isInfinite ? 1n : 0n]),
    DomainSeparator.PUBLIC_KEYS_HASH,
  );
}

/** Returns poseidon2([salt, initializationHash, deployer], PARTIAL_ADDRESS). */
export function computeSaltedInitializationHash(i: {
  salt: bigint;
  initializationHash: bigint;
  deployer: bigint;
}): bigint {
  return poseidon2HashWithSeparator([i.salt, i.initializationHash, i.deployer], DomainSeparator.PARTIAL_ADDRESS);
}

/** Returns the partial address from the original class id and the salted initialization hash. */
export function computePartialAddress(originalContractClassId: bigint, saltedInitializationHash: bigint): bigint {
  return poseidon2HashWithSeparator(
    [originalContractClassId, saltedInitializationHash],
    DomainSeparator.PARTIAL_ADDRESS,
  );
}

/** Returns the address: x of `preaddress·G + ivpk_m`, preaddress = poseidon2([publicKeysHash, partialAddress]). */
export function computeAddress(keys: PublicKeys, partialAddress: bigint): bigint {
  const preaddress = poseidon2HashWithSeparator(
    [computePublicKeysHash(keys), partialAddress],
    DomainSeparator.CONTRACT_ADDRESS_V1,
  );
  const point = grumpkinAdd(grumpkinMul(GRUMPKIN_GENERATOR, preaddress), keys.masterIncomingViewingPublicKey);
  return point.x;
}

/** The fields of a contract instance that its address commits to. */
export interface ContractInstancePreimage {
  readonly salt: bigint;
  readonly deployer: bigint;
  readonly originalContractClassId: bigint;
  readonly initializationHash: bigint;
  readonly publicKeys: PublicKeys;
}

/** Returns the address of a contract instance. */
export function computeContractAddress(instance: ContractInstancePreimage): bigint {
  const salted = computeSaltedInitializationHash(instance);
  return computeAddress(instance.publicKeys, computePartialAddress(instance.originalContractClassId, salted));
}
