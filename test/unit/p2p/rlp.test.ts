/** RLP: the examples of the Ethereum RLP documentation and canonical-form checks. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeUint, encodeUint, rlpDecode, rlpEncode } from '../../../src/impl/p2p/rlp.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const str = (s: string) => new TextEncoder().encode(s);

describe('rlp', () => {
  it('encodes the documented examples', () => {
    assert.equal(hex(rlpEncode(str('dog'))), '83646f67');
    assert.equal(hex(rlpEncode([str('cat'), str('dog')])), 'c88363617483646f67');
    assert.equal(hex(rlpEncode(new Uint8Array(0))), '80');
    assert.equal(hex(rlpEncode([])), 'c0');
    assert.equal(hex(rlpEncode(Uint8Array.of(0x0f))), '0f');
    assert.equal(hex(rlpEncode(encodeUint(1024))), '820400');
    assert.equal(hex(rlpEncode([[], [[]], [[], [[]]]])), 'c7c0c1c0c3c0c1c0');
    const lorem = str('Lorem ipsum dolor sit amet, consectetur adipisicing elit');
    assert.equal(hex(rlpEncode(lorem)).slice(0, 4), 'b838');
  });

  it('decodes what it encodes', () => {
    const item = [str('cat'), [str('dog'), new Uint8Array(60).fill(1)], new Uint8Array(0)];
    assert.deepEqual(rlpDecode(rlpEncode(item)), item);
  });

  it('rejects non-canonical and truncated input', () => {
    assert.throws(() => rlpDecode(Uint8Array.of(0x81, 0x05)), /single byte/);
    assert.throws(() => rlpDecode(Uint8Array.of(0xb8, 0x05, 1, 2, 3, 4, 5)), /long length/);
    assert.throws(() => rlpDecode(Uint8Array.of(0x83, 0x64, 0x6f)), /truncated/);
    assert.throws(() => rlpDecode(Uint8Array.of(0x80, 0x80)), /trailing/);
    assert.throws(() => decodeUint(Uint8Array.of(0, 1)), /leading zero/);
  });

  it('integers are minimal big-endian', () => {
    assert.equal(hex(encodeUint(0)), '');
    assert.equal(hex(encodeUint(30303)), '765f');
    assert.equal(decodeUint(Uint8Array.of(0x76, 0x5f)), 30303n);
  });
});
