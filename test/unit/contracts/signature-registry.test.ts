/** The function signature registry stays bounded: entries and bytes, least recently registered forgotten first. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_SIGNATURE_LIMITS,
  FunctionSignatureRegistry,
  functionSelectorFromSignature,
} from '../../../src/impl/contracts/function-selector.ts';

const sig = (i: number, pad = 0) => `f${i}(${'Field,'.repeat(pad)}u32)`;

describe('FunctionSignatureRegistry bounds', () => {
  it('keeps at most maxEntries, forgetting the oldest', () => {
    const reg = new FunctionSignatureRegistry({ maxEntries: 3, maxBytes: 1 << 20 });
    const selectors = reg.registerFunctionSignatures([sig(1), sig(2), sig(3), sig(4)]);
    assert.equal(reg.size, 3);
    assert.equal(reg.findSignature(selectors[0]!), undefined);
    assert.equal(reg.findName(selectors[3]!), 'f4');
    assert.equal(
      reg.bytes,
      [2, 3, 4].reduce((n, i) => n + sig(i).length, 0),
    );
  });

  it('keeps at most maxBytes of text', () => {
    const long = Array.from({ length: 10 }, (_, i) => sig(i, 15)); // ~97 bytes each
    const reg = new FunctionSignatureRegistry({ maxEntries: 1000, maxBytes: 300 });
    reg.registerFunctionSignatures(long);
    assert.ok(reg.bytes <= 300, `${reg.bytes}`);
    assert.equal(reg.size, Math.floor(300 / long[0]!.length));
    assert.equal(reg.findSignature(functionSelectorFromSignature(long[9]!)), long[9]);
    assert.equal(reg.findSignature(functionSelectorFromSignature(long[0]!)), undefined);
  });

  it('registering a signature again makes it the most recent and counts it once', () => {
    const reg = new FunctionSignatureRegistry({ maxEntries: 2, maxBytes: 1 << 20 });
    const [a] = reg.registerFunctionSignatures([sig(1), sig(2)]);
    reg.registerFunctionSignatures([sig(1), sig(1)]);
    assert.equal(reg.size, 2);
    assert.equal(reg.bytes, sig(1).length + sig(2).length);
    reg.registerFunctionSignatures([sig(3)]);
    assert.equal(reg.findName(a!), 'f1', 'f2 was the oldest, so it went');
    assert.equal(reg.findSignature(functionSelectorFromSignature(sig(2))), undefined);
  });

  it('the defaults: 10000 entries, 1 MiB', () => {
    assert.deepEqual(DEFAULT_SIGNATURE_LIMITS, { maxEntries: 10_000, maxBytes: 1_048_576 });
    const reg = new FunctionSignatureRegistry();
    reg.registerFunctionSignatures(Array.from({ length: 10_050 }, (_, i) => sig(i)));
    assert.equal(reg.size, 10_000);
  });
});
