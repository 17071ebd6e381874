/** JSON text made ahead of time (such as cached events), written into a response body as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * JSON text made and encoded ahead of time, in parts written one after another: a large kept
 * text (everyone's people for /register) is copied into the response as bytes, neither joined
 * into a string with the rest of the body nor encoded again for each answer.
 */
export class JsonBytes {
  constructor(readonly parts: readonly Buffer[]) {}
}

/**
 * The text of a response body: its fields in order, as JSON.stringify would write them,
 * except that a JsonText or JsonBytes value goes in verbatim instead of being serialized again.
 * A body with JsonBytes in it comes as its UTF-8 bytes, in parts, and any other as a string.
 */
export function bodyJson(fields: Record<string, unknown>): string | Buffer[] {
  let text = '';
  let parts: Buffer[] | undefined;
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined) continue; // as JSON.stringify leaves such a field out
    text += `${text === '' && parts === undefined ? '{' : ','}${JSON.stringify(key)}:`;
    if (value instanceof JsonBytes) {
      (parts ??= []).push(Buffer.from(text), ...value.parts);
      text = '';
    } else {
      text += value instanceof JsonText ? value.text : JSON.stringify(value);
    }
  }
  if (parts === undefined) return text === '' ? '{}' : `${text}}`;
  parts.push(Buffer.from(`${text}}`));
  return parts;
}
