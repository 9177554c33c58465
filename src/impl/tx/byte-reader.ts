/**
 * A big-endian cursor over `Tx.data` / `Tx.chonkProof` bytes that turns every short read,
 * out-of-range value and leftover byte into a `TxDecodeError` naming the field (TX-FORMAT §2.1).
 * @module
 */
import { FIELD_MODULUS } from '../crypto/field.ts';
import { BYTES } from './constants.ts';
import { TxDecodeError } from './errors.ts';

/** Reads primitives in order; `path` arguments are relative to the root path given at creation. */
export class ByteReader {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  readonly #root: string;
  #offset = 0;

  /** `root` names the whole buffer in errors, e.g. `tx.data`. */
  constructor(bytes: Uint8Array, root: string) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#root = root;
  }

  /** The next byte to read. */
  get offset(): number {
    return this.#offset;
  }

  /** Reads a 32-byte field element; it must be below the field modulus (`Fr.fromBuffer` throws too). */
  readField(path: string): bigint {
    const at = this.#take(BYTES.field, path);
    const v = this.#view;
    const x =
      (v.getBigUint64(at) << 192n) |
      (v.getBigUint64(at + 8) << 128n) |
      (v.getBigUint64(at + 16) << 64n) |
      v.getBigUint64(at + 24);
    if (x >= FIELD_MODULUS) throw new TxDecodeError(this.#path(path), `value >= field modulus (at byte ${at})`);
    return x;
  }

  /** Reads a u32. */
  readU32(path: string): number {
    return this.#view.getUint32(this.#take(BYTES.u32, path));
  }

  /** Reads a u64. */
  readU64(path: string): bigint {
    return this.#view.getBigUint64(this.#take(BYTES.u64, path));
  }

  /** Reads a u128. */
  readU128(path: string): bigint {
    const at = this.#take(BYTES.u128, path);
    return (this.#view.getBigUint64(at) << 64n) | this.#view.getBigUint64(at + 8);
  }

  /** Reads a raw 20-byte L1 address as a number. */
  readEthAddress(path: string): bigint {
    const at = this.#take(BYTES.ethAddress, path);
    const v = this.#view;
    return (v.getBigUint64(at) << 96n) | (v.getBigUint64(at + 8) << 32n) | BigInt(v.getUint32(at + 16));
  }

  /**
   * Reads a bool. The package reads any non-zero byte as true, but such a byte would not
   * re-encode to itself, so only 0x00 and 0x01 are accepted.
   */
  readBool(path: string): boolean {
    const at = this.#take(BYTES.bool, path);
    const b = this.#bytes[at];
    if (b > 1)
      throw new TxDecodeError(
        this.#path(path),
        `bool byte must be 0x00 or 0x01, got 0x${b.toString(16).padStart(2, '0')} (at byte ${at})`,
      );
    return b === 1;
  }

  /** Throws unless every byte was consumed (the layouts have fixed sizes, TX-FORMAT §2.2). */
  assertEnd(): void {
    const left = this.#bytes.length - this.#offset;
    if (left !== 0) throw new TxDecodeError(this.#root, `${left} trailing bytes`);
  }

  #take(size: number, path: string): number {
    const at = this.#offset;
    const left = this.#bytes.length - at;
    if (left < size) {
      throw new TxDecodeError(this.#root, `truncated at byte ${at} (needed ${size - left} more) reading ${path}`);
    }
    this.#offset = at + size;
    return at;
  }

  #path(rel: string): string {
    return rel === '' ? this.#root : `${this.#root}.${rel}`;
  }
}
