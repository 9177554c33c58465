/** ENR (EIP-778, v4 scheme): the EIP's example record, round trips, and rejection of bad records. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeEnr, encodeEnr, enrNodeId } from '../../../src/impl/p2p/enr.ts';
import { rlpDecode, rlpEncode } from '../../../src/impl/p2p/rlp.ts';
import type { RlpItem } from '../../../src/impl/p2p/rlp.ts';

// The example record from the EIP-778 text (private key, record text and node id as given there).
const EIP_KEY = Buffer.from('b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291', 'hex');
const EIP_ENR =
  'enr:-IS4QHCYrYZbAKWCBRlAy5zzaDZXJBGkcnh4MHcBFZntXNFrdvJjX04jRzjzCBOonrkTfj499SZuOh8R33Ls8RRcy5wBgmlkgnY0gmlwhH8AAAGJc2VjcDI1NmsxoQPKY0yuDUmstAHYpMa2_oxVtw0RW_QAdpzBQA8yWM0xOIN1ZHCCdl8';
const EIP_NODE_ID = 'a448f24c6d18e575453db13171562b71999873db5b286df957af199ec94617f7';

const toRecord = (text: string) => rlpDecode(Buffer.from(text.slice(4), 'base64url')) as Uint8Array[];
const fromRecord = (items: RlpItem[]) => 'enr:' + Buffer.from(rlpEncode(items)).toString('base64url');

describe('EIP-778 example record', () => {
  it('decodes: seq 1, ip 127.0.0.1, udp 30303, the node id of the EIP', () => {
    const enr = decodeEnr(EIP_ENR);
    assert.equal(enr.seq, 1n);
    assert.equal(enr.ip, '127.0.0.1');
    assert.equal(enr.udp, 30303);
    assert.equal(enr.tcp, undefined);
    assert.equal(enr.nodeId, EIP_NODE_ID);
    assert.deepEqual(enr.publicKey, secp256k1.getPublicKey(EIP_KEY, true));
  });

  it('is reproduced byte for byte from its private key (deterministic signature)', () => {
    assert.equal(encodeEnr(EIP_KEY, { seq: 1n, ip: '127.0.0.1', udp: 30303 }), EIP_ENR);
  });
});

describe('encode/decode', () => {
  it('round trips a record with tcp and udp', () => {
    const key = secp256k1.utils.randomSecretKey();
    const text = encodeEnr(key, { seq: 1795000000n, ip: '10.1.2.3', tcp: 40400, udp: 40400 });
    const enr = decodeEnr(text);
    assert.deepEqual([enr.seq, enr.ip, enr.tcp, enr.udp], [1795000000n, '10.1.2.3', 40400, 40400]);
    assert.equal(enr.nodeId, enrNodeId(secp256k1.getPublicKey(key, true)));
    // The signature verifies independently: secp256k1 over keccak256(rlp([seq, k, v, ...])).
    assert.ok(secp256k1.verify(enr.signature, keccak(toRecord(text).slice(1)), enr.publicKey, { prehash: false }));
  });

  it('puts IPv6 hosts under ip6/tcp6', () => {
    const enr = decodeEnr(encodeEnr(secp256k1.utils.randomSecretKey(), { seq: 2n, ip: '::1', tcp: 9000 }));
    assert.deepEqual([enr.ip, enr.ip6, enr.tcp6], [undefined, '0:0:0:0:0:0:0:1', 9000]);
  });
});

describe('rejects', () => {
  it('a changed value (signature no longer matches)', () => {
    const items = toRecord(EIP_ENR);
    items[items.length - 1] = Uint8Array.of(0x76, 0x60); // udp 30304
    assert.throws(() => decodeEnr(fromRecord(items)), /bad signature/);
  });

  it('a signature by another key', () => {
    const items = toRecord(encodeEnr(secp256k1.utils.randomSecretKey(), { seq: 1n, ip: '127.0.0.1', udp: 30303 }));
    const eip = toRecord(EIP_ENR);
    assert.throws(() => decodeEnr(fromRecord([items[0]!, ...eip.slice(1)])), /bad signature/);
  });

  it('unsorted keys, a missing prefix, a non-v4 scheme', () => {
    const [sig, seq, ...kv] = toRecord(EIP_ENR);
    const swapped = [sig!, seq!, ...kv.slice(2, 4), ...kv.slice(0, 2), ...kv.slice(4)];
    assert.throws(() => decodeEnr(fromRecord(swapped)), /sorted/);
    assert.throws(() => decodeEnr(EIP_ENR.slice(4)), /prefix/);
    const v5 = [sig!, seq!, kv[0]!, new TextEncoder().encode('v5'), ...kv.slice(2)];
    assert.throws(() => decodeEnr(fromRecord(v5)), /not v4/);
  });
});

function keccak(content: RlpItem[]): Uint8Array {
  return keccak_256(rlpEncode(content));
}
