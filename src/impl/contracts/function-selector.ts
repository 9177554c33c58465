/**
 * Function selectors (`FunctionSelector.fromSignature`) and a registry of known signatures that
 * turns selectors back into names for revert reasons and debug output (trees.json
 * `functionSelectors`).
 * @module
 */
import { poseidon2Hash } from '../crypto/poseidon2.ts';

const CHUNK = 31;

/**
 * Hashes bytes as Aztec's `poseidon2HashBytes`: 31-byte chunks, each read little-endian as a
 * field (the chunk is copied to the start of a zeroed 32-byte buffer that is then reversed).
 */
export function poseidon2HashBytes(bytes: Uint8Array): bigint {
  const fields: bigint[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) {
    let x = 0n;
    const end = Math.min(i + CHUNK, bytes.length);
    for (let j = end - 1; j >= i; j--) x = (x << 8n) | BigInt(bytes[j]!);
    fields.push(x);
  }
  return poseidon2Hash(fields);
}

/** Returns the 4-byte selector of a Noir function signature, e.g. `transfer(Field,Field)`. */
export function functionSelectorFromSignature(signature: string): number {
  const hash = poseidon2HashBytes(new TextEncoder().encode(signature));
  // The selector is the LAST 4 bytes of the big-endian hash (trees.json note).
  return Number(hash & 0xffffffffn);
}

/** Formats a selector as Aztec does on the wire: 0x + 8 lowercase hex digits. */
export function toSelectorHex(selector: number): string {
  return '0x' + (selector >>> 0).toString(16).padStart(8, '0');
}

/** Parses a 0x-hex selector (up to 8 digits). */
export function parseSelectorHex(s: string): number {
  if (!/^0x[0-9a-fA-F]{1,8}$/.test(s)) throw new RangeError(`not a function selector: ${s}`);
  return Number.parseInt(s.slice(2), 16) >>> 0;
}

/** Names of functions by selector, filled by `node_registerContractFunctionSignatures`. */
export class FunctionSignatureRegistry {
  readonly #names = new Map<number, string>();

  /** Registers signatures; returns the selectors they map to, in order. */
  registerFunctionSignatures(signatures: readonly string[]): number[] {
    return signatures.map((signature) => {
      const selector = functionSelectorFromSignature(signature);
      this.#names.set(selector, signature);
      return selector;
    });
  }

  /** Returns the registered signature for `selector`, or undefined. */
  findSignature(selector: number): string | undefined {
    return this.#names.get(selector >>> 0);
  }

  /** Returns the function name (the signature up to its parameter list), or undefined. */
  findName(selector: number): string | undefined {
    const sig = this.findSignature(selector);
    return sig === undefined ? undefined : sig.slice(0, sig.indexOf('(') < 0 ? sig.length : sig.indexOf('('));
  }
}
