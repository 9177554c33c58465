/**
 * The contract index: classes and instances published by mined txs (through the registries'
 * events, src/impl/contracts/registry-events.ts), written in the block's own transaction and
 * removed with it on unwind (chain-store's BLOCK_ROWS), plus the genesis protocol contracts,
 * which are constants and never stored. Lookups of known contracts are cached: a published class
 * or instance never changes (class upgrades are not supported), only an unwind removes it.
 * @module
 */
import type { Knex } from 'knex';
import { protocolContractAt, protocolContractOfClass } from '../contracts/protocol-contracts.ts';
import { publishedContracts } from '../contracts/registry-events.ts';
import type { ContractClass, ContractInstance } from '../contracts/registry-events.ts';
import type { TxEffect } from './types.ts';
import { hex32 } from '../encoding/hex.ts';

/** Reads classes and instances (the block builder's overlay and the RPC handlers use it). */
export interface ContractLookup {
  getContractClass(id: bigint): Promise<ContractClass | undefined>;
  getContractInstance(address: bigint): Promise<ContractInstance | undefined>;
}

type Point = ContractInstance['publicKeys']['masterNullifierPublicKey'];
const pointToJson = (p: Point) => [hex32(p.x), hex32(p.y)];
const pointFromJson = ([x, y]: string[]): Point => ({
  x: BigInt(x!),
  y: BigInt(y!),
  isInfinite: BigInt(x!) === 0n && BigInt(y!) === 0n,
});

/** Classes and instances of the latest chain state. */
export class ContractIndex implements ContractLookup {
  readonly #db: Knex;
  readonly #classes = new Map<bigint, ContractClass>();
  readonly #instances = new Map<bigint, ContractInstance>();

  constructor(db: Knex) {
    this.#db = db;
  }

  /** Records what a block's tx effects publish; call inside the block's transaction. */
  async indexBlock(trx: Knex.Transaction, blockNumber: number, effects: readonly TxEffect[]): Promise<void> {
    for (const effect of effects) {
      const { classes, instances } = publishedContracts(effect);
      for (const c of classes) {
        // A class published again keeps its first row: unwinding the later block leaves it in place.
        await trx('chain_contract_classes')
          .insert({
            class_id: hex32(c.id),
            block_number: blockNumber,
            artifact_hash: hex32(c.artifactHash),
            private_functions_root: hex32(c.privateFunctionsRoot),
            packed_bytecode: Buffer.from(c.packedBytecode),
          })
          .onConflict('class_id')
          .ignore();
      }
      for (const i of instances) {
        const k = i.publicKeys;
        const data = {
          salt: hex32(i.salt),
          deployer: hex32(i.deployer),
          originalContractClassId: hex32(i.originalContractClassId),
          initializationHash: hex32(i.initializationHash),
          keys: [
            k.masterNullifierPublicKey,
            k.masterIncomingViewingPublicKey,
            k.masterOutgoingViewingPublicKey,
            k.masterTaggingPublicKey,
          ].map(pointToJson),
        };
        // The deployment nullifier makes an address publishable once; ignore keeps replays harmless.
        await trx('chain_contract_instances')
          .insert({
            address: hex32(i.address),
            block_number: blockNumber,
            class_id: hex32(i.currentContractClassId),
            data: JSON.stringify(data),
          })
          .onConflict('address')
          .ignore();
      }
    }
  }

  /** Forgets cached lookups (after an unwind removed rows). */
  clearCache(): void {
    this.#classes.clear();
    this.#instances.clear();
  }

  /** The class `id`: a protocol contract's or a published one. */
  async getContractClass(id: bigint): Promise<ContractClass | undefined> {
    const known = protocolContractOfClass(id)?.contractClass;
    return known ?? this.#lookup(this.#classes, id, 'chain_contract_classes', 'class_id', classFromRow);
  }

  /** The instance at `address`: a protocol contract's or a published one. */
  async getContractInstance(address: bigint): Promise<ContractInstance | undefined> {
    const known = protocolContractAt(address)?.instance;
    return known ?? this.#lookup(this.#instances, address, 'chain_contract_instances', 'address', instanceFromRow);
  }

  /** The published contract under `key` (`column` of `table`), through `cache`. */
  async #lookup<T>(
    cache: Map<bigint, T>,
    key: bigint,
    table: string,
    column: string,
    fromRow: (key: bigint, row: Record<string, unknown>) => T,
  ): Promise<T | undefined> {
    const cached = cache.get(key);
    if (cached) return cached;
    const row = await this.#db(table)
      .where({ [column]: hex32(key) })
      .first();
    if (!row) return undefined;
    const value = fromRow(key, row);
    cache.set(key, value);
    return value;
  }
}

function classFromRow(id: bigint, row: Record<string, unknown>): ContractClass {
  return {
    id,
    version: 1,
    artifactHash: BigInt(row.artifact_hash as string),
    privateFunctionsRoot: BigInt(row.private_functions_root as string),
    packedBytecode: new Uint8Array(row.packed_bytecode as Buffer),
  };
}

function instanceFromRow(address: bigint, row: Record<string, unknown>): ContractInstance {
  const d = JSON.parse(row.data as string) as {
    salt: string;
    deployer: string;
    originalContractClassId: string;
    initializationHash: string;
    keys: string[][];
  };
  const [npk, ivpk, ovpk, tpk] = d.keys.map(pointFromJson);
  return {
    address,
    version: 1,
    salt: BigInt(d.salt),
    deployer: BigInt(d.deployer),
    currentContractClassId: BigInt(row.class_id as string),
    originalContractClassId: BigInt(d.originalContractClassId),
    initializationHash: BigInt(d.initializationHash),
    publicKeys: {
      masterNullifierPublicKey: npk!,
      masterIncomingViewingPublicKey: ivpk!,
      masterOutgoingViewingPublicKey: ovpk!,
      masterTaggingPublicKey: tpk!,
    },
  };
}
