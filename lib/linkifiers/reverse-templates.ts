/**
 * A linkifier's reverse template (level 471) writes the text a URL stands for, from the groups
 * its URL template took: `{name}` is a group's value, `{{` and `}}` are literal braces.
 */
export type ReverseTemplatePart = { literal: string } | { variable: string };

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The template's parts, or undefined when a brace is neither doubled nor around a group name. */
export function parseReverseTemplate(template: string): ReverseTemplatePart[] | undefined {
  const parts: ReverseTemplatePart[] = [];
  let literal = '';
  for (let i = 0; i < template.length; i++) {
    const char = template[i];
    if ((char === '{' || char === '}') && template[i + 1] === char) {
      literal += char;
      i++;
    } else if (char === '{') {
      const close = template.indexOf('}', i);
      const name = close === -1 ? '' : template.slice(i + 1, close);
      if (!VARIABLE.test(name)) return undefined;
      if (literal !== '') parts.push({ literal });
      literal = '';
      parts.push({ variable: name });
      i = close;
    } else if (char === '}') {
      return undefined;
    } else {
      literal += char;
    }
  }
  if (literal !== '') parts.push({ literal });
  return parts;
}

/** The text a parsed reverse template writes from these values. */
export function fillReverseTemplate(parts: readonly ReverseTemplatePart[], values: Readonly<Record<string, string>>): string {
  return parts.map((part) => ('literal' in part ? part.literal : (values[part.variable] ?? ''))).join('');
}
