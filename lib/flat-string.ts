/** A lone surrogate: a code unit UTF-8 cannot carry. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A string as one flat run of characters. V8 builds a long string made by `+` or by joining
 * (JSON texts, rendered HTML) as a tree of pieces joined lazily; kept that way for minutes it
 * costs a node per piece on top of the characters (a third more for event texts, and more
 * than the characters themselves for KaTeX's HTML, measured). Decoding it back from its bytes
 * gives the same text as one flat string. A text with a lone surrogate would not survive the
 * trip through UTF-8 and is kept as it is (JSON texts never have one: JSON.stringify escapes it).
 */
export function flatString(text: string): string {
  return LONE_SURROGATE.test(text) ? text : Buffer.from(text).toString();
}
