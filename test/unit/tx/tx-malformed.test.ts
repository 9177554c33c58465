/** Malformed `Tx` input: every defect is a `TxDecodeError` naming where it is. @module */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FIELD_MODULUS } from '../../../src/impl/crypto/field.ts';
import { TxDecodeError } from '../../../src/impl/tx/errors.ts';
import { computeCalldataHash } from '../../../src/impl/tx/tx-hash.ts';
import { decodeTx } from '../../../src/impl/tx/tx-wire.ts';
import type { WireTx } from '../../../src/impl/tx/types.ts';
import { loadVector } from './helpers/vectors.ts';

const rollup = loadVector('rollup-01-minimal.json');
const withCalls = loadVector('public-05-setup-app-teardown.json');
const withLog = loadVector('rollup-06-contract-class-log.json');
const hex = (x: bigint) => '0x' + x.toString(16).padStart(64, '0');
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');

/** A deep copy of a wire tx, with a patch applied. */
function patched(wire: WireTx, patch: (w: Record<string, any>) => void): unknown {
  const copy = structuredClone(wire) as Record<string, any>;
  patch(copy);
  return copy;
}

/** The wire tx with its `data` bytes transformed. */
function withData(wire: WireTx, edit: (bytes: Uint8Array) => Uint8Array): unknown {
  const bytes = new Uint8Array(Buffer.from(wire.data, 'base64'));
  return { ...wire, data: b64(edit(bytes)) };
}

/** Asserts decodeTx throws a TxDecodeError at `path` whose detail matches `detail`. */
function assertRejects(json: unknown, path: string, detail: RegExp): void {
  assert.throws(
    () => decodeTx(json),
    (err: unknown) => {
      assert.ok(err instanceof TxDecodeError, `expected TxDecodeError, got ${String(err)}`);
      assert.equal(err.path, path);
      assert.match(err.detail, detail);
      assert.equal(err.message, `${path}: ${err.detail}`);
      return true;
    },
  );
}

describe('decodeTx: JSON shape', () => {
  it('a non-object is rejected', () => {
    for (const v of [null, 'tx', 5, [rollup.wire]]) assertRejects(v, 'tx', /must be an object/);
  });

  it('each missing required key is named', () => {
    for (const key of ['data', 'chonkProof', 'contractClassLogFields', 'publicFunctionCalldata']) {
      assertRejects(
        patched(rollup.wire, (w) => delete w[key]),
        `tx.${key}`,
        /missing/,
      );
    }
  });

  it('an unknown key is rejected', () => {
    assertRejects(
      patched(rollup.wire, (w) => (w.extra = 1)),
      'tx.extra',
      /unexpected key/,
    );
  });

  it('wrong JSON types are rejected', () => {
    assertRejects(
      patched(rollup.wire, (w) => (w.data = 5)),
      'tx.data',
      /must be a string, got a number/,
    );
    assertRejects(
      patched(rollup.wire, (w) => (w.contractClassLogFields = {})),
      'tx.contractClassLogFields',
      /must be an array/,
    );
    assertRejects(
      patched(withCalls.wire, (w) => (w.publicFunctionCalldata[0].values = 'x')),
      'tx.publicFunctionCalldata[0].values',
      /must be an array/,
    );
    assertRejects(
      patched(withCalls.wire, (w) => (w.publicFunctionCalldata[0].values[0] = 7)),
      'tx.publicFunctionCalldata[0].values[0]',
      /0x-hex field/,
    );
  });

  it('a calldata value >= the field modulus is rejected', () => {
    assertRejects(
      patched(withCalls.wire, (w) => (w.publicFunctionCalldata[1].hash = hex(FIELD_MODULUS))),
      'tx.publicFunctionCalldata[1].hash',
      /field modulus/,
    );
  });
});

describe('decodeTx: txHash key', () => {
  it('a wrong txHash is ignored and the right one computed', () => {
    const tx = decodeTx({ ...rollup.wire, txHash: hex(123n) });
    assert.equal(hex(tx.txHash), rollup.txHash);
  });

  it('an absent txHash is accepted (the hash is always recomputed)', () => {
    const { txHash: _ignored, ...rest } = rollup.wire;
    assert.equal(hex(decodeTx(rest).txHash), rollup.txHash);
  });

  it('a txHash that is not 32-byte hex is rejected', () => {
    assertRejects({ ...rollup.wire, txHash: '0x12' }, 'tx.txHash', /64 hex digits/);
  });
});

describe('decodeTx: base64', () => {
  it('characters outside the standard alphabet are rejected', () => {
    assertRejects({ ...rollup.wire, data: '!' + rollup.wire.data.slice(1) }, 'tx.data', /not valid base64/);
    assertRejects(
      { ...rollup.wire, chonkProof: rollup.wire.chonkProof.replace(/.$/, '_') },
      'tx.chonkProof',
      /not valid base64/,
    );
  });

  it('missing padding and non-canonical padding bits are rejected', () => {
    // rollup data is 38 557 bytes: 38 557 mod 3 = 1, so its base64 ends in "==".
    assert.ok(rollup.wire.data.endsWith('=='));
    assertRejects({ ...rollup.wire, data: rollup.wire.data.slice(0, -2) }, 'tx.data', /not valid base64/);
    const last = rollup.wire.data.at(-3)!;
    const bumped = String.fromCharCode(last.charCodeAt(0) + 1); // sets a padding bit ('A'..'Y' stay in the alphabet)
    assert.match(last, /[A-Y]/);
    assertRejects({ ...rollup.wire, data: rollup.wire.data.slice(0, -3) + bumped + '==' }, 'tx.data', /canonical/);
  });
});

describe('decodeTx: data bytes', () => {
  it('truncation at several offsets names the byte and the field being read', () => {
    const cases: [number, RegExp][] = [
      [0, /truncated at byte 0 .*isForPublic/],
      [1, /truncated at byte 1 .*constants\.anchorBlockHeader\.lastArchive\.root/],
      [460, /truncated at byte 441 \(needed 13 more\) reading constants\.txContext\.chainId/],
      [700, /truncated at byte 697 .*forRollup\.end\.noteHashes\[0\]/],
      [38_556, /truncated at byte 38(4|5)\d\d .*contractClassLogsHashes\[0\]/],
    ];
    for (const [length, detail] of cases)
      assertRejects(
        withData(rollup.wire, (b) => b.slice(0, length)),
        'tx.data',
        detail,
      );
  });

  it('trailing bytes are rejected', () => {
    assertRejects(
      withData(rollup.wire, (b) => Buffer.concat([b, new Uint8Array(12)])),
      'tx.data',
      /^12 trailing bytes$/,
    );
  });

  it('a rollup body under a forPublic flag is too short', () => {
    assertRejects(
      withData(rollup.wire, (b) => ((b[0] = 1), b)),
      'tx.data',
      /truncated/,
    );
  });

  it('a bool byte other than 0 or 1 is rejected', () => {
    assertRejects(
      withData(rollup.wire, (b) => ((b[0] = 2), b)),
      'tx.data.isForPublic',
      /0x00 or 0x01, got 0x02/,
    );
  });

  it('a field equal to the modulus is rejected; modulus - 1 decodes', () => {
    const chainIdAt = 1 + 440; // TX-FORMAT §2.3: txContext.chainId
    const put = (x: bigint) => (b: Uint8Array) => (
      b.set(Buffer.from(x.toString(16).padStart(64, '0'), 'hex'), chainIdAt), b
    );
    assertRejects(
      withData(rollup.wire, put(FIELD_MODULUS)),
      'tx.data.constants.txContext.chainId',
      /value >= field modulus/,
    );
    assertRejects(
      withData(rollup.wire, put((1n << 256n) - 1n)),
      'tx.data.constants.txContext.chainId',
      /value >= field modulus/,
    );
    const tx = decodeTx(withData(rollup.wire, put(FIELD_MODULUS - 1n)));
    assert.equal(tx.data.constants.txContext.chainId, FIELD_MODULUS - 1n);
    assert.notEqual(hex(tx.txHash), rollup.txHash);
  });
});

describe('decodeTx: chonkProof bytes', () => {
  const proof = new Uint8Array(Buffer.from(rollup.wire.chonkProof, 'base64'));

  it('a field count other than 1935 is rejected', () => {
    const b = proof.slice();
    b[3] = 0x8e; // 1934
    assertRejects({ ...rollup.wire, chonkProof: b64(b) }, 'tx.chonkProof.length', /must be 1935, got 1934/);
  });

  it('a short proof and trailing bytes are rejected', () => {
    assertRejects({ ...rollup.wire, chonkProof: b64(proof.slice(0, 100)) }, 'tx.chonkProof', /truncated at byte 100/);
    assertRejects(
      { ...rollup.wire, chonkProof: b64(Buffer.concat([proof, new Uint8Array(3)])) },
      'tx.chonkProof',
      /3 trailing bytes/,
    );
  });

  it('a proof field >= the modulus is rejected', () => {
    const b = proof.slice();
    b.fill(0xff, 4 + 32 * 7, 4 + 32 * 8);
    assertRejects({ ...rollup.wire, chonkProof: b64(b) }, 'tx.chonkProof.fields[7]', /field modulus/);
  });
});

describe('decodeTx: publicFunctionCalldata against the call requests', () => {
  it('entries in any order are accepted (paired by hash)', () => {
    const tx = decodeTx(patched(withCalls.wire, (w) => w.publicFunctionCalldata.reverse()));
    assert.equal(hex(tx.txHash), withCalls.txHash);
  });

  it('an entry whose values do not hash to its hash is rejected', () => {
    assertRejects(
      patched(withCalls.wire, (w) => (w.publicFunctionCalldata[1].values[0] = hex(99n))),
      'tx.publicFunctionCalldata[1].hash',
      /does not match the hash of its values/,
    );
  });

  it('a self-consistent entry that matches no call request is rejected', () => {
    const other = patched(withCalls.wire, (w) => {
      w.publicFunctionCalldata[1] = { values: [hex(1n)], hash: hex(computeCalldataHash([1n])) };
    });
    assertRejects(other, 'tx.publicFunctionCalldata[1]', /hash mismatch with publicCallRequest/);
  });

  it('a missing or extra entry is a count mismatch', () => {
    assertRejects(
      patched(withCalls.wire, (w) => w.publicFunctionCalldata.pop()),
      'tx.publicFunctionCalldata',
      /5 entries for 6 public call requests/,
    );
    assertRejects(
      patched(rollup.wire, (w) => w.publicFunctionCalldata.push({ values: [], hash: hex(computeCalldataHash([])) })),
      'tx.publicFunctionCalldata',
      /1 entries for 0/,
    );
  });

  it('a duplicated entry cannot stand in for another request', () => {
    assertRejects(
      patched(withCalls.wire, (w) => (w.publicFunctionCalldata[1] = w.publicFunctionCalldata[0])),
      'tx.publicFunctionCalldata[1]',
      /hash mismatch with publicCallRequest/,
    );
  });
});

describe('decodeTx: contractClassLogFields against the log hashes', () => {
  it('the vector with a contract class log decodes', () => {
    assert.equal(hex(decodeTx(withLog.wire).txHash), withLog.txHash);
  });

  it('a changed field is a hash mismatch', () => {
    assertRejects(
      patched(withLog.wire, (w) => (w.contractClassLogFields[0].fields[5] = hex(77n))),
      'tx.contractClassLogFields[0]',
      /hash mismatch/,
    );
  });

  it('a log not padded to 3023 fields is rejected', () => {
    assertRejects(
      patched(withLog.wire, (w) => w.contractClassLogFields[0].fields.pop()),
      'tx.contractClassLogFields[0].fields',
      /3023 entries, got 3022/,
    );
  });

  it('a committed length shorter than the meaningful fields is rejected', () => {
    const lengthAt = 697 + 37_792 + 32; // TX-FORMAT §2.5: end.contractClassLogsHashes[0].logHash.length
    const short = withData(withLog.wire, (b) => (new DataView(b.buffer).setUint32(lengthAt, 1), b));
    assertRejects(short, 'tx.contractClassLogFields[0]', /meaningful fields but the committed length is 1$/);
  });

  it('a missing or extra log is a count mismatch', () => {
    assertRejects(
      patched(withLog.wire, (w) => w.contractClassLogFields.pop()),
      'tx.contractClassLogFields',
      /0 entries for 1/,
    );
    assertRejects(
      patched(rollup.wire, (w) => w.contractClassLogFields.push(withLog.wire.contractClassLogFields[0])),
      'tx.contractClassLogFields',
      /1 entries for 0/,
    );
  });
});
