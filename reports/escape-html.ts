/**
 * Escaping text for the HTML report: its own file, so that the report (html.ts) and its sections
 * (parameters.ts) both take it from here instead of one importing the other.
 */

/** Escapes text for HTML content and attribute values; control characters become U+FFFD. */
export function escapeHtml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
