import type { RE2JS } from 're2js';
import { parse as parseTemplate } from 'uri-template';

/** RE2JS is loaded when a realm's linkifiers are first compiled: it is large, and many servers have none. */
let re2js: typeof import('re2js') | undefined;

/** A realm linkifier made ready to run: its pattern compiled, its URL template ready to expand. */
export interface CompiledLinkifier {
  matches(text: string): Array<{ start: number; end: number; text: string; url: string }>;
}

/**
 * A linkifier's pattern, run by RE2 as Zulip runs it: in time linear in the text whatever the
 * pattern, so no pattern an administrator saves can stall rendering. A match must start the
 * text or follow a space, quote, "(", ",", ":" or "<", and be followed by the end or by
 * something other than a letter or digit; RE2 has no look-around, so those neighbours are
 * matched too and the pattern's own match is group 1. Null when the pattern does not compile.
 */
function toRe2Pattern(pattern: string): RE2JS | null {
  try {
    const { RE2JS } = (re2js ??= require('re2js') as typeof import('re2js'));
    return RE2JS.compile(`(?:^|[\\s'"(,:<])((?:${pattern}))(?:[^\\pL\\pN]|$)`);
  } catch {
    return null;
  }
}

const compiledCache = new Map<string, CompiledLinkifier[]>();

export function compileLinkifiers(
  linkifiers: ReadonlyArray<{ id: number; pattern: string; url_template: string }>,
): CompiledLinkifier[] {
  if (linkifiers.length === 0) return [];
  const key = JSON.stringify(linkifiers);
  const cached = compiledCache.get(key);
  if (cached) return cached;
  const compiled: CompiledLinkifier[] = [];
  for (const { pattern, url_template } of linkifiers) {
    const regex = toRe2Pattern(pattern);
    if (!regex) continue;
    // Templates are checked as RFC 6570 when stored (lib/linkifiers); the same package expands them.
    let template: ReturnType<typeof parseTemplate>;
    try {
      template = parseTemplate(url_template);
    } catch {
      continue;
    }
    const groups = Object.keys(regex.namedGroups());
    compiled.push({
      matches(text) {
        const found = [];
        const matcher = regex.matcher(text);
        // The next search starts where this match ends, so the character after it may
        // also be the one before the next.
        for (let from = 0; from <= text.length && matcher.find(from); ) {
          const start = matcher.start(1);
          const end = matcher.end(1);
          from = end > start ? end : matcher.end();
          if (end === start) continue;
          const values: Record<string, string> = {};
          for (const name of groups) {
            const value = matcher.group(name);
            if (value !== null) values[name] = value;
          }
          found.push({ start, end, text: text.slice(start, end), url: template.expand(values) });
        }
        return found;
      },
    });
  }
  if (compiledCache.size > 100) compiledCache.clear();
  compiledCache.set(key, compiled);
  return compiled;
}
