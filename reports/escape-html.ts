/**
 * What every page the suite writes shares (report.html, history.html): escaping, and the document's head. Its own
 * file, so that the pages and their sections (parameters.ts) take it from here instead of importing each other.
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

/** The opening of a page up to <body>: one self-contained file, its Content-Security-Policy, title (escaped here) and style. */
export function pageHead(title: string, csp: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>`;
}
