/**
 * Consensus gossip: the checkpoint proposal a slot's proposer sends once its slot's blocks are
 * sealed, and the attestations committee members send back. Both carry the same signed payload
 * (slot, archive root after the checkpoint's last block, proposer), signed with secp256k1 as
 * 65-byte r‖s‖v. The frames are fixed-size binary, so a malformed one is refused before any
 * signature work. Layouts: docs/P2P.md, "Proposals and attestations".
 * @module
 */

/** Gossip topic of checkpoint proposals. */
export function proposalTopic(network: string): string {
  return `/l2node/${network}/checkpoint-proposal/1/bin`;
}

/** Gossip topic of checkpoint attestations. */
export function attestationTopic(network: string): string {
  return `/l2node/${network}/checkpoint-attestation/1/bin`;
}

/** A proposer's signed claim: its slot's checkpoint ends at `blockNumber` with this archive root. */
export interface CheckpointProposal {
  readonly slot: number;
  /** The checkpoint's last block: where a receiver finds it in its own chain. */
  readonly blockNumber: number;
  readonly blockHash: bigint;
  /** Archive root after `blockNumber` (it commits to every block hash up to it). */
  readonly archive: bigint;
  /** Lowercase 0x + 40 hex: the attester address of the slot's proposer. */
  readonly proposer: string;
  /** 65 bytes r‖s‖v over `proposalDigest(slot, archive, proposer)`. */
  readonly signature: Uint8Array;
}

/** A committee member's signature over a proposal's payload. */
export interface CheckpointAttestation {
  readonly slot: number;
  readonly archive: bigint;
  readonly proposer: string;
  /** Lowercase 0x + 40 hex: the committee member that signed. */
  readonly attester: string;
  /** 65 bytes r‖s‖v over `proposalDigest(slot, archive, proposer)`. */
  readonly signature: Uint8Array;
}

const VERSION = 1;
const PROPOSAL_BYTES = 1 + 8 + 8 + 32 + 32 + 20 + 65;
const ATTESTATION_BYTES = 1 + 8 + 32 + 20 + 20 + 65;
const FIELD_LIMIT = 1n << 256n;

class Writer {
  readonly bytes: Uint8Array;
  readonly #view: DataView;
  #at = 0;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
    this.#view = new DataView(this.bytes.buffer);
  }
  u8(v: number): this {
    this.bytes[this.#at++] = v;
    return this;
  }
  u64(v: number): this {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`p2p: ${v} is not a u64`);
    this.#view.setBigUint64(this.#at, BigInt(v));
    this.#at += 8;
    return this;
  }
  word(v: bigint): this {
    if (v < 0n || v >= FIELD_LIMIT) throw new RangeError('p2p: value does not fit 32 bytes');
    for (let i = 31; i >= 0; i--, v >>= 8n) this.bytes[this.#at + i] = Number(v & 0xffn);
    this.#at += 32;
    return this;
  }
  address(a: string): this {
    if (!/^0x[0-9a-fA-F]{40}$/.test(a)) throw new RangeError(`p2p: ${a} is not a 20-byte address`);
    for (let i = 0; i < 20; i++) this.bytes[this.#at + i] = parseInt(a.slice(2 + 2 * i, 4 + 2 * i), 16);
    this.#at += 20;
    return this;
  }
  raw(b: Uint8Array, length: number): this {
    if (b.length !== length) throw new RangeError(`p2p: expected ${length} bytes, got ${b.length}`);
    this.bytes.set(b, this.#at);
    this.#at += length;
    return this;
  }
}

class Reader {
  readonly #b: Uint8Array;
  readonly #view: DataView;
  #at = 0;
  constructor(b: Uint8Array) {
    this.#b = b;
    this.#view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  u8(): number {
    return this.#b[this.#at++]!;
  }
  u64(): number | undefined {
    const v = this.#view.getBigUint64(this.#at);
    this.#at += 8;
    return v > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(v);
  }
  word(): bigint {
    let v = 0n;
    for (let i = 0; i < 32; i++) v = (v << 8n) | BigInt(this.#b[this.#at + i]!);
    this.#at += 32;
    return v;
  }
  address(): string {
    let s = '0x';
    for (let i = 0; i < 20; i++) s += this.#b[this.#at + i]!.toString(16).padStart(2, '0');
    this.#at += 20;
    return s;
  }
  raw(length: number): Uint8Array {
    // A copy as a plain Uint8Array (libp2p hands in Buffers, whose slices stay Buffers).
    const out = new Uint8Array(this.#b.subarray(this.#at, this.#at + length));
    this.#at += length;
    return out;
  }
}

/** version 1 ‖ u64 slot ‖ u64 block number ‖ 32 block hash ‖ 32 archive ‖ 20 proposer ‖ 65 signature. */
export function encodeProposal(p: CheckpointProposal): Uint8Array {
  return new Writer(PROPOSAL_BYTES)
    .u8(VERSION)
    .u64(p.slot)
    .u64(p.blockNumber)
    .word(p.blockHash)
    .word(p.archive)
    .address(p.proposer)
    .raw(p.signature, 65).bytes;
}

/** Decodes a proposal frame, or undefined when its size, version or numbers are wrong. */
export function decodeProposal(data: Uint8Array): CheckpointProposal | undefined {
  if (data.length !== PROPOSAL_BYTES) return undefined;
  const r = new Reader(data);
  if (r.u8() !== VERSION) return undefined;
  const slot = r.u64(),
    blockNumber = r.u64();
  if (slot === undefined || blockNumber === undefined) return undefined;
  return { slot, blockNumber, blockHash: r.word(), archive: r.word(), proposer: r.address(), signature: r.raw(65) };
}

/** version 1 ‖ u64 slot ‖ 32 archive ‖ 20 proposer ‖ 20 attester ‖ 65 signature. */
export function encodeAttestation(a: CheckpointAttestation): Uint8Array {
  return new Writer(ATTESTATION_BYTES)
    .u8(VERSION)
    .u64(a.slot)
    .word(a.archive)
    .address(a.proposer)
    .address(a.attester)
    .raw(a.signature, 65).bytes;
}

/** Decodes an attestation frame, or undefined when its size, version or slot are wrong. */
export function decodeAttestation(data: Uint8Array): CheckpointAttestation | undefined {
  if (data.length !== ATTESTATION_BYTES) return undefined;
  const r = new Reader(data);
  if (r.u8() !== VERSION) return undefined;
  const slot = r.u64();
  if (slot === undefined) return undefined;
  return { slot, archive: r.word(), proposer: r.address(), attester: r.address(), signature: r.raw(65) };
}
