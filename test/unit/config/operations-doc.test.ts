/** docs/OPERATIONS.md lists exactly the options the parser accepts. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { it } from 'node:test';
import { renderOptionsMarkdown } from '../../../src/config/help.ts';
import { OPTIONS } from '../../../src/config/options.ts';

it('the options table in docs/OPERATIONS.md matches src/config/options.ts', async () => {
  const doc = await readFile(new URL('../../../docs/OPERATIONS.md', import.meta.url), 'utf8');
  const match = /<!-- options:begin -->\n([\s\S]*?)\n<!-- options:end -->/.exec(doc);
  assert.ok(match, 'docs/OPERATIONS.md has the options:begin/end markers');
  assert.equal(
    match[1],
    renderOptionsMarkdown(),
    'regenerate the table with renderOptionsMarkdown() from src/config/help.ts',
  );
});

it('every flag and environment variable is mentioned in docs/OPERATIONS.md', async () => {
  const doc = await readFile(new URL('../../../docs/OPERATIONS.md', import.meta.url), 'utf8');
  for (const option of OPTIONS) {
    assert.ok(doc.includes(option.flag), option.flag);
    if (option.env) assert.ok(doc.includes(option.env), option.env);
  }
});
