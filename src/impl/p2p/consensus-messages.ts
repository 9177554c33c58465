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
const FIELD_LIMIT = 1n << 256n;

/** How one frame field is written: u64 big-endian, a 32-byte word, a 20-byte address, a 65-byte signature. */
type FieldKind = 'u64' | 'word' | 'address' | 'signature';
const FIELD_BYTES: Readonly<Record<FieldKind, number>> = { u64: 8, word: 32, address: 20, signature: 65 };

/** A frame: the version byte, then these fields of `T` in order. */
type FrameLayout<T> = readonly (readonly [keyof T & string, FieldKind])[];

const PROPOSAL_LAYOUT: FrameLayout<CheckpointProposal> = [
  ['slot', 'u64'],
  ['blockNumber', 'u64'],
  ['blockHash', 'word'],
  ['archive', 'word'],
  ['proposer', 'address'],
  ['signature', 'signature'],
];
const ATTESTATION_LAYOUT: FrameLayout<CheckpointAttestation> = [
  ['slot', 'u64'],
  ['archive', 'word'],
  ['proposer', 'address'],
  ['attester', 'address'],
  ['signature', 'signature'],
];

function frameBytes<T>(layout: FrameLayout<T>): number {
  return layout.reduce((n, [, kind]) => n + FIELD_BYTES[kind], 1);
}

function encodeFrame<T>(layout: FrameLayout<T>, message: T): Uint8Array {
  const out = new Uint8Array(frameBytes(layout));
  const view = new DataView(out.buffer);
  out[0] = VERSION;
  let at = 1;
  for (const [name, kind] of layout) {
    const v = message[name] as unknown;
    if (kind === 'u64') {
      if (!Number.isSafeInteger(v) || (v as number) < 0) throw new RangeError(`p2p: ${v} is not a u64`);
      view.setBigUint64(at, BigInt(v as number));
    } else if (kind === 'word') {
      let w = v as bigint;
      if (w < 0n || w >= FIELD_LIMIT) throw new RangeError('p2p: value does not fit 32 bytes');
      for (let i = 31; i >= 0; i--, w >>= 8n) out[at + i] = Number(w & 0xffn);
    } else if (kind === 'address') {
      const a = v as string;
      if (!/^0x[0-9a-fA-F]{40}$/.test(a)) throw new RangeError(`p2p: ${a} is not a 20-byte address`);
      for (let i = 0; i < 20; i++) out[at + i] = parseInt(a.slice(2 + 2 * i, 4 + 2 * i), 16);
    } else {
      const b = v as Uint8Array;
      if (b.length !== FIELD_BYTES.signature)
        throw new RangeError(`p2p: expected ${FIELD_BYTES.signature} bytes, got ${b.length}`);
      out.set(b, at);
    }
    at += FIELD_BYTES[kind];
  }
  return out;
}

/** The message in `data`, or undefined when its size or version is wrong or a u64 is above 2^53. */
function decodeFrame<T>(layout: FrameLayout<T>, data: Uint8Array): T | undefined {
  if (data.length !== frameBytes(layout) || data[0] !== VERSION) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const message: Record<string, unknown> = {};
  let at = 1;
  for (const [name, kind] of layout) {
    if (kind === 'u64') {
      const v = view.getBigUint64(at);
      if (v > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
      message[name] = Number(v);
    } else if (kind === 'word') {
      let v = 0n;
      for (let i = 0; i < 32; i++) v = (v << 8n) | BigInt(data[at + i]!);
      message[name] = v;
    } else if (kind === 'address') {
      let a = '0x';
      for (let i = 0; i < 20; i++) a += data[at + i]!.toString(16).padStart(2, '0');
      message[name] = a;
    } else {
      // A copy as a plain Uint8Array (libp2p hands in Buffers, whose slices stay Buffers).
      message[name] = new Uint8Array(data.subarray(at, at + FIELD_BYTES.signature));
    }
    at += FIELD_BYTES[kind];
  }
  return message as T;
}

/** version 1 ‖ u64 slot ‖ u64 block number ‖ 32 block hash ‖ 32 archive ‖ 20 proposer ‖ 65 signature. */
export function encodeProposal(p: CheckpointProposal): Uint8Array {
  return encodeFrame(PROPOSAL_LAYOUT, p);
}

/** Decodes a proposal frame, or undefined when its size, version or numbers are wrong. */
export function decodeProposal(data: Uint8Array): CheckpointProposal | undefined {
  return decodeFrame(PROPOSAL_LAYOUT, data);
}

/** version 1 ‖ u64 slot ‖ 32 archive ‖ 20 proposer ‖ 20 attester ‖ 65 signature. */
export function encodeAttestation(a: CheckpointAttestation): Uint8Array {
  return encodeFrame(ATTESTATION_LAYOUT, a);
}

/** Decodes an attestation frame, or undefined when its size, version or slot are wrong. */
export function decodeAttestation(data: Uint8Array): CheckpointAttestation | undefined {
  return decodeFrame(ATTESTATION_LAYOUT, data);
}
