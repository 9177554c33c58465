/**
 * Contract reads of the public API (tag `contracts`, SPEC §4.7): classes and instances from the
 * chain's contract index (published through the registries' events, plus the genesis protocol
 * contracts), `null` when unknown.
 * @module
 */
import type { PublicHandlers } from '../../../generated/public/handlers.ts';
import type * as Wire from '../../../generated/public/types.ts';
import type { ContractLookup } from '../../chain/contract-index.ts';
import type { ContractClass, ContractInstance } from '../../contracts/registry-events.ts';
import { hex32, pointHex } from '../../encoding/hex.ts';

/** The handler members this module serves. */
export type ContractHandlers = Pick<PublicHandlers, 'getContractClass' | 'getContract'>;

/** What the contract handlers read: `contracts` = engine.contracts. */
export interface ContractDeps {
  readonly contracts: ContractLookup;
}

/** ContractClass → ContractClassPublic (no broadcast functions). */
export function toWireContractClass(c: ContractClass): Wire.ContractClassPublic {
  return {
    id: hex32(c.id),
    artifactHash: hex32(c.artifactHash),
    packedBytecode: Buffer.from(c.packedBytecode).toString('base64'),
    privateFunctionsRoot: hex32(c.privateFunctionsRoot),
    privateFunctions: [],
    utilityFunctions: [],
    version: 1,
  };
}

/** ContractInstance → ContractInstanceWithAddress (points as 0x + x‖y, 128 hex digits). */
export function toWireContractInstance(i: ContractInstance): Wire.ContractInstanceWithAddress {
  const k = i.publicKeys;
  return {
    version: 1,
    salt: hex32(i.salt),
    deployer: hex32(i.deployer),
    currentContractClassId: hex32(i.currentContractClassId),
    originalContractClassId: hex32(i.originalContractClassId),
    initializationHash: hex32(i.initializationHash),
    publicKeys: {
      masterNullifierPublicKey: pointHex(k.masterNullifierPublicKey),
      masterIncomingViewingPublicKey: pointHex(k.masterIncomingViewingPublicKey),
      masterOutgoingViewingPublicKey: pointHex(k.masterOutgoingViewingPublicKey),
      masterTaggingPublicKey: pointHex(k.masterTaggingPublicKey),
    },
    address: hex32(i.address),
  };
}

/** Creates the contract handlers over the contract index. */
export function createContractHandlers(deps: ContractDeps): ContractHandlers {
  return {
    /** Handler for `node_getContractClass`. */
    async getContractClass(id) {
      const c = await deps.contracts.getContractClass(BigInt(id));
      return c === undefined ? null : toWireContractClass(c);
    },

    /** Handler for `node_getContract`. */
    async getContract(address) {
      const i = await deps.contracts.getContractInstance(BigInt(address));
      return i === undefined ? null : toWireContractInstance(i);
    },
  };
}
