/** JSON text made ahead of time (such as cached events), written into a response body as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * The text of a response body: its fields in order, as JSON.stringify would write them,
 * except that a JsonText value goes in verbatim instead of being serialized again.
 */
export function bodyJson(fields: Record<string, unknown>): string {
  let text = '';
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined) continue; // as JSON.stringify leaves such a field out
    text += `${text === '' ? '{' : ','}${JSON.stringify(key)}:${value instanceof JsonText ? value.text : JSON.stringify(value)}`;
  }
  return text === '' ? '{}' : `${text}}`;
}
