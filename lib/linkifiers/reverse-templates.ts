/**
 * A linkifier's reverse template (level 471; Zulip's settings call it the "auto-conversion
 * field") writes the text a URL stands for, from the groups the pattern took: `{name}` is a
 * group's value, `{{` and `}}` are literal braces, and any other character (a lone `}` too)
 * stands for itself.
 */

/** Why a reverse template cannot be expanded, in Zulip's words. */
export class ReverseTemplateError extends Error {}

/**
 * The text the template writes from a match's `values`; throws a ReverseTemplateError when a
 * `{` is never closed, closes on an empty name, or names a group the pattern does not have.
 */
export function expandReverseTemplate(template: string, values: Readonly<Record<string, string>>, groups: ReadonlySet<string>): string {
  let output = '';
  for (let i = 0; i < template.length; ) {
    if (template.startsWith('{{', i) || template.startsWith('}}', i)) {
      output += template[i];
      i += 2;
    } else if (template[i] === '{') {
      const close = template.indexOf('}', i + 1);
      if (close === -1) throw new ReverseTemplateError("Invalid auto-conversion field: missing '}' character.");
      const name = template.slice(i + 1, close);
      if (name === '') throw new ReverseTemplateError('Invalid auto-conversion field: empty field name.');
      if (!groups.has(name)) {
        throw new ReverseTemplateError(`Group '${name}' in auto-conversion field is not present in linkifier pattern.`);
      }
      output += values[name] ?? '';
      i = close + 1;
    } else {
      output += template[i];
      i += 1;
    }
  }
  return output;
}
