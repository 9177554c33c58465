/**
 * Node information values → wire JSON: L1 contract addresses (0x + 40 lowercase hex), protocol
 * contract addresses (Fr hex), gas fees (decimal strings) and setup allow-list elements.
 * @module
 */
import type * as Wire from '../../../generated/public/types.ts';
import type { GasFees } from '../../chain/types.ts';
import type { AllowedElement } from '../../execution/allow-list.ts';
import type { L1ContractAddresses } from '../../l1/l1-chain.ts';

const fr = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');
const eth = (x: bigint) => '0x' + x.toString(16).padStart(40, '0');

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
    rollupAddress: eth(a.rollupAddress), registryAddress: eth(a.registryAddress), inboxAddress: eth(a.inboxAddress),
    outboxAddress: eth(a.outboxAddress), feeJuiceAddress: eth(a.feeJuiceAddress), stakingAssetAddress: eth(a.stakingAssetAddress),
    feeJuicePortalAddress: eth(a.feeJuicePortalAddress), coinIssuerAddress: eth(a.coinIssuerAddress),
    rewardDistributorAddress: eth(a.rewardDistributorAddress), governanceProposerAddress: eth(a.governanceProposerAddress),
    governanceAddress: eth(a.governanceAddress),
  };
}

/** ProtocolContractAddresses → wire. */
export function toWireProtocolContractAddresses(a: ProtocolContractAddresses): Wire.ProtocolContractAddresses {
  return { classRegistry: fr(a.classRegistry), feeJuice: fr(a.feeJuice), instanceRegistry: fr(a.instanceRegistry), multiCallEntrypoint: fr(a.multiCallEntrypoint) };
}

/** GasFees → wire. */
export function toWireGasFees(g: GasFees): Wire.GasFees {
  return { feePerDaGas: g.feePerDaGas.toString(), feePerL2Gas: g.feePerL2Gas.toString() };
}

/** AllowedElement → wire: by address or by class id, selector as 0x + 8 hex, optional flags only when set. */
export function toWireAllowedElement(e: AllowedElement): Wire.AllowedElement {
  const common = {
    selector: '0x' + (e.selector >>> 0).toString(16).padStart(8, '0'),
    ...(e.onlySelf !== undefined && { onlySelf: e.onlySelf }),
    ...(e.rejectNullMsgSender !== undefined && { rejectNullMsgSender: e.rejectNullMsgSender }),
    ...(e.calldataLength !== undefined && { calldataLength: e.calldataLength }),
  };
  return 'address' in e ? { address: fr(e.address), ...common } : { classId: fr(e.classId), ...common };
}
