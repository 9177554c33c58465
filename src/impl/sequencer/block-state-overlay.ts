/**
 * The state a block's txs execute against: the latest committed state (the chain's synchronous
 * latest-state cache and its contract index) plus the effects of the txs already placed in the
 * block being built. It is the public VM's `PublicStateSource` during block building, and over an
 * empty block the throw-away state of `node_simulatePublicCalls`. Nothing here writes storage.
 * @module
 */
import type { ContractLookup } from '../chain/contract-index.ts';
import type { TxEffect } from '../chain/types.ts';
import { publishedContracts } from '../contracts/registry-events.ts';
import type { ContractClass, ContractInstance } from '../contracts/registry-events.ts';
import type { ContractCode, PublicStateSource } from '../execution/types.ts';

/** Latest committed nullifiers and public data, read synchronously. */
export interface CommittedState {
  hasNullifier(nullifier: bigint): boolean;
  readPublicData(leafSlot: bigint): bigint;
}

/** Committed state plus the effects of earlier txs of the block. */
export class BlockStateOverlay implements PublicStateSource {
  readonly #base: CommittedState;
  readonly #contracts: ContractLookup;
  readonly #publicData = new Map<bigint, bigint>();
  readonly #nullifiers = new Set<bigint>();
  readonly #classes = new Map<bigint, ContractClass>();
  readonly #instances = new Map<bigint, ContractInstance>();

  constructor(base: CommittedState, contracts: ContractLookup) {
    this.#base = base;
    this.#contracts = contracts;
  }

  readPublicData(leafSlot: bigint): bigint {
    return this.#publicData.get(leafSlot) ?? this.#base.readPublicData(leafSlot);
  }

  hasNullifier(siloedNullifier: bigint): boolean {
    return this.#nullifiers.has(siloedNullifier) || this.#base.hasNullifier(siloedNullifier);
  }

  /** A class published earlier in the block, else the index's. */
  async getContractClass(id: bigint): Promise<ContractClass | undefined> {
    return this.#classes.get(id) ?? (await this.#contracts.getContractClass(id));
  }

  /** An instance published earlier in the block, else the index's. */
  async getContractInstance(address: bigint): Promise<ContractInstance | undefined> {
    return this.#instances.get(address) ?? (await this.#contracts.getContractInstance(address));
  }

  async getContract(address: bigint): Promise<ContractCode | undefined> {
    const instance = await this.getContractInstance(address);
    if (instance === undefined) return undefined;
    const cls = await this.getContractClass(instance.currentContractClassId);
    return cls && { classId: cls.id, packedBytecode: cls.packedBytecode };
  }

  /** Makes a placed tx's effects visible to the txs after it. */
  apply(effect: TxEffect): void {
    for (const n of effect.nullifiers) this.#nullifiers.add(n);
    for (const w of effect.publicDataWrites) this.#publicData.set(w.leafSlot, w.value);
    const { classes, instances } = publishedContracts(effect);
    for (const c of classes) if (!this.#classes.has(c.id)) this.#classes.set(c.id, c);
    for (const i of instances) this.#instances.set(i.address, i);
  }
}
