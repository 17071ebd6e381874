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

/** RFC 6570 unreserved characters stay; with "+" and "#" expansion, reserved ones stay too. */
function encodeTemplateValue(value: string, reserved: boolean): string {
  const encoded = encodeURIComponent(value).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  if (!reserved) return encoded;
  return encoded.replace(/%(21|23|24|26|27|28|29|2A|2B|2C|2F|3A|3B|3D|3F|40|5B|5D)/g, (escape) => decodeURIComponent(escape));
}

/** Expands the simple, reserved and fragment forms of an RFC 6570 template ({var}, {+var}, {#var}). */
export function expandUrlTemplate(template: string, values: Record<string, string | undefined>): string {
  return template.replace(/\{([+#]?)([\w.,]+)\}/g, (_whole, operator: string, names: string) => {
    const parts = names
      .split(',')
      .map((name) => values[name])
      .filter((value): value is string => value !== undefined)
      .map((value) => encodeTemplateValue(value, operator !== ''));
    if (parts.length === 0) return '';
    return (operator === '#' ? '#' : '') + parts.join(',');
  });
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
    compiled.push({
      matches(text) {
        const found = [];
        for (const match of text.matchAll(regex)) {
          if (match[0] === '') continue;
          found.push({
            start: match.index,
            end: match.index + match[0].length,
            text: match[0],
            url: expandUrlTemplate(url_template, match.groups ?? {}),
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
