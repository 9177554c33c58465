/**
 * The registry protocol contracts' events, as the node reads them from mined tx effects:
 * `ContractClassPublished` (a contract class log of the class registry, address 3) and
 * `ContractInstancePublished` (a private log of the instance registry, address 2, whose tag is
 * siloed with the registry's address and whose deployment nullifier — the address siloed with the
 * registry — is in the same tx). Field layouts follow Aztec 4.1.2 (`class_published.nr`,
 * `ContractInstancePublishedEvent.fromLog`); docs/PUBLIC-VM.md has the tables.
 * @module
 */
import type { ContractClassLog, PrivateLog } from '../chain/types.ts';
import { bytecodeToFields, computeContractClassId, computePublicBytecodeCommitment } from './contract-class.ts';
import { computeContractAddress } from './contract-address.ts';
import type { PublicKeys } from './contract-address.ts';
import { computeSiloedPrivateLogFirstField, siloNullifier } from './siloing.ts';

/** The registries' canonical addresses. */
export const CLASS_REGISTRY_ADDRESS = 3n;
export const INSTANCE_REGISTRY_ADDRESS = 2n;
/** Aztec's CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE: the first field of a class publication log. */
export const CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE = 0x20f5895a4e837356c2d551743df6bf642756dcd93cd31cbd37c556c90bf7f244n;
/** Aztec's CONTRACT_INSTANCE_PUBLISHED_MAGIC_VALUE: the instance registry's event tag before siloing. */
export const CONTRACT_INSTANCE_PUBLISHED_MAGIC_VALUE =
  0x174c6b3d0fd14728e4fc5e53f7b262ab943546a7e125e2ed5e9fde3cf0b3e22fn;
/** The first field of an instance publication private log: the magic siloed with the instance registry. */
export const CONTRACT_INSTANCE_PUBLISHED_EVENT_TAG = computeSiloedPrivateLogFirstField(
  INSTANCE_REGISTRY_ADDRESS,
  CONTRACT_INSTANCE_PUBLISHED_MAGIC_VALUE,
);

/** A contract class as the node stores it (ContractClassPublic without broadcast functions). */
export interface ContractClass {
  readonly id: bigint;
  readonly version: 1;
  readonly artifactHash: bigint;
  readonly privateFunctionsRoot: bigint;
  readonly packedBytecode: Uint8Array;
}

/** A deployed contract instance (ContractInstanceWithAddress). */
export interface ContractInstance {
  readonly address: bigint;
  readonly version: 1;
  readonly salt: bigint;
  readonly deployer: bigint;
  readonly currentContractClassId: bigint;
  readonly originalContractClassId: bigint;
  readonly initializationHash: bigint;
  readonly publicKeys: PublicKeys;
}

/** Builds a class from its preimage, computing the id (trees.json `contract.contractClassId`). */
export function makeContractClass(c: {
  artifactHash: bigint;
  privateFunctionsRoot: bigint;
  packedBytecode: Uint8Array;
}): ContractClass {
  const publicBytecodeCommitment = computePublicBytecodeCommitment(c.packedBytecode);
  return { id: computeContractClassId({ ...c, publicBytecodeCommitment }), version: 1, ...c };
}

/** The fields of a ContractClassPublished log: magic, id, version, artifact hash, private root, byte length, 31-byte chunks. */
export function encodeClassPublishedLog(c: ContractClass): bigint[] {
  return [
    CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE,
    c.id,
    1n,
    c.artifactHash,
    c.privateFunctionsRoot,
    BigInt(c.packedBytecode.length),
    ...bytecodeToFields(c.packedBytecode),
  ];
}

/**
 * What a registry log turns out to be: not the event at all, the event but unreadable, the event
 * claiming an id or address its own fields do not derive, or a good class or instance. The tx
 * validator refuses the middle two (as 4.1.2's DataTxValidator and ContractInstanceTxValidator do);
 * the contract index simply skips anything but `published`.
 */
export type RegistryLogReading<T> =
  | { readonly kind: 'not-event' }
  | { readonly kind: 'malformed'; readonly why: string }
  | { readonly kind: 'mismatch'; readonly claimed: bigint; readonly computed: bigint }
  | { readonly kind: 'published'; readonly value: T };

/** Reads a contract class log as a ContractClassPublished event (class registry, magic first). */
export function readClassPublishedLog(log: {
  readonly contractAddress: bigint;
  readonly fields: readonly bigint[];
  readonly emittedLength: number;
}): RegistryLogReading<ContractClass> {
  const f = log.fields.slice(0, log.emittedLength);
  if (log.contractAddress !== CLASS_REGISTRY_ADDRESS || f[0] !== CONTRACT_CLASS_PUBLISHED_MAGIC_VALUE)
    return { kind: 'not-event' };
  if (f.length < 6) return { kind: 'malformed', why: `${f.length} fields, fewer than the 6 of the header` };
  if (f[2] !== 1n) return { kind: 'malformed', why: `version ${f[2]}, not 1` };
  const length = f[5]!;
  const chunks = f.slice(6);
  // Bounded by the payload before anything is allocated: a log cannot declare more bytes than it carries.
  if (length > BigInt(chunks.length * 31))
    return {
      kind: 'malformed',
      why: `bytecode length ${length} above the ${chunks.length * 31} bytes its fields carry`,
    };
  const bytes = new Uint8Array(chunks.length * 31);
  chunks.forEach((x, i) => {
    for (let j = 30; j >= 0; j--) {
      bytes[i * 31 + j] = Number(x & 0xffn);
      x >>= 8n;
    }
  });
  const cls = makeContractClass({
    artifactHash: f[3]!,
    privateFunctionsRoot: f[4]!,
    packedBytecode: bytes.slice(0, Number(length)),
  });
  // The registry computes the id in its circuit; we recompute it so a log can never alias a class.
  return cls.id === f[1] ? { kind: 'published', value: cls } : { kind: 'mismatch', claimed: f[1]!, computed: cls.id };
}

/** Reads a class publication log; undefined when it is not one, or when its id does not match its contents. */
export function decodeClassPublishedLog(log: {
  readonly contractAddress: bigint;
  readonly fields: readonly bigint[];
  readonly emittedLength: number;
}): ContractClass | undefined {
  const reading = readClassPublishedLog(log);
  return reading.kind === 'published' ? reading.value : undefined;
}

/** The 15 fields of a ContractInstancePublished private log (tag, address, version, salt, class, init hash, 4 keys as x,y, deployer). */
export function encodeInstancePublishedLog(i: ContractInstance): bigint[] {
  const k = i.publicKeys;
  const keys = [
    k.masterNullifierPublicKey,
    k.masterIncomingViewingPublicKey,
    k.masterOutgoingViewingPublicKey,
    k.masterTaggingPublicKey,
  ];
  return [
    CONTRACT_INSTANCE_PUBLISHED_EVENT_TAG,
    i.address,
    1n,
    i.salt,
    i.currentContractClassId,
    i.initializationHash,
    ...keys.flatMap((p) => [p.x, p.y]),
    i.deployer,
  ];
}

/** The nullifier the instance registry emits when it publishes `address` (siloed). */
export function deploymentNullifier(address: bigint): bigint {
  return siloNullifier(INSTANCE_REGISTRY_ADDRESS, address);
}

/** Reads a private log as a ContractInstancePublished event (its first field is the siloed event tag). */
export function readInstancePublishedLog(log: {
  readonly fields: readonly bigint[];
  readonly emittedLength: number;
}): RegistryLogReading<ContractInstance> {
  const f = log.fields;
  if (f[0] !== CONTRACT_INSTANCE_PUBLISHED_EVENT_TAG) return { kind: 'not-event' };
  if (log.emittedLength < 15 || f.length < 15)
    return { kind: 'malformed', why: `${Math.min(log.emittedLength, f.length)} fields, fewer than the event's 15` };
  if (f[2] !== 1n) return { kind: 'malformed', why: `version ${f[2]}, not 1` };
  const point = (o: number) => ({ x: f[o]!, y: f[o + 1]!, isInfinite: f[o] === 0n && f[o + 1] === 0n });
  const instance: ContractInstance = {
    address: f[1]!,
    version: 1,
    salt: f[3]!,
    currentContractClassId: f[4]!,
    originalContractClassId: f[4]!,
    initializationHash: f[5]!,
    publicKeys: {
      masterNullifierPublicKey: point(6),
      masterIncomingViewingPublicKey: point(8),
      masterOutgoingViewingPublicKey: point(10),
      masterTaggingPublicKey: point(12),
    },
    deployer: f[14]!,
  };
  let computed: bigint;
  try {
    computed = computeContractAddress({ ...instance });
  } catch (err) {
    // A key that is not a Grumpkin point cannot derive an address.
    return { kind: 'malformed', why: err instanceof Error ? err.message : String(err) };
  }
  return computed === instance.address
    ? { kind: 'published', value: instance }
    : { kind: 'mismatch', claimed: instance.address, computed };
}

/** Reads an instance publication log; undefined when it is not one or its address is not derived from its fields. */
export function decodeInstancePublishedLog(log: {
  readonly fields: readonly bigint[];
  readonly emittedLength: number;
}): ContractInstance | undefined {
  const reading = readInstancePublishedLog(log);
  return reading.kind === 'published' ? reading.value : undefined;
}

/** What one mined tx effect publishes. */
export interface PublishedContracts {
  readonly classes: readonly ContractClass[];
  readonly instances: readonly ContractInstance[];
}

/** Finds the classes and instances a mined (post-revert) tx effect publishes; an instance counts only with its deployment nullifier. */
export function publishedContracts(effect: {
  readonly nullifiers: readonly bigint[];
  readonly privateLogs: readonly PrivateLog[];
  readonly contractClassLogs: readonly ContractClassLog[];
}): PublishedContracts {
  const classes = effect.contractClassLogs.flatMap((l) => decodeClassPublishedLog(l) ?? []);
  const candidates = effect.privateLogs.filter((l) => l.fields[0] === CONTRACT_INSTANCE_PUBLISHED_EVENT_TAG);
  if (candidates.length === 0) return { classes, instances: [] };
  const nullifiers = new Set(effect.nullifiers);
  const instances = candidates
    .flatMap((l) => decodeInstancePublishedLog(l) ?? [])
    .filter((i) => nullifiers.has(deploymentNullifier(i.address)));
  return { classes, instances };
}
