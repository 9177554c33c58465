/**
 * A big-endian writer into a buffer of known size, the inverse of `ByteReader`. Values out of
 * range are programming errors here (decoded structures are always in range), so it throws
 * `RangeError`.
 * @module
 */
import { FIELD_MODULUS } from '../crypto/field.ts';
import { BYTES } from './constants.ts';

const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;
const ETH_ADDRESS_MAX = (1n << 160n) - 1n;

/** Writes primitives in order into a buffer of exactly `size` bytes. */
export class ByteWriter {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  #offset = 0;

  constructor(size: number) {
    this.#bytes = new Uint8Array(size);
    this.#view = new DataView(this.#bytes.buffer);
  }

  /** Writes a field element as 32 bytes. */
  writeField(x: bigint): void {
    if (x < 0n || x >= FIELD_MODULUS) throw new RangeError(`not a field element: ${x}`);
    const at = this.#take(BYTES.field);
    const v = this.#view;
    v.setBigUint64(at, x >> 192n);
    v.setBigUint64(at + 8, (x >> 128n) & U64_MAX);
    v.setBigUint64(at + 16, (x >> 64n) & U64_MAX);
    v.setBigUint64(at + 24, x & U64_MAX);
  }

  /** Writes a u32. */
  writeU32(x: number): void {
    if (!Number.isInteger(x) || x < 0 || x > 0xffffffff) throw new RangeError(`not a u32: ${x}`);
    this.#view.setUint32(this.#take(BYTES.u32), x);
  }

  /** Writes a u64. */
  writeU64(x: bigint): void {
    if (x < 0n || x > U64_MAX) throw new RangeError(`not a u64: ${x}`);
    this.#view.setBigUint64(this.#take(BYTES.u64), x);
  }

  /** Writes a u128. */
  writeU128(x: bigint): void {
    if (x < 0n || x > U128_MAX) throw new RangeError(`not a u128: ${x}`);
    const at = this.#take(BYTES.u128);
    this.#view.setBigUint64(at, x >> 64n);
    this.#view.setBigUint64(at + 8, x & U64_MAX);
  }

  /** Writes a 20-byte L1 address. */
  writeEthAddress(x: bigint): void {
    if (x < 0n || x > ETH_ADDRESS_MAX) throw new RangeError(`not a 20-byte address: ${x}`);
    const at = this.#take(BYTES.ethAddress);
    this.#view.setBigUint64(at, x >> 96n);
    this.#view.setBigUint64(at + 8, (x >> 32n) & U64_MAX);
    this.#view.setUint32(at + 16, Number(x & 0xffffffffn));
  }

  /** Writes a bool as 0x00 / 0x01. */
  writeBool(b: boolean): void {
    this.#bytes[this.#take(BYTES.bool)] = b ? 1 : 0;
  }

  /** Returns the buffer; throws unless it was filled exactly. */
  finish(): Uint8Array {
    if (this.#offset !== this.#bytes.length) {
      throw new RangeError(`wrote ${this.#offset} of ${this.#bytes.length} bytes`);
    }
    return this.#bytes;
  }

  #take(size: number): number {
    const at = this.#offset;
    if (at + size > this.#bytes.length) throw new RangeError(`write past the end at byte ${at}`);
    this.#offset = at + size;
    return at;
  }
}
