/**
 * secp256k1 keys as Ethereum uses them: the address of a private key (last 20 bytes of the
 * keccak-256 of the uncompressed public key), signatures over a 32-byte digest with a recovery
 * byte, and recovery of the signer's address from a signature.
 * @module
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';

/** A lowercase 0x-prefixed 20-byte address. */
export type EthAddressHex = `0x${string}`;

/** The Ethereum address of an uncompressed (65-byte) or compressed (33-byte) public key. */
export function addressOfPublicKey(publicKey: Uint8Array): EthAddressHex {
  const uncompressed = publicKey.length === 65 ? publicKey : secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return `0x${bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(12))}`;
}

/** The Ethereum address of a 32-byte private key. */
export function addressOfPrivateKey(privateKey: Uint8Array): EthAddressHex {
  return addressOfPublicKey(secp256k1.getPublicKey(privateKey, false));
}

/** True when `bytes` is a valid secp256k1 private key (1 ≤ k < n). */
export function isValidPrivateKey(bytes: Uint8Array): boolean {
  return bytes.length === 32 && secp256k1.utils.isValidSecretKey(bytes);
}

/** Signs a 32-byte digest (no further hashing); 65 bytes r‖s‖v with v = 27 + recovery bit. */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
  if (digest.length !== 32) throw new RangeError('digest must be 32 bytes');
  // noble's 'recovered' format is recovery‖r‖s; Ethereum's order is r‖s‖v.
  const rec = secp256k1.sign(digest, privateKey, { prehash: false, format: 'recovered' });
  const out = new Uint8Array(65);
  out.set(rec.subarray(1), 0);
  out[64] = 27 + rec[0]!;
  return out;
}

/** The address that produced a 65-byte r‖s‖v signature over `digest`, or undefined when invalid. */
export function recoverSigner(digest: Uint8Array, signature: Uint8Array): EthAddressHex | undefined {
  if (signature.length !== 65 || digest.length !== 32) return undefined;
  const v = signature[64]!;
  const bit = v >= 27 ? v - 27 : v;
  if (bit !== 0 && bit !== 1) return undefined;
  const rec = new Uint8Array(65);
  rec[0] = bit;
  rec.set(signature.subarray(0, 64), 1);
  try {
    return addressOfPublicKey(secp256k1.recoverPublicKey(rec, digest, { prehash: false }));
  } catch {
    return undefined;
  }
}

/** True when `signature` over `digest` was made by `address`. */
export function verifySigner(digest: Uint8Array, signature: Uint8Array, address: string): boolean {
  return recoverSigner(digest, signature) === address.toLowerCase();
}

/** Parses 0x + 64 hex digits into 32 bytes, or undefined. */
export function parsePrivateKeyHex(value: string): Uint8Array | undefined {
  if (!/^0x[0-9a-fA-F]{64}$/.test(value)) return undefined;
  const bytes = hexToBytes(value.slice(2));
  return isValidPrivateKey(bytes) ? bytes : undefined;
}
