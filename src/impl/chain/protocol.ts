/**
 * Protocol constants the chain needs: canonical protocol contract addresses (reference §1.3),
 * the FeeJuice balance slot derivation (reference §4.3, trees.json `feeJuiceBalance`) and the
 * L2→L1 message hash (trees.json `siloing.computeL2ToL1MessageHash`).
 * @module
 */
import { fieldToBytes } from '../crypto/field.ts';
import { sha256ToField } from '../crypto/sha256-to-field.ts';
import { computePublicDataTreeLeafSlot, deriveStorageSlotInMap } from '../world-state/slots.ts';

/** Canonical protocol contract addresses of 4.1.2 (AuthRegistry 1 and PublicChecks 6 are not exposed). */
export const PROTOCOL_CONTRACT_ADDRESSES = {
  classRegistry: 3n,
  feeJuice: 5n,
  instanceRegistry: 2n,
  multiCallEntrypoint: 4n,
} as const;

/** Storage slot of FeeJuice's public `balances` map. */
export const FEE_JUICE_BALANCES_SLOT = 1n;
/**
 * Balance slots already derived, by account: two Poseidon2 hashes per call, and a block asks for
 * its fee recipient's and each tx's fee payer's (issue #21: ~0.2 ms a tx on the block's one stretch
 * of the event loop), mostly the same few accounts. Bounded; the oldest derived goes first.
 */
const balanceSlots = new Map<bigint, bigint>();
const BALANCE_SLOTS_KEPT = 4096;

/** The public data leaf slot holding `account`'s FeeJuice balance. */
export function feeJuiceBalanceLeafSlot(account: bigint): bigint {
  let slot = balanceSlots.get(account);
  if (slot === undefined) {
    slot = computePublicDataTreeLeafSlot(
      PROTOCOL_CONTRACT_ADDRESSES.feeJuice,
      deriveStorageSlotInMap(FEE_JUICE_BALANCES_SLOT, account),
    );
    if (balanceSlots.size >= BALANCE_SLOTS_KEPT) balanceSlots.delete(balanceSlots.keys().next().value!);
    balanceSlots.set(account, slot);
  }
  return slot;
}

/** computeL2ToL1MessageHash: sha256ToField(sender ‖ version ‖ recipient(20 bytes) ‖ chainId ‖ content). */
export function l2ToL1MessageHash(m: {
  sender: bigint;
  recipient: bigint;
  content: bigint;
  rollupVersion: bigint;
  chainId: bigint;
}): bigint {
  const buf = new Uint8Array(148);
  fieldToBytes(m.sender, buf, 0);
  fieldToBytes(m.rollupVersion, buf, 32);
  let r = m.recipient;
  for (let i = 19; i >= 0; i--) {
    buf[64 + i] = Number(r & 0xffn);
    r >>= 8n;
  }
  fieldToBytes(m.chainId, buf, 84);
  fieldToBytes(m.content, buf, 116);
  return sha256ToField(buf);
}

/**
 * The L1→L2 message leaf as the Aztec Inbox computes it (`Hash.sha256ToField(L1ToL2Msg)`):
 * sha256ToField(abi.encode(sender, l1ChainId, recipient, rollupVersion, content, secretHash, index)),
 * seven 32-byte words (the 20-byte sender left-padded). `index` is the inbox index of the message.
 */
export function l1ToL2MessageHash(m: {
  sender: bigint;
  chainId: bigint;
  recipient: bigint;
  rollupVersion: bigint;
  content: bigint;
  secretHash: bigint;
  index: bigint;
}): bigint {
  const buf = new Uint8Array(7 * 32);
  [m.sender, m.chainId, m.recipient, m.rollupVersion, m.content, m.secretHash, m.index].forEach((w, i) => {
    fieldToBytes(w, buf, 32 * i);
  });
  return sha256ToField(buf);
}
