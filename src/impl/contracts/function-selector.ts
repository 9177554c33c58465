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

/** Bounds of a registry (docs/OPERATIONS.md "Browser safety and hostile callers"). */
export interface SignatureRegistryLimits {
  /** Most signatures kept. */
  readonly maxEntries: number;
  /** Most UTF-8 bytes of signature text kept. */
  readonly maxBytes: number;
}

/**
 * The default bounds: far more than the functions of every contract a wallet uses, and small
 * enough (about 2 MB with the maps) that anonymous callers cannot grow the node's memory with it.
 */
export const DEFAULT_SIGNATURE_LIMITS: SignatureRegistryLimits = { maxEntries: 10_000, maxBytes: 1 << 20 };

/**
 * Names of functions by selector, filled by `node_registerContractFunctionSignatures` (anyone may
 * call it) and by the node's own programs. Bounded: past `limits` the least recently registered
 * signatures are forgotten (they only name functions in debug output).
 */
export class FunctionSignatureRegistry {
  /** selector → signature, least recently registered first. */
  readonly #names = new Map<number, string>();
  /** signature → selector: a signature registered again is not hashed again. */
  readonly #selectors = new Map<string, number>();
  #bytes = 0;
  readonly #limits: SignatureRegistryLimits;

  constructor(limits: SignatureRegistryLimits = DEFAULT_SIGNATURE_LIMITS) {
    this.#limits = limits;
  }

  /** Signatures kept now. */
  get size(): number {
    return this.#names.size;
  }

  /** UTF-8 bytes of the signatures kept now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Registers signatures; returns the selectors they map to, in order. */
  registerFunctionSignatures(signatures: readonly string[]): number[] {
    return signatures.map((signature) => this.#register(signature));
  }

  #register(signature: string): number {
    const known = this.#selectors.get(signature);
    const selector = known ?? functionSelectorFromSignature(signature);
    const previous = this.#names.get(selector);
    // Also when it is the same signature: re-inserting makes it the most recent.
    if (previous !== undefined) this.#forget(selector, previous);
    this.#names.set(selector, signature);
    this.#selectors.set(signature, selector);
    this.#bytes += Buffer.byteLength(signature);
    while (this.#names.size > this.#limits.maxEntries || this.#bytes > this.#limits.maxBytes) {
      const [oldest, text] = this.#names.entries().next().value!;
      this.#forget(oldest, text);
    }
    return selector;
  }

  #forget(selector: number, signature: string): void {
    this.#names.delete(selector);
    this.#selectors.delete(signature);
    this.#bytes -= Buffer.byteLength(signature);
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
