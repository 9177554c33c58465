/**
 * The node's public-setup allow-list: the default elements (FeeJuice and AuthRegistry functions a
 * fee payment runs in setup, as Aztec's default list) plus an operator extension
 * (`txPublicSetupAllowListExtend`, set live through nodeAdmin_setConfig). Read per validation.
 * @module
 */
import { PROTOCOL_CONTRACT_ADDRESSES } from './chain/protocol.ts';
import { functionSelectorFromSignature, parseSelectorHex } from './contracts/function-selector.ts';
import type { AllowedElement } from './execution/allow-list.ts';

/** AuthRegistry's canonical address (not in PROTOCOL_CONTRACT_ADDRESSES, which lists the exposed ones). */
const AUTH_REGISTRY_ADDRESS = 1n;

/** The allow-list every node starts with: functions fee payment calls in the setup phase. */
export function defaultSetupAllowList(): AllowedElement[] {
  return [
    {
      address: PROTOCOL_CONTRACT_ADDRESSES.feeJuice,
      selector: functionSelectorFromSignature('_increase_public_balance((Field),u128)'),
      onlySelf: true,
    },
    {
      address: AUTH_REGISTRY_ADDRESS,
      selector: functionSelectorFromSignature('_set_authorized((Field),Field,bool)'),
      onlySelf: true,
    },
    { address: AUTH_REGISTRY_ADDRESS, selector: functionSelectorFromSignature('set_authorized(Field,bool)') },
  ];
}

/** An extension element as the admin configuration holds it (wire form). */
export interface WireAllowedElementLike {
  readonly address?: string;
  readonly classId?: string;
  readonly selector: string;
  readonly onlySelf?: boolean;
  readonly rejectNullMsgSender?: boolean;
  readonly calldataLength?: number;
}

/** Converts a wire allow-list element to the engine's form. */
export function fromWireAllowedElement(e: WireAllowedElementLike): AllowedElement {
  const common = {
    selector: parseSelectorHex(e.selector),
    ...(e.onlySelf === undefined ? {} : { onlySelf: e.onlySelf }),
    ...(e.rejectNullMsgSender === undefined ? {} : { rejectNullMsgSender: e.rejectNullMsgSender }),
    ...(e.calldataLength === undefined ? {} : { calldataLength: e.calldataLength }),
  };
  if (e.address !== undefined) return { ...common, address: BigInt(e.address) };
  if (e.classId !== undefined) return { ...common, classId: BigInt(e.classId) };
  throw new RangeError('an allow-list element needs an address or a classId');
}

/** The live allow-list: defaults plus the current extension. */
export class SetupAllowList {
  readonly #defaults: readonly AllowedElement[];
  #extension: readonly AllowedElement[] = [];

  constructor(defaults: readonly AllowedElement[] = defaultSetupAllowList()) {
    this.#defaults = defaults;
  }

  /** Defaults first, then the extension (node_getAllowedPublicSetup's order). */
  list(): readonly AllowedElement[] {
    return [...this.#defaults, ...this.#extension];
  }

  /** Replaces the extension (nodeAdmin_setConfig txPublicSetupAllowListExtend). */
  setExtension(extra: readonly WireAllowedElementLike[]): void {
    this.#extension = extra.map(fromWireAllowedElement);
  }
}
