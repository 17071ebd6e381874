import { escapeHtml } from '../markdown/render';

function wordPattern(words: readonly string[]): RegExp {
  const escaped = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(${escaped.join('|')})`, 'giu');
}

const HIGHLIGHT = (match: string) => `<span class="highlight">${match}</span>`;

/**
 * Rendered content with each searched word marked, as search results show it: only text
 * between tags is touched, so markup stays intact.
 */
export function highlightContent(html: string, words: readonly string[]): string {
  const pattern = wordPattern(words);
  return html.replace(/(<[^>]*>)|([^<]+)/g, (_all, tag: string | undefined, text: string | undefined) =>
    tag ?? text!.replace(pattern, HIGHLIGHT),
  );
}

/** A topic, HTML-escaped, with each searched word marked. */
export function highlightTopic(topic: string, words: readonly string[]): string {
  return escapeHtml(topic).replace(wordPattern(words.map(escapeHtml)), HIGHLIGHT);
}
