import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sha256ToField } from '../../../src/impl/crypto/sha256-to-field.ts';
import { toFieldHex } from '../../../src/impl/crypto/field.ts';
import { treesVectors as V } from './vectors.ts';

test('sha256ToField of the checkpoint header buffer reproduces the checkpointHeaderHash vector', () => {
  const buf = Buffer.from(V.checkpointHeaderHash.bufferHex.slice(2), 'hex');
  assert.equal(toFieldHex(sha256ToField(buf)), V.checkpointHeaderHash.hash);
});

test('sha256ToField is 0x00 followed by the first 31 digest bytes', () => {
  const data = Buffer.from('l2node');
  const digest = createHash('sha256').update(data).digest();
  assert.equal(toFieldHex(sha256ToField(data)), '0x00' + digest.subarray(0, 31).toString('hex'));
});
