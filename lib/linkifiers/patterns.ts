
/**
 * Zulip compiles linkifier patterns with Google's RE2 and repeats its error text; RE2JS
 * describes the same errors in the words of Go's regexp package. This maps one to the other.
 */
const RE2_WORDS: Record<string, string> = {
  'invalid character class range': 'invalid character class range',
  'invalid escape sequence': 'invalid escape sequence',
  'invalid named capture': 'invalid named capture group',
  'duplicate capture group name': 'invalid named capture group',
  'invalid or unsupported Perl syntax': 'invalid perl operator',
  'invalid nested repetition operator': 'bad repetition operator',
  'invalid repeat count': 'invalid repetition size',
  'missing closing ]': 'missing ]',
  'missing closing )': 'missing )',
  'missing argument to repetition operator': 'no argument for repetition operator',
  'trailing backslash at end of expression': 'trailing \\',
  'unexpected )': 'unexpected )',
};

/** RE2JS is loaded when a pattern is first checked: it is large, and only linkifier changes need it. */
let re2js: typeof import('re2js') | undefined;

export type CompiledPattern = { groups: string[] } | { error: string };

/**
 * RE2 refuses a pattern whose compiled program outgrows its memory budget; RE2JS has no such
 * budget, and every message is matched against every linkifier, so a length bound stands in
 * for it. Real linkifiers are a few dozen characters.
 */
export const MAX_PATTERN_LENGTH = 1000;

/** The named groups of an RE2 pattern, or Zulip's complaint about it. */
export function compilePattern(pattern: string): CompiledPattern {
  if (pattern.length > MAX_PATTERN_LENGTH) return { error: 'Bad regular expression: pattern too large - compile failed' };
  const { RE2JS, RE2JSSyntaxException } = (re2js ??= require('re2js') as typeof import('re2js'));
  try {
    return { groups: Object.keys(RE2JS.compile(pattern).namedGroups()) };
  } catch (err) {
    if (!(err instanceof RE2JSSyntaxException)) throw err;
    const words = RE2_WORDS[err.getDescription()] ?? err.getDescription();
    const input = err.getPattern();
    return { error: `Bad regular expression: ${input ? `${words}: ${input}` : words}` };
  }
}

/**
 * The named groups' values at the pattern's first match in `text` (a linkifier's example
 * input), or undefined when it matches nowhere. A group that took no part in the match is empty.
 */
export function exampleGroups(pattern: string, text: string): Record<string, string> | undefined {
  const { RE2JS } = (re2js ??= require('re2js') as typeof import('re2js'));
  const regex = RE2JS.compile(pattern);
  const matcher = regex.matcher(text);
  if (!matcher.find()) return undefined;
  const names = Object.keys(regex.namedGroups());
  return Object.fromEntries(names.map((name) => [name, matcher.group(name) ?? '']));
}
