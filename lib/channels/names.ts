import { badRequest } from '../http/errors';
import { REALM_SERVER_FACTS } from '../realm/settings';

export const MAX_CHANNEL_NAME_LENGTH = REALM_SERVER_FACTS.max_stream_name_length as number;
export const MAX_CHANNEL_DESCRIPTION_LENGTH = REALM_SERVER_FACTS.max_stream_description_length as number;

/** Control and surrogate characters, and Unicode's noncharacters, have no place in a name. */
export function isUnprintable(char: string): boolean {
  const code = char.codePointAt(0)!;
  return /[\p{Cc}\p{Cs}]/u.test(char) || (code >= 0xfdd0 && code <= 0xfdef) || (code & 0xfffe) === 0xfffe;
}

/** A channel name as given, trimmed; refused in Zulip's words when empty, too long or unprintable. */
export function checkChannelName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw badRequest("Channel name can't be empty.");
  const chars = [...name];
  if (chars.length > MAX_CHANNEL_NAME_LENGTH) {
    throw badRequest(`Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`);
  }
  const bad = chars.findIndex(isUnprintable);
  if (bad >= 0) throw badRequest(`Invalid character in channel name, at position ${bad + 1}.`);
  return name;
}

/** Descriptions are one paragraph: newlines become spaces. */
export function cleanDescription(description: string): string {
  return description.replace(/\r?\n/g, ' ');
}
