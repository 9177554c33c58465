/** Registry events (class and instance publication logs) and the genesis protocol contracts. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parsePublicKeys } from '../../../src/impl/contracts/contract-address.ts';
import { GRUMPKIN_INFINITY } from '../../../src/impl/contracts/grumpkin.ts';
import { PROTOCOL_CONTRACTS, protocolContractAt } from '../../../src/impl/contracts/protocol-contracts.ts';
import {
  CONTRACT_INSTANCE_PUBLISHED_EVENT_TAG,
  CONTRACT_INSTANCE_PUBLISHED_MAGIC_VALUE,
  decodeClassPublishedLog,
  decodeInstancePublishedLog,
  deploymentNullifier,
  encodeClassPublishedLog,
  encodeInstancePublishedLog,
  makeContractClass,
  publishedContracts,
  readClassPublishedLog,
  readInstancePublishedLog,
} from '../../../src/impl/contracts/registry-events.ts';
import type { ContractInstance } from '../../../src/impl/contracts/registry-events.ts';
import { computeSiloedPrivateLogFirstField, siloNullifier } from '../../../src/impl/contracts/siloing.ts';
import { executePublicCall } from '../../../src/impl/execution/interpreter.ts';
import { JournaledState } from '../../../src/impl/execution/journaled-state.ts';
import { MemoryStateSource } from '../../../src/impl/execution/memory-state-source.ts';
import { functionSelectorFromSignature } from '../../../src/impl/contracts/function-selector.ts';
import { deriveStorageSlotInMap } from '../../../src/impl/contracts/siloing.ts';

const vectors = JSON.parse(readFileSync(new URL('../../../test/vectors/trees.json', import.meta.url), 'utf8'));
const c = vectors.contract;
const v = c.instance;
const vectorBytes = new Uint8Array(Buffer.from(c.publicBytecodeCommitment.packedBytecodeHex.slice(2), 'hex'));
const vectorClass = makeContractClass({
  artifactHash: BigInt(c.contractClassId.artifactHash),
  privateFunctionsRoot: BigInt(c.contractClassId.privateFunctionsRoot),
  packedBytecode: vectorBytes,
});
const vectorInstance: ContractInstance = {
  address: BigInt(c.address),
  version: 1,
  salt: BigInt(v.salt),
  deployer: BigInt(v.deployer),
  currentContractClassId: BigInt(v.currentContractClassId),
  originalContractClassId: BigInt(v.originalContractClassId),
  initializationHash: BigInt(v.initializationHash),
  publicKeys: parsePublicKeys(v.publicKeys),
};
const classLog = (fields: bigint[], contractAddress = 3n) => ({
  contractAddress,
  fields: [...fields, ...Array(3023 - fields.length).fill(0n)],
  emittedLength: fields.length,
});
const privateLog = (fields: bigint[]) => ({
  fields: [...fields, ...Array(16 - fields.length).fill(0n)],
  emittedLength: fields.length,
});

describe('ContractClassPublished (class registry contract class log)', () => {
  it('the vector class: id per trees.json, and the log round-trips it (bytecode length not a multiple of 31)', () => {
    assert.equal(vectorClass.id, BigInt(c.contractClassId.result));
    assert.notEqual(vectorBytes.length % 31, 0);
    const fields = encodeClassPublishedLog(vectorClass);
    assert.equal(fields[5], BigInt(vectorBytes.length));
    assert.deepEqual(decodeClassPublishedLog(classLog(fields)), vectorClass);
  });
  it('is ignored from another contract, with another magic, or when the id does not match the contents', () => {
    const fields = encodeClassPublishedLog(vectorClass);
    assert.equal(decodeClassPublishedLog(classLog(fields, 2n)), undefined);
    assert.equal(decodeClassPublishedLog(classLog([fields[0]! + 1n, ...fields.slice(1)])), undefined);
    const tampered = [...fields];
    tampered[6] = tampered[6]! ^ 1n;
    assert.equal(decodeClassPublishedLog(classLog(tampered)), undefined);
    assert.equal(decodeClassPublishedLog(classLog([...fields.slice(0, 5), 10_000n, ...fields.slice(6)])), undefined);
  });
});

describe('reading registry logs for the tx validator (not the event, malformed, mismatch, published)', () => {
  it('a class log: each kind, with the claimed and computed id on a mismatch', () => {
    const fields = encodeClassPublishedLog(vectorClass);
    assert.deepEqual(readClassPublishedLog(classLog(fields)), { kind: 'published', value: vectorClass });
    assert.deepEqual(readClassPublishedLog(classLog(fields, 2n)), { kind: 'not-event' });
    assert.deepEqual(readClassPublishedLog(classLog([fields[0]! + 1n, ...fields.slice(1)])), { kind: 'not-event' });
    const forged = [...fields];
    forged[1] = forged[1]! + 1n;
    assert.deepEqual(readClassPublishedLog(classLog(forged)), {
      kind: 'mismatch',
      claimed: vectorClass.id + 1n,
      computed: vectorClass.id,
    });
    assert.equal(
      readClassPublishedLog(classLog([...fields.slice(0, 5), 10_000_000n, ...fields.slice(6)])).kind,
      'malformed',
    );
    assert.equal(readClassPublishedLog(classLog([fields[0]!, fields[1]!, 2n, ...fields.slice(3)])).kind, 'malformed');
    assert.equal(readClassPublishedLog(classLog(fields.slice(0, 4))).kind, 'malformed');
  });
  it('an instance log: each kind, with the claimed and computed address on a mismatch', () => {
    const fields = encodeInstancePublishedLog(vectorInstance);
    assert.deepEqual(readInstancePublishedLog(privateLog(fields)), { kind: 'published', value: vectorInstance });
    assert.deepEqual(readInstancePublishedLog(privateLog([1n, ...fields.slice(1)])), { kind: 'not-event' });
    const forged = [...fields];
    forged[1] = 0x1234n;
    assert.deepEqual(readInstancePublishedLog(privateLog(forged)), {
      kind: 'mismatch',
      claimed: 0x1234n,
      computed: vectorInstance.address,
    });
    assert.equal(readInstancePublishedLog(privateLog(fields.slice(0, 14))).kind, 'malformed');
    const badVersion = [...fields];
    badVersion[2] = 7n;
    assert.equal(readInstancePublishedLog(privateLog(badVersion)).kind, 'malformed');
  });
});

describe('ContractInstancePublished (instance registry private log)', () => {
  it('the tag is the magic siloed with the instance registry (address 2)', () => {
    assert.equal(
      CONTRACT_INSTANCE_PUBLISHED_EVENT_TAG,
      computeSiloedPrivateLogFirstField(2n, CONTRACT_INSTANCE_PUBLISHED_MAGIC_VALUE),
    );
  });
  it('round-trips the trees.json instance (real keys), whose address it re-derives', () => {
    const fields = encodeInstancePublishedLog(vectorInstance);
    assert.equal(fields.length, 15);
    assert.deepEqual(decodeInstancePublishedLog(privateLog(fields)), vectorInstance);
  });
  it('is ignored when a field no longer derives the address', () => {
    const fields = encodeInstancePublishedLog(vectorInstance);
    fields[3] = fields[3]! + 1n;
    assert.equal(decodeInstancePublishedLog(privateLog(fields)), undefined);
  });
  it('publishedContracts counts an instance only with its deployment nullifier', () => {
    const logs = [privateLog(encodeInstancePublishedLog(vectorInstance))];
    assert.equal(deploymentNullifier(vectorInstance.address), siloNullifier(2n, vectorInstance.address));
    assert.deepEqual(publishedContracts({ nullifiers: [1n], privateLogs: logs, contractClassLogs: [] }).instances, []);
    assert.deepEqual(
      publishedContracts({
        nullifiers: [1n, deploymentNullifier(vectorInstance.address)],
        privateLogs: logs,
        contractClassLogs: [],
      }).instances,
      [vectorInstance],
    );
  });
});

describe('genesis protocol contracts', () => {
  it('exist at 2, 3, 4 and 5 with their class ids derived from their bytecode', () => {
    assert.deepEqual(
      PROTOCOL_CONTRACTS.map((p) => p.instance.address),
      [2n, 3n, 4n, 5n],
    );
    for (const p of PROTOCOL_CONTRACTS) {
      assert.equal(p.contractClass.id, makeContractClass(p.contractClass).id);
      assert.deepEqual(p.instance.publicKeys.masterIncomingViewingPublicKey, GRUMPKIN_INFINITY);
    }
    assert.equal(new Set(PROTOCOL_CONTRACTS.map((p) => p.contractClass.id)).size, 4);
  });
  it('FeeJuice balance_of_public reads the balances map (slot 1) in the VM', async () => {
    const feeJuice = protocolContractAt(5n)!;
    const source = new MemoryStateSource();
    source.contracts.set(5n, {
      classId: feeJuice.contractClass.id,
      packedBytecode: feeJuice.contractClass.packedBytecode,
    });
    source.setStorage(5n, deriveStorageSlotInMap(1n, 0x1001n), 12345n);
    const r = await executePublicCall({
      contractAddress: 5n,
      sender: 0n,
      calldata: [BigInt(functionSelectorFromSignature('balance_of_public((Field))')), 0x1001n],
      isStaticCall: true,
      gasLimit: { daGas: 0, l2Gas: 10_000 },
      host: new JournaledState(source),
      env: { chainId: 1n, version: 1n, blockNumber: 1, timestamp: 0n, gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n } },
    });
    assert.equal(r.reverted, false);
    assert.deepEqual(r.returnValues, [12345n]);
  });
});
