import { escapeHtml } from '../markdown/render';

/**
 * Text with each code point lowercased where that keeps its length, so a position in the
 * folded text is the same position in the original.
 */
function foldKeepingLength(text: string): string {
  let folded = '';
  for (const c of text) {
    const lower = c.toLowerCase();
    folded += lower.length === c.length ? lower : c;
  }
  return folded;
}

/**
 * Where the searched words occur in text, without regard to case: the earliest first, an
 * earlier-listed word winning a tie, no two overlapping. Found by plain string search, never
 * a regular expression built from what a user typed, so a search of any size costs time in
 * proportion to the text and the words.
 */
function occurrences(text: string, words: readonly string[]): Array<[number, number]> {
  const folded = foldKeepingLength(text);
  const found: Array<[number, number]> = [];
  for (const word of words.map(foldKeepingLength)) {
    if (word === '') continue;
    for (let at = folded.indexOf(word); at >= 0; at = folded.indexOf(word, at + word.length)) found.push([at, at + word.length]);
  }
  found.sort((a, b) => a[0] - b[0]);
  const kept: Array<[number, number]> = [];
  for (const range of found) {
    if (kept.length === 0 || range[0] >= kept[kept.length - 1][1]) kept.push(range);
  }
  return kept;
}

function mark(text: string, words: readonly string[]): string {
  let out = '';
  let at = 0;
  for (const [start, end] of occurrences(text, words)) {
    out += `${text.slice(at, start)}<span class="highlight">${text.slice(start, end)}</span>`;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * Rendered content with each searched word marked, as search results show it: only text
 * between tags is touched, so markup stays intact.
 */
export function highlightContent(html: string, words: readonly string[]): string {
  return html.replace(/(<[^>]*>)|([^<]+)/g, (_all, tag: string | undefined, text: string | undefined) => tag ?? mark(text!, words));
}

/** A topic, HTML-escaped, with each searched word marked. */
export function highlightTopic(topic: string, words: readonly string[]): string {
  return mark(escapeHtml(topic), words.map(escapeHtml));
}
