/** docs/PUBLIC-VM.md and opcodes.ts stay in lockstep, both ways. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EnvVar, OPCODES } from '../../../src/impl/execution/opcodes.ts';

const doc = readFileSync(new URL('../../../docs/PUBLIC-VM.md', import.meta.url), 'utf8');
const rows = [...doc.matchAll(/^\| (0x[0-9a-f]{2}) \| (\w+) \| ([a-z ]*) \| (\d+) \|/gm)].map((m) => ({
  code: Number(m[1]),
  name: m[2]!,
  operands: m[3]!.trim(),
  l2Gas: Number(m[4]),
}));

describe('PUBLIC-VM.md instruction table', () => {
  it('lists every opcode with its operands and L2 gas, and nothing else', () => {
    const expected = OPCODES.flatMap((o) =>
      o ? [{ code: o.code, name: o.name, operands: o.operands.join(' '), l2Gas: o.l2Gas }] : [],
    );
    assert.deepEqual(rows, expected);
  });
  it('names every environment variable with its number', () => {
    for (const [name, n] of Object.entries(EnvVar)) assert.ok(doc.includes(`\`${n} ${name}\``), name);
  });
});
