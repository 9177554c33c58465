/** Keystore reload: add, remove, replace, settings; every failure leaves the running keys unchanged. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { KeystoreError } from '../../../src/impl/validators/keystore.ts';
import { ValidatorKeyring } from '../../../src/impl/validators/keyring.ts';
import { tempDir, testAddress, testFeeRecipient, testKey, writeKeystore } from './helpers.ts';

const v = (i: number, extra: Record<string, unknown> = {}) => ({
  attester: testKey(i),
  publisher: testKey('pub'),
  feeRecipient: testFeeRecipient(i),
  ...extra,
});

function setup() {
  const dir = tempDir();
  writeKeystore(dir, 'keys.json', [v(1), v(2)]);
  return { dir, keyring: ValidatorKeyring.open({ path: dir }) };
}

function rejects(keyring: ValidatorKeyring, problem: string, pattern?: RegExp) {
  const before = keyring.attesters.map((a) => [a, keyring.get(a)!.coinbase, keyring.get(a)!.feeRecipient]);
  assert.throws(
    () => keyring.reload(),
    (err: unknown) =>
      err instanceof KeystoreError && err.problem === problem && (pattern === undefined || pattern.test(err.message)),
  );
  assert.deepEqual(
    keyring.attesters.map((a) => [a, keyring.get(a)!.coinbase, keyring.get(a)!.feeRecipient]),
    before,
  );
}

describe('ValidatorKeyring.reload', () => {
  it('adds, removes and updates validators and tells listeners', () => {
    const { dir, keyring } = setup();
    const seen: unknown[] = [];
    keyring.onChange((c) => seen.push(c));
    writeKeystore(dir, 'keys.json', [v(2, { coinbase: '0x' + 'ab'.repeat(20) }), v(3)]);
    const change = keyring.reload();
    assert.deepEqual(change, { added: [testAddress(3)], removed: [testAddress(1)], updated: [testAddress(2)] });
    assert.deepEqual(seen, [change]);
    assert.deepEqual(keyring.attesters, [testAddress(2), testAddress(3)]);
    assert.equal(keyring.get(testAddress(2))!.coinbase, '0x' + 'ab'.repeat(20));
    assert.equal(keyring.signerOf(testAddress(1)), undefined);
    assert.equal(keyring.signerOf(testAddress(3))!.address, testAddress(3));
  });

  it('replaces an attester key (same entry, new key)', () => {
    const { dir, keyring } = setup();
    writeKeystore(dir, 'keys.json', [v(1), v(7)]);
    assert.deepEqual(keyring.reload(), { added: [testAddress(7)], removed: [testAddress(2)], updated: [] });
  });

  it('refuses a validator whose publisher was not initialised at startup, naming both', () => {
    const { dir, keyring } = setup();
    writeKeystore(dir, 'keys.json', [v(1), v(2), v(3, { publisher: testKey('other-pub') })]);
    assert.throws(
      () => keyring.reload(),
      (err: unknown) => {
        assert.ok(err instanceof KeystoreError);
        assert.equal(err.problem, 'UNKNOWN_PUBLISHER');
        assert.equal(err.detail, `publisher ${testAddress('other-pub')} was not initialized at startup`);
        assert.equal(err.validator, testAddress(3));
        return true;
      },
    );
    assert.deepEqual(keyring.attesters, [testAddress(1), testAddress(2)]);
  });

  it('refuses an invalid file and keeps the running keys', () => {
    const { dir, keyring } = setup();
    writeFileSync(join(dir, 'keys.json'), '{"validators": [');
    rejects(keyring, 'INVALID_KEYSTORE', /keys\.json: not valid JSON/);
    writeKeystore(dir, 'keys.json', [v(1), { attester: testKey(4) }]);
    rejects(keyring, 'INVALID_KEYSTORE', /validators\[1\]\.feeRecipient is required/);
  });

  it('without a keystore path or with the validator disabled', () => {
    assert.throws(
      () => ValidatorKeyring.open().reload(),
      (e: unknown) => e instanceof KeystoreError && e.problem === 'NO_KEYSTORE_DIRECTORY',
    );
    const { dir } = setup();
    assert.throws(
      () => ValidatorKeyring.open({ path: dir, disabled: true }).reload(),
      (e: unknown) => e instanceof KeystoreError && e.problem === 'VALIDATOR_DISABLED',
    );
  });
});
