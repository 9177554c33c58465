/**
 * The site publishes the three OpenRPC documents and its guides, not the repository's
 * specification or test vectors. Descriptions written for the repository cite those ("SPEC §4.6",
 * "SPEC.md", "vectors/tx/…json"); this pass rewrites such citations in every text the site shows,
 * so that no page points at a document a reader cannot open.
 * @module
 */

/** Section references: "§4.6", "§8, §9". */
const SECTIONS = String.raw`§\s?[\d.]*\d(?:\s*(?:,|and)\s*§\s?[\d.]*\d)*`;
/** Repository paths the site does not publish. */
const UNPUBLISHED_PATH = String.raw`(?:\.\.\/)*(?:shared|vectors|test\/vectors|docs\/spec)\/[\w./*-]*[\w*]`;

/** Rewrites citations of unpublished documents in `text` (plain text or Markdown). */
export function withoutUnpublishedCitations(text: string): string {
  if (!/SPEC|§|shared\/|vectors\//.test(text)) return text;
  return (
    text
      // "(SPEC §2)" and "(see SPEC §3, §5)" vanish with their brackets
      .replace(new RegExp(String.raw`\s*\((?:see\s+)?SPEC(?:\.md)?\s*${SECTIONS}\)`, 'g'), '')
      // "(SPEC §4.6; not …)" / "(SPEC §3: paused → syncing)" keep the rest of the bracket
      .replace(new RegExp(String.raw`\((?:see\s+)?SPEC(?:\.md)?\s*${SECTIONS}\s*[;:,—-]\s*`, 'g'), '(')
      // ", SPEC §3)" at the end of a bracket
      .replace(new RegExp(String.raw`[,;]\s*(?:see\s+)?SPEC(?:\.md)?\s*${SECTIONS}(?=\))`, 'g'), '')
      // any other "SPEC §n" in running text
      .replace(new RegExp(String.raw`SPEC(?:\.md)?\s*${SECTIONS}`, 'g'), 'the specification')
      .replace(new RegExp(String.raw`\s*${SECTIONS}`, 'g'), '')
      // "SPEC.md (v4.0.0)", "SPEC.md v4.0.0", "SPEC v4.0.0", "SPEC.md", "beyond SPEC"
      .replace(
        /`?SPEC(?:\.md)?`?(?:\s*\(?v4\.0\.0\)?)?(?![\w-])/g,
        (_, at: number, all: string) =>
          `${/(^|[.!?]\s+|\n\s*(?:[-*]|\d+\.)?\s*)$/.test(all.slice(0, at)) ? 'The' : 'the'} v4.0.0 specification`,
      )
      // "(real Aztec 4.1.2 wire object, vectors/tx/x.json)" → "(real Aztec 4.1.2 wire object)"
      .replace(new RegExp(String.raw`[,;]?\s*(?:see\s+)?\(?\`?${UNPUBLISHED_PATH}\`?\)?`, 'g'), (m) =>
        m.trimStart().startsWith('(') && m.endsWith(')') ? '' : m.endsWith(')') ? ')' : '',
      )
      .replace(/the the v4\.0\.0 specification/gi, 'the v4.0.0 specification')
  );
}

/** Applies `withoutUnpublishedCitations` to every description, summary and title inside a document. */
export function cleanDocumentTexts<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cleanDocumentTexts) as T;
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      typeof v === 'string' && (k === 'description' || k === 'summary' || k === 'title')
        ? withoutUnpublishedCitations(v)
        : cleanDocumentTexts(v);
  }
  return out as T;
}
