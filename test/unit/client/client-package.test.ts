/** The client package's own code (src/client/): typed error guards, the tx subpath's dev fee payers and reference hashing. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAnyNodeError, isNodeError, JsonRpcError } from '../../../src/client/index.ts';
import { isNodeAdminError } from '../../../src/client/admin.ts';
import { DEV_FEE_PAYERS } from '../../../src/client/tx.ts';
import {
  poseidon2HashReference,
  poseidon2HashWithSeparatorReference,
} from '../../../src/impl/crypto/poseidon2-reference.ts';
import { poseidon2Hash, poseidon2HashWithSeparator } from '../../../src/impl/crypto/poseidon2.ts';
import { DEV_FUNDED_ACCOUNTS } from '../../../src/impl/engine.ts';

describe('typed error guards', () => {
  const notSynced = new JsonRpcError(-32010, 'Block 9 not yet synced (world state is at block 8)', {
    requested: 9,
    latest: 8,
  });
  it('isNodeError matches by code and narrows data', () => {
    assert.equal(isNodeError(notSynced, 'BLOCK_NOT_YET_SYNCED'), true);
    if (isNodeError(notSynced, 'BLOCK_NOT_YET_SYNCED')) assert.equal(notSynced.data.latest, 8);
    assert.equal(isNodeError(notSynced, 'BLOCK_NOT_RETAINED'), false);
    assert.equal(isNodeError(new Error('x'), 'BLOCK_NOT_YET_SYNCED'), false);
    assert.equal(isNodeError({ code: -32010 }, 'BLOCK_NOT_YET_SYNCED'), false, 'a plain object is not a JsonRpcError');
  });
  it('isAnyNodeError knows only the catalogue codes; the admin guard uses the admin catalogue', () => {
    assert.equal(isAnyNodeError(notSynced), true);
    assert.equal(isAnyNodeError(new JsonRpcError(-31999, 'x')), false);
    assert.equal(
      isNodeAdminError(new JsonRpcError(-32602, 'x', { index: 0, param: 'p', rule: 'r' }), 'INVALID_PARAMS'),
      true,
    );
  });
});

describe('@l2node/client/tx', () => {
  it('DEV_FEE_PAYERS are the accounts the dev node funds at genesis', () => {
    assert.deepEqual(DEV_FEE_PAYERS, DEV_FUNDED_ACCOUNTS);
  });
  it("the BigInt reference Poseidon2 the package hashes with (scripts/pack.ts) equals the node's kernel on tx-sized inputs", () => {
    for (const length of [0, 1, 3, 700, 1001]) {
      const inputs = Array.from({ length }, (_, i) => (BigInt(i) * 0x1234567890abcdefn + 1n) << 120n);
      assert.equal(poseidon2HashReference(inputs), poseidon2Hash(inputs), `length ${length}`);
      assert.equal(
        poseidon2HashWithSeparatorReference(inputs, 7),
        poseidon2HashWithSeparator(inputs, 7),
        `length ${length}`,
      );
    }
  });
});
