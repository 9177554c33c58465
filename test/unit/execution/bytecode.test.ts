/** The bytecode container: invalid bytes revert with a clear reason; assembler round trip. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import {
  BYTECODE_MAGIC,
  decodeProgram,
  encodeProgram,
  InvalidBytecodeError,
} from '../../../src/impl/execution/bytecode.ts';
import { assemble, AssemblerError } from '../../../src/impl/execution/assembler.ts';
import { Op } from '../../../src/impl/execution/opcodes.ts';
import { functionSelectorFromSignature } from '../../../src/impl/contracts/function-selector.ts';
import { World } from './vm-harness.ts';

const vectors = JSON.parse(readFileSync(new URL('../../../test/vectors/trees.json', import.meta.url), 'utf8'));
const AVM_BYTES = Buffer.from(vectors.contract.publicBytecodeCommitment.packedBytecodeHex.slice(2), 'hex');

async function callBytes(bytes: Uint8Array) {
  const w = new World();
  w.source.deploy(0x500n, bytes);
  return w.callRaw(0x500n, [1n, 2n]);
}

const header = (version = 1) => [...BYTECODE_MAGIC, version];

describe('invalid bytecode reverts the call with a reason', () => {
  it('random bytes: bad magic', async () => {
    // Deterministic pseudo-random bytes, so a failure reproduces.
    for (let i = 0; i < 20; i++) {
      const bytes = Buffer.concat(
        Array.from({ length: 10 }, (_, k) => createHash('sha256').update(`${i}:${k}`).digest()),
      ).subarray(0, 1 + ((i * 37) % 300));
      if (BYTECODE_MAGIC.every((b, k) => bytes[k] === b)) continue;
      const r = await callBytes(bytes);
      assert.equal(r.reverted, true);
      assert.match(r.revert!.message, /^Invalid public bytecode: bad magic/);
    }
  });
  it('Aztec AVM bytecode (trees.json packed bytecode) is recognised as foreign', async () => {
    const r = await callBytes(AVM_BYTES);
    assert.match(r.revert!.message, /bad magic .*not l2node public VM bytecode/);
    assert.match(r.revert!.message, /contract 0x0+500/);
  });
  it('empty bytecode', async () => {
    assert.match((await callBytes(new Uint8Array())).revert!.message, /bad magic/);
  });
  it('an unsupported version', async () => {
    assert.match((await callBytes(Uint8Array.from(header(2)))).revert!.message, /unsupported version 2/);
  });
  it('truncated after the header', async () => {
    assert.match((await callBytes(Uint8Array.from([...header(), 0]))).revert!.message, /truncated/);
  });
  it('every strict prefix of a valid program is rejected, never thrown', async () => {
    const { bytecode } = assemble('.fn f()\nSET m0, 5\nASSERT m0, "x"\nRETURN m0, 1');
    for (let n = 0; n < bytecode.length; n++) {
      assert.throws(() => decodeProgram(bytecode.subarray(0, n)), InvalidBytecodeError);
    }
  });
  it('an unknown opcode, a jump outside the code, trailing bytes', () => {
    const base = [...header(), 0, 0, 0, 0];
    assert.throws(() => decodeProgram(Uint8Array.from([...base, 0, 0, 0, 1, 0xee])), /unknown opcode 0xee/);
    assert.throws(
      () => decodeProgram(Uint8Array.from([...base, 0, 0, 0, 1, Op.JUMP, 0, 0, 0, 9])),
      /jump target 9 is outside/,
    );
    assert.throws(
      () => decodeProgram(Uint8Array.from([...base, 0, 0, 0, 1, Op.INTERNALRETURN, 0])),
      /1 trailing bytes/,
    );
  });
  it('a field immediate ≥ p', () => {
    const p = encodeProgram({ functions: [], strings: [], instructions: [{ op: Op.SET, args: [0, 0n] }] });
    const bad = Uint8Array.from(p);
    bad.fill(0xff, bad.length - 32);
    assert.throws(() => decodeProgram(bad), /not a field element/);
  });
  it('an unknown selector reverts naming selector and contract', async () => {
    const w = new World();
    w.deploy(0x600n, '.fn f()\nRETURN m0, 0');
    const r = await w.callRaw(0x600n, [0x12345678n]);
    assert.match(r.revert!.message, /Unknown function selector 0x12345678 in contract 0x0+600/);
  });
  it('calldata without a selector reverts', async () => {
    const w = new World();
    w.deploy(0x600n, '.fn f()\nRETURN m0, 0');
    assert.match((await w.callRaw(0x600n, [])).revert!.message, /no function selector/);
  });
});

describe('assembler', () => {
  it('encodes and decodes: function table by selector, strings, instructions', () => {
    const a = assemble(
      '.def X m3\n.fn transfer(Field,Field)\nstart: SET X, selector(constructor())\nASSERT X, "a;b"\nJUMP start\n.fn 0xdeadbeef\nRETURN X, 1',
    );
    const d = decodeProgram(a.bytecode);
    assert.equal(d.functions.get(0x844800c0), 0);
    assert.equal(d.functions.get(0xdeadbeef), 3);
    assert.deepEqual(d.strings, ['a;b']);
    assert.equal(d.imms[0], BigInt(functionSelectorFromSignature('constructor()')));
    assert.deepEqual(a.signatures, ['transfer(Field,Field)']);
    assert.deepEqual(encodeProgram(a.program), a.bytecode);
  });
  it('reports the line of a bad instruction, operand, or label', () => {
    assert.throws(
      () => assemble('.fn f()\nFOO m1'),
      (e: unknown) => e instanceof AssemblerError && e.line === 2,
    );
    assert.throws(() => assemble('ADD m1, m2'), /ADD takes 3 operands, got 2/);
    assert.throws(() => assemble('JUMP nowhere'), /unknown label/);
    assert.throws(() => assemble('SET m70000, 1'), /memory address/);
  });
});
