/** Escapes text for HTML, so no input can inject markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Renders Zulip-flavoured Markdown to HTML. For now it renders plain text only: paragraphs
 * split on blank lines, single newlines as <br>, everything escaped; Markdown syntax shows
 * as typed until the full renderer arrives with messages.
 */
export function renderMarkdown(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  return trimmed
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${escapeHtml(paragraph.trim()).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}
