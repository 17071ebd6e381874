/**
 * Finding bare URLs and email addresses in text as Zulip does. Zulip's rules differ from
 * linkify-it's in ways people notice: a link starts only at the start of the text, after
 * whitespace or after one of ' " ( , : <; it runs to whitespace, with up to six levels of
 * balanced parentheses in its path; and it must be followed by nothing but closing
 * punctuation before whitespace or the end (so "a@b.com/foo" or "http://x.y<b>" are text).
 * Without a scheme, only registered top-level domains make a link (not file extensions
 * such as .py or .md).
 */

/** What markdown-it's linkify rule expects of a match (the shape linkify-it returns). */
export interface FoundLink {
  schema: string;
  index: number;
  lastIndex: number;
  raw: string;
  text: string;
  url: string;
}

/** A domain's last dot (or an email's) before a top-level domain, or a scheme's "://": cheap to test first. */
const MAY_HOLD_LINK = /[\w-]\.[^\s\d!-/:-@[-`{-~]{2}|:\/\//;

/** Top-level domains that are more often file extensions: Zulip does not link them without a scheme. */
const NOT_LINKED_TLDS = new Set(['java', 'md', 'mov', 'py', 'zip']);

let builtPattern: RegExp | undefined;

function linkPattern(): RegExp {
  if (builtPattern) return builtPattern;
  const tlds = (require('tlds') as string[])
    .filter((tld) => !NOT_LINKED_TLDS.has(tld))
    // Longest first, so that ".co.uk" is not cut at ".co".
    .sort((a, b) => b.length - a.length)
    .map((tld) => tld.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'))
    .join('|');
  const wordChars = '\\p{L}\\p{N}_';
  // A path may hold balanced parentheses, nested up to six deep.
  const group = '[^\\s()"]*?(?:\\((?:INNER)\\)[^\\s()"]*?)*';
  let nested = group;
  for (let depth = 0; depth < 6; depth++) nested = nested.replace('INNER', group);
  nested = nested.replace('INNER', '[^\\s()"]*');
  const domain = `(?:https?://[${wordChars}.:@-]+?|(?:[${wordChars}-]+\\.)+(?:${tlds}))`;
  const email = `[${wordChars}.-]+@[${wordChars}.-]+\\.[${wordChars}]+`;
  builtPattern = new RegExp(
    `(?<![^\\s'"(,:<])(?:(${domain}(?:/${nested})?)|(${email}))(?=[!:;?),.'">]*(?:$|\\s))`,
    'gu',
  );
  return builtPattern;
}

/** Whether text may hold a link at all (most text has no "x.yz" or "://"). */
export function mayHoldLink(text: string): boolean {
  return MAY_HOLD_LINK.test(text);
}

/** The links in text, in order. */
export function findLinks(text: string): FoundLink[] {
  if (!mayHoldLink(text)) return [];
  const links: FoundLink[] = [];
  for (const match of text.matchAll(linkPattern())) {
    const [raw, web, email] = match;
    const base = { index: match.index, lastIndex: match.index + raw.length, raw, text: raw };
    if (email !== undefined) links.push({ ...base, schema: 'mailto:', url: `mailto:${email}` });
    else if (/^https?:\/\//.test(web)) links.push({ ...base, schema: web.slice(0, web.indexOf(':') + 1), url: web });
    else links.push({ ...base, schema: '', url: `http://${web}` });
  }
  return links;
}
