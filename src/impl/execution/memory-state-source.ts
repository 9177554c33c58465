/**
 * An in-memory PublicStateSource for tests, benchmarks and simulations without a world state:
 * public data by leaf slot, a nullifier set, and deployed contracts.
 * @module
 */
import { computeContractClassId, computePublicBytecodeCommitment } from '../contracts/contract-class.ts';
import { computePublicDataLeafSlot } from '../contracts/siloing.ts';
import type { ContractCode, PublicStateSource, SideEffects } from './types.ts';

/** Committed state held in Maps. */
export class MemoryStateSource implements PublicStateSource {
  readonly publicData = new Map<bigint, bigint>();
  readonly nullifiers = new Set<bigint>();
  readonly contracts = new Map<bigint, ContractCode>();

  readPublicData(leafSlot: bigint): bigint {
    return this.publicData.get(leafSlot) ?? 0n;
  }

  hasNullifier(siloedNullifier: bigint): boolean {
    return this.nullifiers.has(siloedNullifier);
  }

  getContract(address: bigint): ContractCode | undefined {
    return this.contracts.get(address);
  }

  /** Deploys bytecode at `address`; the class id is derived with zero artifact hash and private root. */
  deploy(address: bigint, packedBytecode: Uint8Array): ContractCode {
    const classId = computeContractClassId({
      artifactHash: 0n,
      privateFunctionsRoot: 0n,
      publicBytecodeCommitment: computePublicBytecodeCommitment(packedBytecode),
    });
    const code = { classId, packedBytecode };
    this.contracts.set(address, code);
    return code;
  }

  /** Sets `contract`'s storage `slot` (siloed to its leaf slot). */
  setStorage(contract: bigint, slot: bigint, value: bigint): void {
    this.publicData.set(computePublicDataLeafSlot(contract, slot), value);
  }

  /** Returns `contract`'s storage `slot`. */
  getStorage(contract: bigint, slot: bigint): bigint {
    return this.readPublicData(computePublicDataLeafSlot(contract, slot));
  }

  /** Applies a tx's side effects, as inserting a mined tx into the trees would. */
  apply(effects: Pick<SideEffects, 'nullifiers' | 'publicDataWrites'>): void {
    for (const n of effects.nullifiers) this.nullifiers.add(n);
    for (const w of effects.publicDataWrites) this.publicData.set(w.leafSlot, w.value);
  }
}
