/**
 * A small Markdown renderer for the guides and the documents' descriptions: headings (with ids),
 * paragraphs, fenced code, nested lists, GFM tables, block quotes, rules, and inline code,
 * emphasis and links. Everything is escaped first; no raw HTML passes through.
 * @module
 */
import { codeBlock, esc, heading as headingHtml, scrollTable } from './html.ts';

/** Rewrites a link target (e.g. `OPERATIONS.md` → `operations.html`); null renders the text unlinked. */
export type LinkRewriter = (href: string) => string | null;

/** Options of a rendering. */
export interface MarkdownOptions {
  rewriteLink?: LinkRewriter;
  /** Heading ids already used on the page; headings get unique ids and a link to themselves. */
  ids?: Set<string>;
  /** Collects the headings (level, id, text) for a table of contents. */
  headings?: { level: number; id: string; html: string }[];
}

/** Renders inline Markdown (code, bold, italic, links) to HTML. */
export function renderInline(text: string, o: MarkdownOptions = {}): string {
  const codes: string[] = [];
  let s = text.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_, __, code: string) => {
    codes.push(`<code>${esc(code.trim())}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  s = esc(s);
  s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label: string, href: string) => {
    const raw = unescapeHtml(href);
    const target = o.rewriteLink ? o.rewriteLink(raw) : raw;
    return target === null ? label : `<a href="${esc(target)}">${label}</a>`;
  });
  s = s.replace(/&lt;(https?:\/\/[^\s&]+)&gt;/g, '<a href="$1">$1</a>');
  s = s.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/__([^_]+)__/g, '<strong>$1</strong>');
  s = s
    .replace(/(^|[^\w*])\*([^*\s][^*]*)\*(?!\w)/g, '$1<em>$2</em>')
    .replace(/(^|[^\w])_([^_\s][^_]*)_(?!\w)/g, '$1<em>$2</em>');
  return s.replace(/\u0000(\d+)\u0000/g, (_, i: string) => codes[Number(i)]!);
}

/** Turns heading text into an anchor id: `Admin API key (new)` → `admin-api-key-new`. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
const isTableSep = (line: string | undefined) =>
  !!line && /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line);

/** Renders a Markdown document to HTML. */
export function renderMarkdown(text: string, o: MarkdownOptions = {}): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = /^\s*(```+|~~~+)\s*([\w-]*)/.exec(line);
    if (fence) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(fence[1]!); i++) body.push(lines[i]!);
      out.push(codeBlock(body.join('\n'), fence[2] ?? ''));
      i++;
      continue;
    }
    const headingMatch = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (headingMatch) {
      const heading = headingMatch;
      const level = heading[1]!.length;
      const ids = o.ids ?? (o.ids = new Set());
      let id = slugify(heading[2]!) || 'section';
      for (let n = 2; ids.has(id); n++) id = `${slugify(heading[2]!)}-${n}`;
      ids.add(id);
      const html = renderInline(heading[2]!, o);
      o.headings?.push({ level, id, html });
      out.push(level === 1 ? `<h1 id="${id}">${html}</h1>` : headingHtml(level, id, html));
      i++;
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      out.push('<hr>');
      i++;
      continue;
    }
    if (line.includes('|') && isTableSep(lines[i + 1])) {
      const rows: string[] = [];
      for (; i < lines.length && lines[i]!.includes('|') && lines[i]!.trim() !== ''; i++) rows.push(lines[i]!);
      out.push(renderTable(rows, o));
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted: string[] = [];
      for (; i < lines.length && /^\s*>/.test(lines[i]!); i++) quoted.push(lines[i]!.replace(/^\s*>\s?/, ''));
      out.push(`<blockquote>${renderMarkdown(quoted.join('\n'), o)}</blockquote>`);
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const block: string[] = [];
      for (; i < lines.length; i++) {
        const l = lines[i]!;
        if (l.trim() === '') {
          if (sameList(block[0]!, lines[i + 1] ?? '') || /^\s{2,}\S/.test(lines[i + 1] ?? '')) {
            block.push('');
            continue;
          }
          break;
        }
        if (LIST_ITEM.test(l) || /^\s+\S/.test(l)) {
          block.push(l);
          continue;
        }
        // a lazy continuation line: plain text straight after an item belongs to it
        if (block.at(-1)?.trim() && !startsBlock(lines, i)) {
          block.push(`  ${l}`);
          continue;
        }
        break;
      }
      out.push(renderList(block, o));
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const para: string[] = [];
    for (; i < lines.length && lines[i]!.trim() !== '' && !startsBlock(lines, i); i++) para.push(lines[i]!.trim());
    out.push(`<p>${renderInline(para.join(' '), o)}</p>`);
  }
  return out.join('\n');
}

/** Whether `next` continues the list that `first` opened (same marker kind), across a blank line. */
function sameList(first: string, next: string): boolean {
  const a = LIST_ITEM.exec(first);
  const b = LIST_ITEM.exec(next);
  return !!a && !!b && /\d/.test(a[2]!) === /\d/.test(b[2]!);
}

function startsBlock(lines: string[], i: number): boolean {
  const l = lines[i]!;
  return (
    /^(#{1,6})\s/.test(l) ||
    /^\s*(```|~~~)/.test(l) ||
    LIST_ITEM.test(l) ||
    /^\s*>/.test(l) ||
    (l.includes('|') && isTableSep(lines[i + 1]))
  );
}

function renderList(block: string[], o: MarkdownOptions): string {
  const indent = LIST_ITEM.exec(block[0]!)![1]!.length;
  const ordered = /\d/.test(LIST_ITEM.exec(block[0]!)![2]!);
  const items: string[][] = [];
  for (const l of block) {
    const m = LIST_ITEM.exec(l);
    if (m && m[1]!.length <= indent) items.push([m[3]!]);
    else items[items.length - 1]?.push(l.slice(Math.min(indent + 2, Math.max(0, l.search(/\S/)))));
  }
  const lis = items.map(([first, ...rest]) => {
    const nestedAt = rest.findIndex((l) => LIST_ITEM.test(l));
    const textLines = nestedAt < 0 ? rest : rest.slice(0, nestedAt);
    const text = renderInline(
      [first, ...textLines]
        .map((l) => l!.trim())
        .filter(Boolean)
        .join(' '),
      o,
    );
    const nested = nestedAt < 0 ? '' : renderMarkdown(rest.slice(nestedAt).join('\n'), o);
    return `<li>${text}${nested}</li>`;
  });
  return ordered ? `<ol>${lis.join('')}</ol>` : `<ul>${lis.join('')}</ul>`;
}

function renderTable(rows: string[], o: MarkdownOptions): string {
  const cells = (row: string) =>
    row
      .trim()
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
  const [head, , ...body] = rows;
  const headCells = cells(head!);
  // a table whose header row is empty is a key/value list: drop the empty header
  const th = headCells.every((c) => c === '')
    ? ''
    : `<thead><tr>${headCells.map((c) => `<th>${renderInline(c, o)}</th>`).join('')}</tr></thead>`;
  const trs = body
    .map(
      (r) =>
        `<tr>${cells(r)
          .map((c) => `<td>${renderInline(c, o)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  return scrollTable(`<table>${th}<tbody>${trs}</tbody></table>`);
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
