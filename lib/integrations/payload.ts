import { badRequest, missingArgument } from '../http/errors';

/**
 * Readers of a JSON payload that refuse, in Zulip's words, a value of the wrong kind or a key
 * that is missing (a 400, never a crash).
 */

type Json = any;

function at(value: Json, key: string): Json {
  if (value === null || typeof value !== 'object' || !(key in value)) throw badRequest(`${key} is missing`);
  return value[key];
}

/** A string the payload must have. */
export function str(value: Json, key: string): string {
  const found = at(value, key);
  if (typeof found !== 'string') throw badRequest(`${key} is not a string`);
  return found;
}

/** A list the payload must have. */
export function list(value: Json, key: string): Json[] {
  const found = at(value, key);
  if (!Array.isArray(found)) throw badRequest(`${key} is not a list`);
  return found;
}

/** Python's truthiness, which Zulip's `if payload.get(...)` tests rely on. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

/** A value as Python's str() writes it, which Zulip's messages show for numbers, booleans and null. */
export function pythonStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'object') return pythonRepr(value);
  return String(value);
}

/** A number the payload must have (an integer or not). */
export function num(value: Json, key: string): number {
  const found = at(value, key);
  if (typeof found !== 'number') throw badRequest(`${key} is not a number`);
  return found;
}

/** Python's str.title(): every run of letters starts upper case and goes on lower case. */
export function pythonTitle(text: string): string {
  return text.toLowerCase().replace(/(^|[^\p{L}])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
}

/** A parameter (query or form field) holding JSON, as Zulip's Json[...] parameters read it. */
export function jsonParam(request: { param(name: string): string | undefined }, name: string): Json {
  const text = request.param(name);
  if (text === undefined) throw missingArgument(name);
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
}

/** A parameter (query or form field) the integration cannot do without. */
export function requiredParam(request: { param(name: string): string | undefined }, name: string): string {
  const value = request.param(name);
  if (value === undefined) throw missingArgument(name);
  return value;
}

/** A JSON value as Python's repr() writes it inside a dict or list (strings quoted). */
export function pythonRepr(value: unknown): string {
  if (typeof value === 'string') return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`).join(', ')}}`;
  }
  return pythonStr(value);
}

/** Python's str.capitalize(): the first character upper case, the rest lower case. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).toLowerCase();
}

/** "Fri Dec 29 17:13:46 2017": an ISO time without its zone (or in UTC), as C's %c writes it. */
export function cTime(iso: string): string {
  const date = new Date(`${iso.replace(/(\+00:00|Z)$/, '')}Z`);
  if (Number.isNaN(date.getTime())) throw badRequest(`Invalid time: ${iso}`);
  const day = date.toLocaleString('en-US', { weekday: 'short', timeZone: 'UTC' });
  const month = date.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  return `${day} ${month} ${String(date.getUTCDate()).padStart(2, ' ')} ${date.toISOString().slice(11, 19)} ${date.getUTCFullYear()}`;
}
