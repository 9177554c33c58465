/**
 * A journaled overlay over committed state: storage writes and side effects go to an undo log so
 * that a reverted call frame (or phase) is rolled back exactly, while reads see the overlay first.
 * @module
 */
import { computePublicDataLeafSlot, siloNoteHash, siloNullifier } from '../contracts/siloing.ts';
import type {
  ContractCode,
  MaybePromise,
  PublicLog,
  PublicStateSource,
  PublicVmHost,
  ScopedL2ToL1Message,
  SideEffects,
} from './types.ts';

type Undo = { readonly leafSlot: bigint; readonly had: boolean; readonly prev: bigint };

interface Mark {
  readonly undo: number;
  readonly noteHashes: number;
  readonly nullifiers: number;
  readonly msgs: number;
  readonly logs: number;
}

/** The VM host over a PublicStateSource, with checkpoint/commit/rollback per call frame. */
export class JournaledState implements PublicVmHost {
  readonly #source: PublicStateSource;
  readonly #writes = new Map<bigint, bigint>();
  readonly #undo: Undo[] = [];
  readonly #noteHashes: bigint[] = [];
  readonly #nullifiers: bigint[] = [];
  readonly #nullifierSet = new Set<bigint>();
  readonly #msgs: ScopedL2ToL1Message[] = [];
  readonly #logs: PublicLog[] = [];
  readonly #marks: Mark[] = [];
  /** Leaf slots by contract and slot: a read-modify-write of one slot hashes once, not twice. */
  readonly #leafSlots = new Map<bigint, Map<bigint, bigint>>();

  constructor(source: PublicStateSource) {
    this.#source = source;
  }

  getContract(address: bigint): MaybePromise<ContractCode | undefined> {
    return this.#source.getContract(address);
  }

  #leafSlot(contract: bigint, slot: bigint): bigint {
    let slots = this.#leafSlots.get(contract);
    if (slots === undefined) this.#leafSlots.set(contract, (slots = new Map()));
    let leafSlot = slots.get(slot);
    if (leafSlot === undefined) slots.set(slot, (leafSlot = computePublicDataLeafSlot(contract, slot)));
    return leafSlot;
  }

  readStorage(contract: bigint, slot: bigint): MaybePromise<bigint> {
    const leafSlot = this.#leafSlot(contract, slot);
    const v = this.#writes.get(leafSlot);
    return v !== undefined ? v : this.#source.readPublicData(leafSlot);
  }

  writeStorage(contract: bigint, slot: bigint, value: bigint): void {
    this.writeLeaf(this.#leafSlot(contract, slot), value);
  }

  /** Writes a public data leaf directly (the fee payment and protocol writes use this). */
  writeLeaf(leafSlot: bigint, value: bigint): void {
    const prev = this.#writes.get(leafSlot);
    this.#undo.push({ leafSlot, had: prev !== undefined, prev: prev ?? 0n });
    this.#writes.set(leafSlot, value);
  }

  /** Reads a public data leaf through the overlay. */
  readLeaf(leafSlot: bigint): MaybePromise<bigint> {
    const v = this.#writes.get(leafSlot);
    return v !== undefined ? v : this.#source.readPublicData(leafSlot);
  }

  nullifierExists(contract: bigint, innerNullifier: bigint): MaybePromise<boolean> {
    return this.hasSiloedNullifier(siloNullifier(contract, innerNullifier));
  }

  /** True when the siloed nullifier was emitted in this tx or is in the tree. */
  hasSiloedNullifier(siloed: bigint): MaybePromise<boolean> {
    return this.#nullifierSet.has(siloed) || this.#source.hasNullifier(siloed);
  }

  emitNullifier(contract: bigint, innerNullifier: bigint): MaybePromise<boolean> {
    return this.insertSiloedNullifier(siloNullifier(contract, innerNullifier));
  }

  /** Records an already-siloed nullifier (private side effects); false when it exists. */
  insertSiloedNullifier(siloed: bigint): MaybePromise<boolean> {
    const finish = (exists: boolean): boolean => {
      if (exists) return false;
      this.#nullifierSet.add(siloed);
      this.#nullifiers.push(siloed);
      return true;
    };
    const exists = this.hasSiloedNullifier(siloed);
    return exists instanceof Promise ? exists.then(finish) : finish(exists);
  }

  emitNoteHash(contract: bigint, noteHash: bigint): void {
    this.#noteHashes.push(siloNoteHash(contract, noteHash));
  }

  /** Records an already-siloed note hash (private side effects). */
  insertSiloedNoteHash(siloed: bigint): void {
    this.#noteHashes.push(siloed);
  }

  emitPublicLog(contract: bigint, fields: readonly bigint[]): void {
    this.#logs.push({ contractAddress: contract, fields: [...fields] });
  }

  sendL2ToL1Message(contract: bigint, recipient: bigint, content: bigint): void {
    this.insertL2ToL1Message({ message: { recipient, content }, contractAddress: contract });
  }

  /** Records a scoped L2→L1 message (private side effects). */
  insertL2ToL1Message(msg: ScopedL2ToL1Message): void {
    this.#msgs.push(msg);
  }

  checkpoint(): void {
    this.#marks.push({
      undo: this.#undo.length,
      noteHashes: this.#noteHashes.length,
      nullifiers: this.#nullifiers.length,
      msgs: this.#msgs.length,
      logs: this.#logs.length,
    });
  }

  commit(): void {
    if (this.#marks.pop() === undefined) throw new Error('commit without checkpoint');
  }

  rollback(): void {
    const mark = this.#marks.pop();
    if (mark === undefined) throw new Error('rollback without checkpoint');
    while (this.#undo.length > mark.undo) {
      const u = this.#undo.pop()!;
      if (u.had) this.#writes.set(u.leafSlot, u.prev);
      else this.#writes.delete(u.leafSlot);
    }
    for (const n of this.#nullifiers.splice(mark.nullifiers)) this.#nullifierSet.delete(n);
    this.#noteHashes.length = mark.noteHashes;
    this.#msgs.length = mark.msgs;
    this.#logs.length = mark.logs;
  }

  /** Open checkpoints (0 when every frame has been closed). */
  get depth(): number {
    return this.#marks.length;
  }

  /** Returns the side effects so far; public data writes are squashed to one per leaf slot. */
  effects(): SideEffects {
    return {
      noteHashes: [...this.#noteHashes],
      nullifiers: [...this.#nullifiers],
      l2ToL1Msgs: [...this.#msgs],
      publicLogs: this.#logs.map((l) => ({ contractAddress: l.contractAddress, fields: [...l.fields] })),
      publicDataWrites: [...this.#writes].map(([leafSlot, value]) => ({ leafSlot, value })),
    };
  }
}
