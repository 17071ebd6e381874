import { signal } from '@preact/signals';

/**
 * The person's alert words (register's `alert_words`, `alert_words` events): a message holding
 * one is flagged `has_alert_word` by the server, notifies as a mention does, and shows the
 * words highlighted, as Zulip does.
 */
export const alertWords = signal<string[]>([]);

export function applyAlertWords(words: unknown): void {
  if (Array.isArray(words)) alertWords.value = words.filter((w): w is string => typeof w === 'string');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Where words are not highlighted: code and mathematics. */
const SKIPPED = 'code, pre, .katex, .alert-word';

/**
 * Marks each alert word (whole words, any case) in the text of a rendered message, first
 * undoing an earlier marking so that removed words lose theirs.
 */
export function highlightAlertWords(root: HTMLElement, words: readonly string[]): void {
  for (const mark of root.querySelectorAll('span.alert-word')) mark.replaceWith(mark.textContent ?? '');
  root.normalize();
  const usable = words.filter((w) => w.trim() !== '');
  if (usable.length === 0) return;
  // Longer words first, so that "release notes" wins over "release".
  const alternatives = [...usable].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest(SKIPPED)) texts.push(node as Text);
  }
  for (const text of texts) {
    const value = text.data;
    pattern.lastIndex = 0;
    if (!pattern.test(value)) continue;
    pattern.lastIndex = 0;
    const pieces = document.createDocumentFragment();
    let from = 0;
    for (const match of value.matchAll(pattern)) {
      pieces.append(value.slice(from, match.index));
      const mark = document.createElement('span');
      mark.className = 'alert-word';
      mark.textContent = match[0];
      pieces.append(mark);
      from = match.index + match[0].length;
    }
    pieces.append(value.slice(from));
    text.replaceWith(pieces);
  }
}
