/**
 * Deterministic L1 contract addresses of the in-process L1: the CREATE addresses a fresh
 * anvil chain gives when its first default account (0xf39f…2266) deploys the contracts in this
 * order with nonces 0, 1, 2 … — the same addresses on every run and every machine.
 * @module
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { L1ContractAddresses } from './l1-chain.ts';

/** Anvil's first default account, the deployer. */
export const DEV_DEPLOYER = 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266n;

/** Deployment order: the nonce of each contract is its position. */
export const DEPLOYMENT_ORDER = [
  'registryAddress',
  'feeJuiceAddress',
  'stakingAssetAddress',
  'governanceProposerAddress',
  'governanceAddress',
  'coinIssuerAddress',
  'rewardDistributorAddress',
  'inboxAddress',
  'outboxAddress',
  'rollupAddress',
  'feeJuicePortalAddress',
] as const satisfies readonly (keyof L1ContractAddresses)[];

/** keccak256(rlp([deployer, nonce]))[12:] for nonces below 0x80. */
export function createAddress(deployer: bigint, nonce: number): bigint {
  if (nonce < 0 || nonce > 0x7f) throw new RangeError('nonce out of the single-byte RLP range');
  const rlp = new Uint8Array(23);
  rlp[0] = 0xd6;
  rlp[1] = 0x94;
  let d = deployer;
  for (let i = 21; i >= 2; i--) {
    rlp[i] = Number(d & 0xffn);
    d >>= 8n;
  }
  rlp[22] = nonce === 0 ? 0x80 : nonce;
  const h = keccak_256(rlp);
  let a = 0n;
  for (let i = 12; i < 32; i++) a = (a << 8n) | BigInt(h[i]!);
  return a;
}

/** The dev L1 contract addresses. */
export function devL1ContractAddresses(): L1ContractAddresses {
  const out: Record<string, bigint> = {};
  DEPLOYMENT_ORDER.forEach((name, nonce) => {
    out[name] = createAddress(DEV_DEPLOYER, nonce);
  });
  return out as unknown as L1ContractAddresses;
}
