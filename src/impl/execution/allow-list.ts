/**
 * The setup-phase allow-list: non-revertible (setup) calls may only target functions on it
 * (Aztec `AllowedElement`, `node_getAllowedPublicSetup`).
 * @module
 */

/** Fields both kinds of allow-list element share. */
interface AllowedCommon {
  readonly selector: number;
  /** Only when msg sender is the contract itself. */
  readonly onlySelf?: boolean;
  /** Not when msg sender is the zero address. */
  readonly rejectNullMsgSender?: boolean;
  /** Only with exactly this many calldata fields (selector included). */
  readonly calldataLength?: number;
}

/** An allowed setup function, by contract address or by contract class id. */
export type AllowedElement =
  | (AllowedCommon & { readonly address: bigint })
  | (AllowedCommon & { readonly classId: bigint });

/** The parts of a setup call the allow-list judges. */
export interface SetupCallFacts {
  readonly contractAddress: bigint;
  readonly classId: bigint | undefined;
  readonly msgSender: bigint;
  readonly calldata: readonly bigint[];
}

/** Returns true when an element of `allowList` admits the call. */
export function isAllowedSetupCall(call: SetupCallFacts, allowList: readonly AllowedElement[]): boolean {
  const selector = call.calldata[0];
  return allowList.some((e) => {
    const target = 'address' in e ? e.address === call.contractAddress : e.classId === call.classId;
    return (
      target &&
      selector === BigInt(e.selector) &&
      (!e.onlySelf || call.msgSender === call.contractAddress) &&
      (!e.rejectNullMsgSender || call.msgSender !== 0n) &&
      (e.calldataLength === undefined || call.calldata.length === e.calldataLength)
    );
  });
}
