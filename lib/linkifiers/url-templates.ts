import { parse } from 'uri-template';

/**
 * The variable names of an RFC 6570 URL template, or undefined when it is not one. Text
 * outside expressions is taken as it is, as Zulip takes it; only the expressions must be well formed.
 */
export function templateVariables(template: string): string[] | undefined {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(template);
  } catch {
    return undefined;
  }
  const names = parsed.ast.parts.flatMap((part) => (part.type === 'expression' ? part.variables.map((v) => v.name) : []));
  return [...new Set(names)];
}

export const INVALID_URL_TEMPLATE = 'Invalid URL template.';
