/** HTML escaping, shared by the renderers and the highlighter. @module */

/** Escapes text for HTML element content and attribute values. */
export function esc(text: unknown): string {
  return String(text ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}
