/** The guides' Markdown renderer. @module */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderInline, renderMarkdown, slugify } from '../../../docs-site/lib/markdown.ts';

describe('renderMarkdown', () => {
  it('headings get ids and a link to themselves; paragraphs join their lines', () => {
    assert.equal(
      renderMarkdown('## The admin `API` key\n\nOne\ntwo.'),
      '<h2 id="the-admin-api-key">The admin <code>API</code> key<a class="anchor" href="#the-admin-api-key" aria-label="Link to this section">#</a></h2>\n<p>One two.</p>',
    );
  });
  it('a repeated heading gets a unique id; the headings are collected for a table of contents', () => {
    const headings: { level: number; id: string; html: string }[] = [];
    const html = renderMarkdown('## Setup\n\n### Setup\n\n## Setup', { headings });
    assert.deepEqual(
      headings.map((h) => [h.level, h.id]),
      [
        [2, 'setup'],
        [3, 'setup-2'],
        [2, 'setup-3'],
      ],
    );
    assert.match(html, /<h3 id="setup-2">/);
  });
  it('fenced code is escaped, highlighted at build time and copyable, not interpreted', () => {
    const html = renderMarkdown('```sh\ncurl -d \'{"a":"<b>"}\'\n```');
    assert.match(
      html,
      /<pre tabindex="0"><code class="hljs lang-sh">curl -d <span class="hljs-string">&#x27;\{&quot;a&quot;:&quot;&lt;b&gt;&quot;\}&#x27;<\/span><\/code><\/pre>/,
    );
    assert.match(html, /class="copy"/);
  });
  it('tables sit in their own scroll box', () => {
    assert.match(
      renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |'),
      /^<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>/,
    );
  });
  it('tables: header, cells with inline code, escaped pipes', () => {
    const html = renderMarkdown('| Flag | Env |\n|---|---|\n| `--port` | `AZTEC_PORT` |\n| a \\| b | c |');
    assert.match(html, /<th>Flag<\/th><th>Env<\/th>/);
    assert.match(html, /<td><code>--port<\/code><\/td><td><code>AZTEC_PORT<\/code><\/td>/);
    assert.match(html, /<td>a \| b<\/td>/);
  });
  it('lists: nested items and lazy continuation lines', () => {
    const html = renderMarkdown('- one\n  more\n  - inner\n- two\n\n1. first\n2. second');
    assert.equal(
      html,
      '<ul><li>one more<ul><li>inner</li></ul></li><li>two</li></ul>\n<ol><li>first</li><li>second</li></ol>',
    );
  });
  it('raw HTML is escaped', () => {
    assert.equal(renderMarkdown('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });
  it('links pass through the rewriter; null keeps the text only', () => {
    const rewriteLink = (href: string) => (href === 'OPERATIONS.md' ? 'operations.html' : null);
    assert.equal(
      renderInline('[ops](OPERATIONS.md) and [src](src/main.ts)', { rewriteLink }),
      '<a href="operations.html">ops</a> and src',
    );
  });
  it('emphasis, but not inside words or code', () => {
    assert.equal(
      renderInline('**bold** *it* snake_case_name `a*b*c`'),
      '<strong>bold</strong> <em>it</em> snake_case_name <code>a*b*c</code>',
    );
  });
  it('slugify', () => assert.equal(slugify('1. `TxReceipt` status values'), '1-txreceipt-status-values'));
});
