/**
 * Committees and proposers, drawn deterministically from the registered validator set (the
 * genesis configuration, docs/KEYSTORE.md "Committee"). Every node with the same set computes the
 * same committee for an epoch and the same proposer for a slot, whoever runs the keys.
 *
 * seed(e)       = keccak256("l2node/committee" ‖ u256(e) ‖ sorted addresses)
 * committee(e)  = the first `size` entries of a Fisher–Yates shuffle of the sorted set, where step i
 *                 swaps with index i + keccak256(seed ‖ u256(i)) mod (n − i)
 * proposer(s)   = committee(epoch(s))[keccak256(seed ‖ "proposer" ‖ u256(s)) mod size]
 * @module
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import type { EthAddressHex } from './signer.ts';

/** Committee settings (fixed at genesis). */
export interface CommitteeConfig {
  /** Every registered attester; validators this node does not run are included. */
  readonly validatorSet: readonly string[];
  /** Members per epoch; the whole set when it is smaller. */
  readonly committeeSize: number;
  readonly slotsPerEpoch: number;
}

/** Committee and proposer lookups. */
export interface Committees {
  readonly validatorSet: readonly EthAddressHex[];
  committeeOf(epoch: number): readonly EthAddressHex[];
  proposerOf(slot: number): EthAddressHex | undefined;
  epochOfSlot(slot: number): number;
}

/** Big-endian 32-byte encoding of a non-negative integer. */
export function u256(n: number | bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = BigInt(n);
  for (let i = 31; i >= 0 && v > 0n; i--, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

function toBig(bytes: Uint8Array): bigint {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/** Creates the committee arithmetic over a validator set. */
export function createCommittees(config: CommitteeConfig): Committees {
  const set = [...new Set(config.validatorSet.map((a) => a.toLowerCase() as EthAddressHex))].sort();
  if (config.committeeSize < 1 || !Number.isInteger(config.committeeSize))
    throw new RangeError('committeeSize must be an integer >= 1');
  const setBytes = concatBytes(...set.map((a) => hexToBytes(a.slice(2))));
  const cache = new Map<number, { seed: Uint8Array; members: EthAddressHex[] }>();
  const draw = (epoch: number) => {
    let hit = cache.get(epoch);
    if (hit === undefined) {
      const seed = keccak_256(concatBytes(utf8ToBytes('l2node/committee'), u256(epoch), setBytes));
      const order = [...set];
      const size = Math.min(config.committeeSize, order.length);
      for (let i = 0; i < size; i++) {
        const j = i + Number(toBig(keccak_256(concatBytes(seed, u256(i)))) % BigInt(order.length - i));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
      hit = { seed, members: order.slice(0, size) };
      if (cache.size > 64) cache.clear();
      cache.set(epoch, hit);
    }
    return hit;
  };
  const epochOfSlot = (slot: number) => Math.floor(slot / config.slotsPerEpoch);
  return {
    validatorSet: set,
    epochOfSlot,
    committeeOf: (epoch) => draw(epoch).members,
    proposerOf(slot) {
      const { seed, members } = draw(epochOfSlot(slot));
      if (members.length === 0) return undefined;
      return members[
        Number(toBig(keccak_256(concatBytes(seed, utf8ToBytes('proposer'), u256(slot)))) % BigInt(members.length))
      ];
    },
  };
}

/** The digest committee members sign for a slot's checkpoint proposal. */
export function proposalDigest(slot: number, archiveRoot: bigint, proposer: string): Uint8Array {
  return keccak_256(
    concatBytes(
      utf8ToBytes('l2node/checkpoint-proposal'),
      u256(slot),
      u256(archiveRoot),
      hexToBytes(proposer.slice(2).toLowerCase()),
    ),
  );
}
