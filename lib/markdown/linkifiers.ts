import { parse as parseTemplate } from 'uri-template';

/** A realm linkifier made ready to run: its pattern compiled, its URL template ready to expand. */
export interface CompiledLinkifier {
  matches(text: string): Array<{ start: number; end: number; text: string; url: string }>;
}

/**
 * Zulip's linkifier patterns are Python regular expressions; JavaScript spells named groups
 * differently. A linkifier matches only where a word may start and ends at a word's end.
 */
function toJavaScriptPattern(pattern: string): RegExp | null {
  const source = pattern.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
  const wrapped = `(?<![^\\s'"(,:<])(?:${source})(?!\\w)`;
  for (const flags of ['gu', 'g']) {
    try {
      return new RegExp(wrapped, flags);
    } catch {
      // Try without Unicode mode, which rejects some escapes Python allows.
    }
  }
  return null;
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
    const regex = toJavaScriptPattern(pattern);
    if (!regex) continue;
    // Templates are checked as RFC 6570 when stored (lib/linkifiers); the same package expands them.
    let template: ReturnType<typeof parseTemplate>;
    try {
      template = parseTemplate(url_template);
    } catch {
      continue;
    }
    compiled.push({
      matches(text) {
        const found = [];
        for (const match of text.matchAll(regex)) {
          if (match[0] === '') continue;
          found.push({
            start: match.index,
            end: match.index + match[0].length,
            text: match[0],
            url: template.expand(match.groups ?? {}),
          });
        }
        return found;
      },
    });
  }
  if (compiledCache.size > 100) compiledCache.clear();
  compiledCache.set(key, compiled);
  return compiled;
}
