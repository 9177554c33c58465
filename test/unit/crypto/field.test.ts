import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FIELD_MODULUS,
  isField,
  toFieldHex,
  parseFieldHex,
  fieldFromBytes,
  fieldToBytes,
} from '../../../src/impl/crypto/field.ts';

test('the modulus is the BN254 scalar field order', () => {
  assert.equal(FIELD_MODULUS, BigInt('0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001'));
});

test('isField accepts [0, p) bigints only', () => {
  assert.equal(isField(0n), true);
  assert.equal(isField(FIELD_MODULUS - 1n), true);
  assert.equal(isField(FIELD_MODULUS), false);
  assert.equal(isField(-1n), false);
  assert.equal(isField(1), false);
});

test('toFieldHex gives 0x + 64 lowercase hex digits and parseFieldHex inverts it', () => {
  const x = 0xabcdefn;
  const hex = toFieldHex(x);
  assert.match(hex, /^0x[0-9a-f]{64}$/);
  assert.equal(hex.endsWith('abcdef'), true);
  assert.equal(parseFieldHex(hex), x);
  assert.equal(parseFieldHex('0xABCDEF'), x);
});

test('parseFieldHex rejects values >= modulus, bad hex and over-long strings', () => {
  assert.throws(() => parseFieldHex('0x' + FIELD_MODULUS.toString(16)), RangeError);
  assert.throws(() => parseFieldHex('0xzz'), RangeError);
  assert.throws(() => parseFieldHex('12'), RangeError);
  assert.throws(() => parseFieldHex('0x' + '0'.repeat(65)), RangeError);
  assert.throws(() => toFieldHex(FIELD_MODULUS), RangeError);
});

test('fieldToBytes writes 32 big-endian bytes and fieldFromBytes reads them back', () => {
  const x = FIELD_MODULUS - 12345n;
  const b = fieldToBytes(x);
  assert.equal(b.length, 32);
  assert.equal(Buffer.from(b).toString('hex'), x.toString(16).padStart(64, '0'));
  assert.equal(fieldFromBytes(b), x);
  const wide = new Uint8Array(40);
  fieldToBytes(7n, wide, 8);
  assert.equal(wide[39], 7);
  assert.equal(fieldFromBytes(wide, 8), 7n);
});

test('fieldFromBytes rejects 32 bytes encoding a value >= modulus and short input', () => {
  const b = new Uint8Array(32).fill(0xff);
  assert.throws(() => fieldFromBytes(b), RangeError);
  assert.throws(() => fieldFromBytes(new Uint8Array(31)), RangeError);
});
