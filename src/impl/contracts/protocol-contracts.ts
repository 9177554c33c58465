/**
 * The protocol contracts that exist from genesis (reference §1.3): instance registry 2, class
 * registry 3, multi-call entrypoint 4 and FeeJuice 5, at their canonical small addresses (not
 * derived from a preimage, as in Aztec). Their classes are l2node bytecode: FeeJuice has a public
 * `balance_of_public((Field))` over its balances map (slot 1) so contracts can read balances; the
 * others have no public functions (their work is private, and the node reads their events).
 * The fee payment itself stays native (the executor's protocol write), see docs/PUBLIC-VM.md.
 * Artifact hashes are sha256ToField of the contract's name: stable, documented, not Aztec's.
 * @module
 */
import { sha256ToField } from '../crypto/sha256-to-field.ts';
import { assemble } from '../execution/assembler.ts';
import type { AssembledProgram } from '../execution/assembler.ts';
import { GRUMPKIN_INFINITY } from './grumpkin.ts';
import { makeContractClass } from './registry-events.ts';
import type { ContractClass, ContractInstance } from './registry-events.ts';

/** FeeJuice's public functions: a balance read over the balances map at slot 1. */
export const FEE_JUICE_SOURCE = `
.fn balance_of_public((Field))
  SET m0, 1
  SET m1, 1
  CALLDATALOAD m2, m1
  MAPSLOT m3, m0, m2
  SLOAD m4, m3
  RETURN m4, 1
`;

const PROTOCOL = [
  { name: 'ContractInstanceRegistry', address: 2n, source: '' },
  { name: 'ContractClassRegistry', address: 3n, source: '' },
  { name: 'MultiCallEntrypoint', address: 4n, source: '' },
  { name: 'FeeJuice', address: 5n, source: FEE_JUICE_SOURCE },
] as const;

/** A genesis contract: its class, its instance and the signatures of its public functions. */
export interface ProtocolContract {
  readonly name: string;
  readonly contractClass: ContractClass;
  readonly instance: ContractInstance;
  readonly program: AssembledProgram;
}

function build(): ProtocolContract[] {
  return PROTOCOL.map(({ name, address, source }) => {
    const program = assemble(source);
    const contractClass = makeContractClass({
      artifactHash: sha256ToField(new TextEncoder().encode(name)),
      privateFunctionsRoot: 0n,
      packedBytecode: program.bytecode,
    });
    const instance: ContractInstance = {
      address,
      version: 1,
      salt: 1n,
      deployer: 0n,
      currentContractClassId: contractClass.id,
      originalContractClassId: contractClass.id,
      initializationHash: 0n,
      publicKeys: {
        masterNullifierPublicKey: GRUMPKIN_INFINITY,
        masterIncomingViewingPublicKey: GRUMPKIN_INFINITY,
        masterOutgoingViewingPublicKey: GRUMPKIN_INFINITY,
        masterTaggingPublicKey: GRUMPKIN_INFINITY,
      },
    };
    return { name, contractClass, instance, program };
  });
}

/** The genesis protocol contracts, in address order. */
export const PROTOCOL_CONTRACTS: readonly ProtocolContract[] = build();

/** The protocol contract at `address`, if any. */
export function protocolContractAt(address: bigint): ProtocolContract | undefined {
  return PROTOCOL_CONTRACTS.find((c) => c.instance.address === address);
}

/** The protocol contract of class `id`, if any. */
export function protocolContractOfClass(id: bigint): ProtocolContract | undefined {
  return PROTOCOL_CONTRACTS.find((c) => c.contractClass.id === id);
}
