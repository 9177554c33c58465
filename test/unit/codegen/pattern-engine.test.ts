/**
 * The validators' pattern engine (codegen/pattern-engine.ts) and decodeBase64Strict take a fast
 * round trip through Buffer for base64 instead of the RegExp alone: their answers must be the
 * pattern's, and the decoder's refusals the same as before, for canonical, non-canonical and
 * malformed text alike.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { BASE64_PATTERN, patternEngine } from '../../../codegen/pattern-engine.ts';
import { publicMethods } from '../../../src/generated/public/methods.ts';
import { decodeBase64Strict } from '../../../src/impl/tx/base64.ts';

const BASE64_RE = new RegExp(BASE64_PATTERN, 'u');
const HASH = '0x' + '11'.repeat(32);

/** The decoder as it was before the fast path: the pattern, then the canonical round trip. */
function referenceDecode(s: string): string {
  if (!BASE64_RE.test(s)) return 'not valid';
  return Buffer.from(s, 'base64').toString('base64') === s ? 'ok' : 'not canonical';
}

function fastDecode(s: string): string {
  try {
    decodeBase64Strict(s, 'tx.data');
    return 'ok';
  } catch (err) {
    return /not canonical/.test(String(err))
      ? 'not canonical'
      : /not valid base64/.test(String(err))
        ? 'not valid'
        : 'other';
  }
}

/** Canonical encodings of 0..40 random bytes and the ways of breaking them. */
function cases(): string[] {
  const out = [
    '',
    '=',
    '==',
    '===',
    'A',
    'AA',
    'AAA',
    'AAAA',
    'AA=A',
    'AA==AA==',
    'A===',
    '====',
    ' AAAA',
    'AAAA\n',
    'é',
  ];
  for (let n = 0; n <= 40; n++) {
    const s = randomBytes(n).toString('base64');
    out.push(s, s.replace(/=+$/, ''), s + '=', s + 'A', '=' + s, s.replace(/\+/g, '-').replace(/\//g, '_'));
    out.push(s.slice(0, 1) + ' ' + s.slice(1), s.slice(0, -1) + '!', s.slice(0, 2) + 'é' + s.slice(2));
    // Padding bits set: the symbol before the padding moved by 1..3 (still in the alphabet).
    const pad = s.length - s.replace(/=+$/, '').length;
    if (pad > 0) {
      const at = s.length - pad - 1;
      for (const d of [1, 2, 3]) out.push(s.slice(0, at) + String.fromCharCode(s.charCodeAt(at) + d) + s.slice(at + 1));
    }
  }
  return out;
}

describe('base64 fast path', () => {
  it("the validators' engine answers exactly as the pattern's RegExp", () => {
    const fast = patternEngine(BASE64_PATTERN, 'u');
    for (const s of cases()) assert.equal(fast.test(s), BASE64_RE.test(s), JSON.stringify(s));
    assert.equal(fast.toString(), BASE64_RE.toString());
    // Other patterns stay native RegExps.
    assert.ok(patternEngine('^0x[0-9a-f]{2}$', 'u') instanceof RegExp);
  });

  it('decodeBase64Strict refuses what it refused before, with the same reason, and decodes the rest', () => {
    for (const s of cases()) assert.equal(fastDecode(s), referenceDecode(s), JSON.stringify(s));
    const bytes = randomBytes(1000);
    assert.deepEqual(Buffer.from(decodeBase64Strict(bytes.toString('base64'), 'tx.data')), bytes);
  });

  it('the generated node_sendTx validator accepts non-canonical padding bits (the pattern allows them) and refuses junk', () => {
    const tx = (data: string) => [
      { txHash: HASH, data, chonkProof: 'AAAA', contractClassLogFields: [], publicFunctionCalldata: [] },
    ];
    assert.equal(publicMethods.node_sendTx!.validateParams(tx('AAAAAB==')), null);
    assert.equal(publicMethods.node_sendTx!.validateParams(tx('AAAAAA==')), null);
    assert.match(publicMethods.node_sendTx!.validateParams(tx('AAAA-A==')) ?? '', /data must match pattern/);
    assert.match(publicMethods.node_sendTx!.validateParams(tx('AAAAAA')) ?? '', /data must match pattern/);
  });
});
