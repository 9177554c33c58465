/**
 * Anonymous calls cannot grow the node's memory or hold its event loop (docs/OPERATIONS.md "Browser
 * safety and hostile callers"): the real node (src/main.ts, both servers on loopback, in this process
 * so the test can read the registry's own size) takes signature registrations far past the cap.
 * @module
 */
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { main } from '../../src/main.ts';
import type { RunningNode } from '../../src/main.ts';
import { DEFAULT_SIGNATURE_LIMITS, functionSelectorFromSignature } from '../../src/impl/contracts/function-selector.ts';
import { post } from './server-harness.ts';

/** A distinct signature of `length` characters. */
function signature(n: number, length: number): string {
  const head = `fn_${n}(`;
  return head + 'Field,'.repeat(Math.ceil(length / 6)).slice(0, length - head.length - 4) + 'u32)';
}

function registerCall(id: number, signatures: string[]) {
  return { jsonrpc: '2.0', id, method: 'node_registerContractFunctionSignatures', params: [signatures] };
}

describe('node_registerContractFunctionSignatures from anonymous callers', () => {
  let node: RunningNode;
  let url: string;
  before(async () => {
    node = (await main(
      ['--data-directory', '', '--port', '0', '--admin-port', '0', '--sequencer=false', '--log-level', 'silent'],
      {},
    ))!;
    url = `http://127.0.0.1:${node.publicAddress.port}`;
  });
  after(() => node?.stop());

  it('a signature longer than 1024 characters is refused with -32602 naming the parameter', async () => {
    const res = await post(url, registerCall(1, ['ok()', signature(0, 1025)]));
    const { error } = res.json();
    assert.equal(error.code, -32602);
    assert.match(error.message, /params\[0\] \(functionSignatures\)/);
    assert.match(error.message, /1024/);
    assert.equal((await post(url, registerCall(2, [signature(0, 1024)]))).json().result, null);
  });

  it('far past the cap (5× its bytes, 2× its entries) the registry stays bounded, keeping the newest', async () => {
    const { maxEntries, maxBytes } = DEFAULT_SIGNATURE_LIMITS;
    let n = 1;
    // Long signatures: 6 bodies of 9 calls × 100 × 1000 characters (~0.9 MB each, under --max-body-bytes).
    for (let body = 0; body < 6; body++) {
      const batch = Array.from({ length: 9 }, (_, c) =>
        registerCall(
          c,
          Array.from({ length: 100 }, () => signature(n++, 1000)),
        ),
      );
      const answers = (await post(url, batch)).json();
      assert.deepEqual(
        answers.map((a: { result?: unknown }) => a.result),
        Array(9).fill(null),
      );
      assert.ok(node.node.signatures.bytes <= maxBytes, `bytes ${node.node.signatures.bytes}`);
    }
    const newest = signature(n - 1, 1000);
    assert.equal(node.node.signatures.findSignature(functionSelectorFromSignature(newest)), newest);
    assert.equal(node.node.signatures.findSignature(functionSelectorFromSignature(signature(1, 1000))), undefined);
    // Short signatures: 2 bodies of 100 calls × 100.
    for (let body = 0; body < 2; body++) {
      const batch = Array.from({ length: 100 }, (_, c) =>
        registerCall(
          c,
          Array.from({ length: 100 }, () => signature(n++, 12)),
        ),
      );
      assert.equal((await post(url, batch)).status, 200);
      assert.ok(node.node.signatures.size <= maxEntries, `size ${node.node.signatures.size}`);
    }
    assert.equal(node.node.signatures.size, maxEntries);
  });

  it('a cheap call is answered while a large registration is still being hashed', async () => {
    const sigs = Array.from({ length: 900 }, (_, i) => signature(1_000_000 + i, 1000));
    const batch = Array.from({ length: 9 }, (_, c) => registerCall(c, sigs.slice(c * 100, c * 100 + 100)));
    const [first, last] = [functionSelectorFromSignature(sigs[0]!), functionSelectorFromSignature(sigs[899]!)];
    let registrationAnswered = false;
    const registration = post(url, batch).then((res) => {
      registrationAnswered = true;
      return res;
    });
    // Wait, turn by turn, until the node has started on this body.
    while (node.node.signatures.findSignature(first) === undefined) await nextTurn();
    const cheap = await post(url, { jsonrpc: '2.0', id: 1, method: 'node_getChainId', params: [] });
    assert.equal(cheap.json().result, 31337);
    assert.equal(registrationAnswered, false, 'the cheap call was answered before the registration');
    assert.equal(node.node.signatures.findSignature(last), undefined, 'and before its last signature was hashed');
    assert.equal((await registration).status, 200);
    assert.equal(node.node.signatures.findSignature(last), sigs[899]);
  });
});
