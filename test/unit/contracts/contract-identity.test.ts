/** Contract identities, selectors and siloing against trees.json. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { computePublicBytecodeCommitment, computeContractClassId } from '../../../src/impl/contracts/contract-class.ts';
import {
  computeAddress,
  computeContractAddress,
  computePartialAddress,
  computePublicKeysHash,
  computeSaltedInitializationHash,
  parsePublicKeys,
} from '../../../src/impl/contracts/contract-address.ts';
import {
  FunctionSignatureRegistry,
  functionSelectorFromSignature,
  poseidon2HashBytes,
  toSelectorHex,
} from '../../../src/impl/contracts/function-selector.ts';
import {
  computeNoteHashNonce,
  computePublicDataLeafSlot,
  computeUniqueNoteHash,
  deriveStorageSlotInMap,
  siloNoteHash,
  siloNullifier,
} from '../../../src/impl/contracts/siloing.ts';
import { GRUMPKIN_GENERATOR, grumpkinAdd, grumpkinMul, isOnGrumpkin } from '../../../src/impl/contracts/grumpkin.ts';
import { DomainSeparator } from '../../../src/impl/contracts/domain-separators.ts';

const vectors = JSON.parse(readFileSync(new URL('../../../test/vectors/trees.json', import.meta.url), 'utf8'));
const c = vectors.contract;
const inst = c.instance;

describe('contract class (trees.json contract)', () => {
  it('public bytecode commitment of the vector bytecode', () => {
    const bytes = Buffer.from(c.publicBytecodeCommitment.packedBytecodeHex.slice(2), 'hex');
    assert.equal(computePublicBytecodeCommitment(bytes), BigInt(c.publicBytecodeCommitment.result));
  });
  it('class id from artifact hash, private functions root and bytecode commitment', () => {
    const id = c.contractClassId;
    assert.equal(id.separator, DomainSeparator.CONTRACT_CLASS_ID);
    assert.equal(
      computeContractClassId({
        artifactHash: BigInt(id.artifactHash),
        privateFunctionsRoot: BigInt(id.privateFunctionsRoot),
        publicBytecodeCommitment: BigInt(id.publicBytecodeCommitment),
      }),
      BigInt(id.result),
    );
  });
});

describe('contract address (trees.json contract)', () => {
  const keys = parsePublicKeys(inst.publicKeys);
  it('public keys hash', () => assert.equal(computePublicKeysHash(keys), BigInt(inst.publicKeysHash)));
  it('salted initialization hash', () => {
    assert.equal(
      computeSaltedInitializationHash({
        salt: BigInt(inst.salt),
        initializationHash: BigInt(inst.initializationHash),
        deployer: BigInt(inst.deployer),
      }),
      BigInt(c.saltedInitializationHash),
    );
  });
  it('partial address', () => {
    assert.equal(
      computePartialAddress(BigInt(inst.originalContractClassId), BigInt(c.saltedInitializationHash)),
      BigInt(c.partialAddress),
    );
  });
  it('address from public keys and partial address (Grumpkin)', () => {
    assert.equal(computeAddress(keys, BigInt(c.partialAddress)), BigInt(c.address));
  });
  it('address from the whole instance', () => {
    assert.equal(
      computeContractAddress({
        salt: BigInt(inst.salt),
        deployer: BigInt(inst.deployer),
        originalContractClassId: BigInt(inst.originalContractClassId),
        initializationHash: BigInt(inst.initializationHash),
        publicKeys: keys,
      }),
      BigInt(c.address),
    );
  });
  it('all-identity public keys hash to zero', () => {
    const inf = { x: 0n, y: 0n, isInfinite: true };
    assert.equal(
      computePublicKeysHash({
        masterNullifierPublicKey: inf,
        masterIncomingViewingPublicKey: inf,
        masterOutgoingViewingPublicKey: inf,
        masterTaggingPublicKey: inf,
      }),
      0n,
    );
  });
});

describe('grumpkin', () => {
  it('the generator and its multiples lie on the curve', () => {
    assert.ok(isOnGrumpkin(GRUMPKIN_GENERATOR));
    assert.ok(isOnGrumpkin(grumpkinMul(GRUMPKIN_GENERATOR, 123456789n)));
  });
  it('3G = G + G + G', () => {
    const g = GRUMPKIN_GENERATOR;
    assert.deepEqual(grumpkinMul(g, 3n), grumpkinAdd(grumpkinAdd(g, g), g));
  });
});

describe('function selectors (trees.json functionSelectors)', () => {
  for (const v of vectors.functionSelectors) {
    it(`${v.signature} → ${v.selector}`, () => {
      assert.equal(poseidon2HashBytes(new TextEncoder().encode(v.signature)), BigInt(v.poseidon2HashBytes));
      assert.equal(toSelectorHex(functionSelectorFromSignature(v.signature)), v.selector);
    });
  }
  it('registry: names registered signatures by selector, unknown is undefined', () => {
    const reg = new FunctionSignatureRegistry();
    const [sel] = reg.registerFunctionSignatures(['transfer(Field,Field)']);
    assert.equal(toSelectorHex(sel!), '0x844800c0');
    assert.equal(reg.findName(sel!), 'transfer');
    assert.equal(reg.findSignature(sel!), 'transfer(Field,Field)');
    assert.equal(reg.findName(0x17f12888), undefined);
  });
});

describe('siloing (trees.json)', () => {
  it('public data leaf slots', () => {
    for (const v of vectors.publicDataLeafSlot) {
      assert.equal(computePublicDataLeafSlot(BigInt(v.contract), BigInt(v.storageSlot)), BigInt(v.leafSlot));
    }
  });
  it('map slots', () => {
    for (const v of vectors.deriveStorageSlotInMap)
      assert.equal(deriveStorageSlotInMap(BigInt(v.mapSlot), BigInt(v.key)), BigInt(v.slot));
  });
  it('fee juice balance leaf slot = leaf slot of the balances map entry', () => {
    for (const v of vectors.feeJuiceBalance) {
      const slot = deriveStorageSlotInMap(BigInt(vectors.feeJuiceBalancesMapSlot), BigInt(v.feePayer));
      assert.equal(slot, BigInt(v.storageSlot));
      assert.equal(computePublicDataLeafSlot(BigInt(v.feeJuiceAddress), slot), BigInt(v.leafSlot));
    }
  });
  it('nullifier, note hash, nonce and unique note hash', () => {
    const s = vectors.siloing;
    assert.equal(
      siloNullifier(BigInt(s.contract), BigInt(s.siloNullifier.innerNullifier)),
      BigInt(s.siloNullifier.result),
    );
    assert.equal(siloNoteHash(BigInt(s.contract), BigInt(s.siloNoteHash.noteHash)), BigInt(s.siloNoteHash.result));
    assert.equal(
      computeNoteHashNonce(BigInt(s.computeNoteHashNonce.firstNullifier), 0),
      BigInt(s.computeNoteHashNonce.result),
    );
    assert.equal(
      computeNoteHashNonce(BigInt(s.computeNoteHashNonceIndex3.firstNullifier), 3),
      BigInt(s.computeNoteHashNonceIndex3.result),
    );
    assert.equal(
      computeUniqueNoteHash(BigInt(s.computeUniqueNoteHash.nonce), BigInt(s.computeUniqueNoteHash.siloedNoteHash)),
      BigInt(s.computeUniqueNoteHash.result),
    );
  });
  it('separators agree with trees.json domainSeparators', () => {
    for (const [k, v] of Object.entries(DomainSeparator)) assert.equal(vectors.domainSeparators[k], v, k);
  });
});
