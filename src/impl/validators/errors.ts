/**
 * Domain errors of the validator record; src/impl/rpc/wire-errors.ts maps them to the wire.
 * @module
 */

/** A stats range wider than the slot window the node keeps. */
export class SlotRangeTooWide extends Error {
  readonly fromSlot: bigint;
  readonly toSlot: bigint;
  readonly maxSlots: number;
  constructor(fromSlot: bigint, toSlot: bigint, maxSlots: number) {
    super(`Slot range ${fromSlot}..${toSlot} exceeds the slot window of ${maxSlots}`);
    this.name = 'SlotRangeTooWide';
    this.fromSlot = fromSlot;
    this.toSlot = toSlot;
    this.maxSlots = maxSlots;
  }
}

/** A parameter that breaks a rule the schema cannot express, e.g. toSlot < fromSlot. */
export class ParamRuleBroken extends Error {
  readonly param: string;
  readonly index: number;
  readonly rule: string;
  constructor(param: string, index: number, rule: string) {
    super(`params[${index}] (${param}): ${rule}`);
    this.name = 'ParamRuleBroken';
    this.param = param;
    this.index = index;
    this.rule = rule;
  }
}
