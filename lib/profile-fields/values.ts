import { badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import { FieldType, type ProfileFieldRow } from './queries';

/** Zulip's limits on text values: short fields (and pronouns, accounts) 50, long text 500. */
const SHORT_TEXT_LIMIT = 50;
const LONG_TEXT_LIMIT = 500;

/** What a client sends as a field's value: text for most types, user IDs for user fields. */
export type ProfileValue = string | number[];

function checkText(name: string, value: ProfileValue, limit: number): string {
  if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
  if (value.length > limit) throw badRequest(`${name} is too long (limit: ${limit} characters)`);
  return value;
}

/** A calendar date written as YYYY-MM-DD that exists. */
function isDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().startsWith(text);
}

/** An absolute web or FTP address with a real host, the kind Zulip's URL check accepts. */
export function isUrl(text: string): boolean {
  if (/\s/.test(text)) return false;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol)) return false;
  const host = url.hostname;
  return host === 'localhost' || /^\[[0-9a-f:.]+\]$/i.test(host) || /\.[a-z0-9-]*[a-z][a-z0-9-]*$/i.test(host) || /^\d+\.\d+\.\d+\.\d+$/.test(host);
}

function checkUserIds(stoa: Stoa, value: ProfileValue): number[] {
  if (!Array.isArray(value)) throw badRequest('User IDs is not a list');
  value.forEach((id, index) => {
    if (!Number.isInteger(id)) throw badRequest(`User IDs[${index}] is not an integer`);
  });
  const users = value.map((id) => stoa.users.byId(id));
  const invalid = value.filter((_, index) => !users[index] || users[index]!.is_system_bot);
  if (invalid.length > 0) throw badRequest(`Invalid user IDs: ${invalid.join(', ')}`);
  for (const user of users) {
    if (!user!.is_active) throw badRequest(`User with ID ${user!.id} is deactivated`);
    if (user!.is_bot) throw badRequest(`User with ID ${user!.id} is a bot`);
  }
  return value;
}

/**
 * Checks a value for a field in Zulip's words (which name the field by its label) and returns
 * the text to store: user fields keep their IDs as JSON, which is also what clients are sent.
 */
export function checkProfileValue(stoa: Stoa, field: ProfileFieldRow, value: ProfileValue): string {
  const name = field.name;
  switch (field.field_type) {
    case FieldType.LONG_TEXT:
      return checkText(name, value, LONG_TEXT_LIMIT);
    case FieldType.DATE:
      if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
      if (!isDate(value)) throw badRequest(`${name} is not a date`);
      return value;
    case FieldType.URL:
      if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
      if (!isUrl(value)) throw badRequest(`${name} is not a URL`);
      return value;
    case FieldType.SELECT: {
      if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
      const options = JSON.parse(field.field_data || '{}') as Record<string, unknown>;
      if (!Object.hasOwn(options, value)) throw badRequest(`'${value}' is not a valid choice for '${name}'.`);
      return value;
    }
    case FieldType.USER:
      return JSON.stringify(checkUserIds(stoa, value));
    default:
      return checkText(name, value, SHORT_TEXT_LIMIT);
  }
}

/** Text fields hold Markdown; their values are also sent rendered. */
export function isRenderable(field: ProfileFieldRow): boolean {
  return field.field_type === FieldType.SHORT_TEXT || field.field_type === FieldType.LONG_TEXT;
}
