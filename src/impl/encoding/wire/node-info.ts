/**
 * Node information values → wire JSON: L1 contract addresses (0x + 40 lowercase hex), protocol
 * contract addresses (Fr hex) and setup allow-list elements (gas fees: headers.ts).
 * @module
 */
import type * as Wire from '../../../generated/public/types.ts';
import type { AllowedElement } from '../../execution/allow-list.ts';
import type { L1ContractAddresses } from '../../l1/l1-chain.ts';
import { hex20, hex32 } from '../../encoding/hex.ts';
import { toSelectorHex } from '../../contracts/function-selector.ts';

/** The L2 protocol contract addresses, as the engine holds them. */
export interface ProtocolContractAddresses {
  readonly classRegistry: bigint;
  readonly feeJuice: bigint;
  readonly instanceRegistry: bigint;
  readonly multiCallEntrypoint: bigint;
}

/** L1ContractAddresses → wire; optional contracts the engine does not have are omitted. */
export function toWireL1ContractAddresses(a: L1ContractAddresses): Wire.L1ContractAddresses {
  return {
    rollupAddress: hex20(a.rollupAddress),
    registryAddress: hex20(a.registryAddress),
    inboxAddress: hex20(a.inboxAddress),
    outboxAddress: hex20(a.outboxAddress),
    feeJuiceAddress: hex20(a.feeJuiceAddress),
    stakingAssetAddress: hex20(a.stakingAssetAddress),
    feeJuicePortalAddress: hex20(a.feeJuicePortalAddress),
    coinIssuerAddress: hex20(a.coinIssuerAddress),
    rewardDistributorAddress: hex20(a.rewardDistributorAddress),
    governanceProposerAddress: hex20(a.governanceProposerAddress),
    governanceAddress: hex20(a.governanceAddress),
  };
}

/** ProtocolContractAddresses → wire. */
export function toWireProtocolContractAddresses(a: ProtocolContractAddresses): Wire.ProtocolContractAddresses {
  return {
    classRegistry: hex32(a.classRegistry),
    feeJuice: hex32(a.feeJuice),
    instanceRegistry: hex32(a.instanceRegistry),
    multiCallEntrypoint: hex32(a.multiCallEntrypoint),
  };
}

/** AllowedElement → wire: by address or by class id, selector as 0x + 8 hex, optional flags only when set. */
export function toWireAllowedElement(e: AllowedElement): Wire.AllowedElement {
  const common = {
    selector: toSelectorHex(e.selector),
    ...(e.onlySelf !== undefined && { onlySelf: e.onlySelf }),
    ...(e.rejectNullMsgSender !== undefined && { rejectNullMsgSender: e.rejectNullMsgSender }),
    ...(e.calldataLength !== undefined && { calldataLength: e.calldataLength }),
  };
  return 'address' in e ? { address: hex32(e.address), ...common } : { classId: hex32(e.classId), ...common };
}
