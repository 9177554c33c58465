/** secp256k1 addresses and signatures; keystore parsing and its errors (which never carry a key). */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { hexToBytes } from '@noble/hashes/utils.js';
import { KeystoreError, loadKeystore, parseKeystoreFile } from '../../../src/impl/validators/keystore.ts';
import { addressOfPrivateKey, recoverSigner, signDigest, verifySigner } from '../../../src/impl/validators/signer.ts';
import { tempDir, testAddress, testFeeRecipient, testKey, writeKeystore } from './helpers.ts';

describe('signer', () => {
  it('derives the Ethereum address of well-known keys', () => {
    const one = new Uint8Array(32);
    one[31] = 1;
    assert.equal(addressOfPrivateKey(one), '0x7e5f4552091a69125d5dfcb7b8c2659029395bdf');
    // Hardhat/Anvil account 0.
    assert.equal(
      addressOfPrivateKey(hexToBytes('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')),
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    );
  });

  it('a signature recovers to its signer and to nobody else for another digest', () => {
    const key = hexToBytes(testKey(1).slice(2));
    const digest = new Uint8Array(32).fill(9);
    const sig = signDigest(digest, key);
    assert.equal(sig.length, 65);
    assert.ok(sig[64] === 27 || sig[64] === 28);
    assert.equal(recoverSigner(digest, sig), testAddress(1));
    assert.ok(verifySigner(digest, sig, testAddress(1).toUpperCase().replace('0X', '0x')));
    const other = new Uint8Array(32).fill(8);
    assert.notEqual(recoverSigner(other, sig), testAddress(1));
    const broken = sig.slice();
    broken[64] = 5;
    assert.equal(recoverSigner(digest, broken), undefined);
  });
});

describe('keystore', () => {
  const validator = (i: number, extra: Record<string, unknown> = {}) => ({
    attester: testKey(i),
    feeRecipient: testFeeRecipient(i),
    ...extra,
  });

  it('loads attester, default publisher and coinbase, fee recipient', () => {
    const [v] = parseKeystoreFile('k.json', JSON.stringify({ schemaVersion: 1, validators: [validator(1)] }));
    assert.equal(v!.attester.address, testAddress(1));
    assert.deepEqual(
      v!.publishers.map((p) => p.address),
      [testAddress(1)],
    );
    assert.equal(v!.coinbase, testAddress(1));
    assert.equal(v!.feeRecipient, testFeeRecipient(1));
  });

  it('takes explicit publishers ({eth} form too), coinbase and an attester list', () => {
    const vs = parseKeystoreFile(
      'k.json',
      JSON.stringify({
        validators: [
          {
            attester: [testKey(1), { eth: testKey(2) }],
            publisher: [testKey(9)],
            coinbase: '0x00000000000000000000000000000000000000AA',
            feeRecipient: testFeeRecipient(1),
          },
        ],
      }),
    );
    assert.deepEqual(
      vs.map((v) => v.attester.address),
      [testAddress(1), testAddress(2)],
    );
    assert.ok(
      vs.every(
        (v) =>
          v.publishers[0]!.address === testAddress(9) && v.coinbase === '0x00000000000000000000000000000000000000aa',
      ),
    );
  });

  it('names the problem and never repeats a key', () => {
    const cases: [string, string][] = [
      [`{"validators":[{"attester":"${testKey(1)}",}]}`, 'k.json: not valid JSON'],
      ['[]', 'k.json: the top level must be an object'],
      ['{"validators":{}}', 'k.json: validators must be an array'],
      [
        JSON.stringify({ validators: [{ feeRecipient: testFeeRecipient(1) }] }),
        'k.json: validators[0].attester is required',
      ],
      [
        JSON.stringify({ validators: [{ attester: testKey(1).slice(0, 60), feeRecipient: testFeeRecipient(1) }] }),
        'validators[0].attester is not a valid secp256k1 private key',
      ],
      [
        JSON.stringify({ validators: [{ attester: `0x${'f'.repeat(64)}`, feeRecipient: testFeeRecipient(1) }] }),
        'validators[0].attester is not a valid secp256k1 private key',
      ],
      [
        JSON.stringify({
          validators: [{ attester: { remoteSignerUrl: 'http://x' }, feeRecipient: testFeeRecipient(1) }],
        }),
        'remote signers',
      ],
      [JSON.stringify({ validators: [validator(1, { publisher: [] })] }), 'validators[0].publisher must not be empty'],
      [
        JSON.stringify({ validators: [validator(1, { coinbase: '0x12' })] }),
        'validators[0].coinbase must be an Ethereum address',
      ],
      [JSON.stringify({ validators: [{ attester: testKey(1) }] }), 'validators[0].feeRecipient is required'],
      [JSON.stringify({ schemaVersion: 2, validators: [] }), 'schemaVersion must be 1'],
    ];
    for (const [text, expected] of cases) {
      assert.throws(
        () => parseKeystoreFile('k.json', text),
        (err: unknown) => {
          assert.ok(err instanceof KeystoreError);
          assert.equal(err.problem, 'INVALID_KEYSTORE');
          assert.ok(err.message.includes(expected), `${err.message} should include ${expected}`);
          assert.ok(!err.message.includes(testKey(1).slice(2, 40)), 'the key leaked into the message');
          return true;
        },
      );
    }
  });

  it('a signer does not serialise its key', () => {
    const [v] = parseKeystoreFile('k.json', JSON.stringify({ validators: [validator(3)] }));
    const text = JSON.stringify(v) + String(Object.values(v!.attester));
    assert.ok(!text.includes(testKey(3).slice(2)));
    assert.ok(text.includes(testAddress(3)));
  });

  it('loads a directory in name order and refuses an attester twice', () => {
    const dir = tempDir();
    writeKeystore(dir, 'b.json', [validator(2)]);
    writeKeystore(dir, 'a.json', [validator(1)]);
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    assert.deepEqual(
      loadKeystore(dir).validators.map((v) => [v.file, v.attester.address]),
      [
        ['a.json', testAddress(1)],
        ['b.json', testAddress(2)],
      ],
    );
    writeKeystore(dir, 'c.json', [validator(1)]);
    assert.throws(() => loadKeystore(dir), /c\.json: attester .* appears twice/);
    const empty = join(tempDir(), 'empty');
    mkdirSync(empty);
    assert.throws(() => loadKeystore(empty), /no \.json keystore file/);
    assert.throws(() => loadKeystore(join(empty, 'missing.json')), /cannot read missing\.json/);
  });
});
