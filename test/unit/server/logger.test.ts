/** JSON-lines logger: levels and encoding. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createLogger } from '../../../src/server/logger.ts';

it('writes one JSON object per line at or above the level, with time, level, msg and fields', () => {
  const lines: string[] = [];
  const logger = createLogger('warn', (line) => void lines.push(line));
  logger.info('dropped');
  logger.warn('kept', { amount: 10n, err: new Error('boom') });
  assert.equal(lines.length, 1);
  assert.ok(lines[0]!.endsWith('\n'));
  const entry = JSON.parse(lines[0]!);
  assert.equal(entry.level, 'warn');
  assert.equal(entry.msg, 'kept');
  assert.equal(entry.amount, '10');
  assert.equal(entry.err.message, 'boom');
  assert.match(entry.err.stack, /Error: boom/);
  assert.ok(!Number.isNaN(Date.parse(entry.time)));
});

it('silent writes nothing, even fatal', () => {
  const lines: string[] = [];
  createLogger('silent', (line) => void lines.push(line)).fatal('x');
  assert.deepEqual(lines, []);
});
