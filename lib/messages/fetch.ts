import { spectatorChannels } from '../channels/access';
import { badRequest, missingArgument } from '../http/errors';
import type { ParamSchema } from '../http/validate';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { canReadChannelHistory } from './access';
import { Flag } from './flags';
import { flagsColumn, mutedCondition, rowConditions, type CompiledNarrow } from './narrow';
import { MESSAGE_COLUMNS, type MessageRow } from './queries';

/** The range parameters GET /messages and POST /messages/flags/narrow share. */
export const RANGE_PARAMS: Record<string, ParamSchema> = {
  anchor: { type: ['string', 'integer'] },
  include_anchor: { type: 'boolean', default: true },
  num_before: { type: 'integer', minimum: 0 },
  num_after: { type: 'integer', minimum: 0 },
};

/** Anchors beyond every message: `newest` fetches end here. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

type AnchorWord = 'newest' | 'oldest' | 'first_unread' | 'date';

/** An anchor as clients send it: a message ID (number or digits) or one of four words. */
function parseAnchor(anchor: string | number): number | AnchorWord {
  if (typeof anchor === 'number') {
    if (!Number.isInteger(anchor)) throw badRequest('Invalid anchor');
    return Math.max(0, Math.min(anchor, LARGER_THAN_MAX_MESSAGE_ID));
  }
  if (anchor === 'newest' || anchor === 'oldest' || anchor === 'first_unread' || anchor === 'date') return anchor;
  if (/^-?\d+$/.test(anchor)) return Math.max(0, Math.min(Number(anchor), LARGER_THAN_MAX_MESSAGE_ID));
  throw badRequest('Invalid anchor');
}

/**
 * What `anchor=date` needs (GET /messages only, level 445): the `anchor_date` sent, if any.
 * Endpoints that pass no such thing do not take date anchors.
 */
export interface DateAnchorParams {
  anchorDate: string | undefined;
}

/** The message ID an anchor stands for in this narrow. */
export function resolveAnchor(stoa: Stoa, narrow: CompiledNarrow, requested: string | number, dates?: DateAnchorParams): number {
  const parsed = parseAnchor(requested);
  if (parsed === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (parsed === 'oldest') return 0;
  if (parsed === 'first_unread') return firstUnreadId(stoa, narrow) ?? LARGER_THAN_MAX_MESSAGE_ID;
  if (parsed === 'date') {
    if (!dates) throw badRequest('Invalid anchor');
    if (dates.anchorDate === undefined) throw missingArgument('anchor_date');
    const seconds = parseAnchorDate(dates.anchorDate);
    if (seconds === undefined) throw badRequest('Invalid anchor_date');
    return firstSentSince(stoa, narrow, seconds) ?? LARGER_THAN_MAX_MESSAGE_ID;
  }
  return parsed;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * An ISO 8601 date or date and time as UNIX seconds: a date alone is midnight, and a time
 * without a zone is UTC. Undefined for anything else, or a day or time that does not exist.
 */
export function parseAnchorDate(text: string): number | undefined {
  const match = ISO_DATE.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone = 'Z'] = match;
  const parts = [year, month, day, hour, minute, second].map(Number);
  const ms = Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]);
  const back = new Date(ms);
  const exists =
    back.getUTCFullYear() === parts[0] && back.getUTCMonth() === parts[1] - 1 && back.getUTCDate() === parts[2] &&
    back.getUTCHours() === parts[3] && back.getUTCMinutes() === parts[4] && back.getUTCSeconds() === parts[5];
  if (!exists) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const [hours, minutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || '0')];
    if (hours > 23 || minutes > 59) return undefined;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  return ms / 1000 + Number(`0.${fraction || '0'}`) - offsetMinutes * 60;
}

/**
 * The first message of the narrow sent at or after a time. Message IDs grow with the time of
 * sending, so this is the first message of the narrow from the organization's first message
 * sent then: one step on the index of send times, one on the narrow's ID order.
 */
function firstSentSince(stoa: Stoa, narrow: CompiledNarrow, seconds: number): number | undefined {
  const since = stoa.messages.firstSentSince(seconds);
  if (since === undefined) return undefined;
  const { from, idColumn, flags, conditions } = source(narrow);
  const sql = `SELECT ${idColumn} AS id FROM ${from} ${whereClause(narrow, flags, [...conditions, `${idColumn} >= @since`], !narrow.includeHistory)}
    ORDER BY ${idColumn} LIMIT 1`;
  const both = narrow.includeHistory ? sql : eachTable(sql, 'id', '1');
  return (stoa.messages.prepared(both).get({ ...narrow.params, since }) as { id: number } | undefined)?.id;
}

export type FetchedRow = MessageRow & { user_flags: number };

/**
 * The start of a fetch: the user's own rows, or (shared history) every message of the
 * channel. A search starts from the full-text index instead, walked in ID order, so a common
 * word stops after one page of matches rather than listing them all first.
 */
function source(narrow: CompiledNarrow): { from: string; idColumn: string; flags: string; conditions: string[] } {
  const fullText = narrow.fullText;
  const conditions = fullText === null ? [] : [`messages_fts MATCH ${fullText}`];
  if (narrow.includeHistory) {
    return {
      from: `${fullText === null ? 'messages m' : 'messages_fts JOIN messages m ON m.id = messages_fts.rowid'}
        LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = @user
        LEFT JOIN user_messages_new un ON un.message_id = m.id AND un.user_id = @user`,
      idColumn: fullText === null ? 'm.id' : 'messages_fts.rowid',
      flags: flagsColumn(true),
      conditions,
    };
  }
  if (fullText !== null) {
    return {
      from: `messages_fts JOIN user_messages um ON um.message_id = messages_fts.rowid JOIN messages m ON m.id = messages_fts.rowid`,
      idColumn: 'messages_fts.rowid',
      flags: flagsColumn(false),
      conditions,
    };
  }
  return {
    from: 'user_messages um JOIN messages m ON m.id = um.message_id',
    idColumn: 'um.message_id',
    flags: flagsColumn(false),
    conditions,
  };
}

/**
 * A query of the user's own rows (`user_messages um` in its FROM, ordered by and limited on its
 * first column, named `id`) asked of both tables a row may be in (schema.sql), each with its own
 * order and limit, and merged. As one view of both, SQLite would read the person's whole
 * history before ordering it (bench/RESULTS.md).
 */
function eachTable(sql: string, order: string, limit: string): string {
  const staged = sql.replace(/user_messages um( INDEXED BY \w+)?/, 'user_messages_new um').replace(' AND um.recent IS NULL', '');
  return `SELECT * FROM (${sql}) UNION ALL SELECT * FROM (${staged}) ORDER BY ${order} LIMIT ${limit}`;
}

function whereClause(narrow: CompiledNarrow, flags: string, extra: string[], personal: boolean): string {
  const conditions = [...(personal ? ['um.user_id = @user'] : []), ...narrow.conditions, ...extra];
  return conditions.length === 0 ? '' : `WHERE ${conditions.map((c) => c.replaceAll('FLAGS', flags)).join(' AND ')}`;
}

/**
 * The oldest unread message of the narrow, if any; unread messages are always the user's own.
 * Muted topics (and muted channels, unless the narrow names the channel) are skipped, as
 * clients skip them when they jump to what is new.
 */
export function firstUnreadId(stoa: Stoa, narrow: CompiledNarrow): number | undefined {
  const personal = { ...narrow, includeHistory: false };
  const { from, idColumn, flags, conditions } = source(personal);
  const unread = [...conditions, `(${flags} & ${Flag.read}) = 0`, `NOT ${mutedCondition(!narrow.namesChannel)}`];
  const first = (start: string, extra: string[]) =>
    (
      stoa.messages
        .prepared(eachTable(`SELECT ${idColumn} AS id FROM ${start} ${whereClause(personal, flags, [...unread, ...extra], true)} ORDER BY ${idColumn} LIMIT 1`, 'id', '1'))
        .get(narrow.params) as { id: number } | undefined
    )?.id;
  if (narrow.fullText !== null) return first(from, []);
  // Unread rows are few: walk the user's unread index in ID order and stop at the first row in
  // the narrow. Left to itself the planner walks the user's whole history instead. (The staged
  // rows, a few per person, are walked by their own index.)
  return first(from.replace('user_messages um', 'user_messages um INDEXED BY user_messages_unread'), ['um.recent IS NULL']);
}

export interface RangeResult {
  /** The messages, shared with other requests: not to be changed. */
  rows: readonly MessageRow[];
  /** The viewer's flags on each of them, in the same order. */
  flags: readonly number[];
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

/** Up to numBefore messages before the anchor and numAfter after it (and the anchor itself if asked). */
export function fetchRange(
  stoa: Stoa,
  narrow: CompiledNarrow,
  anchor: number,
  includeAnchor: boolean,
  numBefore: number,
  numAfter: number,
): RangeResult {
  const { from, idColumn, flags, conditions } = source(narrow);
  const personal = !narrow.includeHistory;
  // IDs and flags only: the rows themselves come from what is kept of recent messages, read
  // from the database only for those not kept (bench/RESULTS.md). A narrow that says nothing
  // of the messages themselves (all of one's messages) needs only the user's own rows.
  const ownRowsOnly = personal && narrow.fullText === null && !narrow.conditions.some((condition) => /\bm\./.test(condition));
  const select = `SELECT ${idColumn} AS id, ${flags} AS user_flags FROM ${ownRowsOnly ? 'user_messages um' : from}`;
  const afterLimit = numAfter + (includeAnchor ? 1 : 0);
  const parts: string[] = [];
  if (numBefore > 0) {
    const sql = `${select} ${whereClause(narrow, flags, [...conditions, `${idColumn} < @anchor`], personal)} ORDER BY ${idColumn} DESC LIMIT @before`;
    parts.push(personal ? eachTable(sql, 'id DESC', '@before') : sql);
  }
  if (afterLimit > 0) {
    const op = includeAnchor ? '>=' : '>';
    const sql = `${select} ${whereClause(narrow, flags, [...conditions, `${idColumn} ${op} @anchor`], personal)} ORDER BY ${idColumn} LIMIT @after`;
    parts.push(personal ? eachTable(sql, 'id', '@after') : sql);
  }
  // Both sides in one statement: the rows before the anchor (newest first), then those after.
  const found =
    parts.length === 0
      ? []
      : (stoa.messages
          .prepared(parts.map((part) => `SELECT * FROM (${part})`).join(' UNION ALL '), true)
          .all({ ...narrow.params, anchor, before: numBefore, after: afterLimit }) as Array<[number, number]>);
  const firstAfter = found.findIndex(([id]) => id >= anchor);
  const split = firstAfter === -1 ? found.length : firstAfter;
  const beforeIds = found.slice(0, split).reverse();
  let afterIds = found.slice(split);
  const foundAnchor = includeAnchor && afterIds.length > 0 && afterIds[0][0] === anchor;
  // Without the anchor among them, the extra row we asked for is one too many.
  if (includeAnchor && !foundAnchor && afterIds.length > numAfter) afterIds = afterIds.slice(0, numAfter);
  const afterAnchorCount = afterIds.length - (foundAnchor ? 1 : 0);
  const ids = [...beforeIds, ...afterIds];
  return {
    rows: stoa.messages.rowsByIds(ids.map(([id]) => id)),
    flags: ids.map(([, flags]) => flags),
    foundAnchor,
    foundOldest: anchor === 0 || beforeIds.length < numBefore,
    foundNewest: anchor >= LARGER_THAN_MAX_MESSAGE_ID || afterAnchorCount < numAfter,
  };
}

/** The given messages that the viewer (a user, or a spectator when null) may read and the narrow matches, in ID order. */
export function fetchByIds(stoa: Stoa, viewer: UserRow | null, narrow: CompiledNarrow, ids: readonly number[]): FetchedRow[] {
  const readableHistory = (viewer ? stoa.channels.all().filter((channel) => canReadChannelHistory(stoa, viewer, channel)) : spectatorChannels(stoa))
    .map((channel) => channel.recipient_id);
  const flags = flagsColumn(true);
  const sql = `SELECT ${MESSAGE_COLUMNS}, ${flags} AS user_flags
    FROM messages m LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = @user
      LEFT JOIN user_messages_new un ON un.message_id = m.id AND un.user_id = @user
    ${whereClause({ ...narrow, conditions: rowConditions(narrow) }, flags, ['m.id IN (SELECT value FROM json_each(@ids))', '(um.user_id IS NOT NULL OR un.user_id IS NOT NULL OR m.recipient_id IN (SELECT value FROM json_each(@history)))'], false)}
    ORDER BY m.id`;
  return stoa.messages.messagesOf<FetchedRow>(sql, { ...narrow.params, ids: JSON.stringify(ids), history: JSON.stringify(readableHistory) });
}

/**
 * The given messages in the user's own history that the narrow matches, in ID order. Only
 * their own copies count, never what a channel's history would show them, as in Zulip.
 */
export function ownMatchesByIds(stoa: Stoa, narrow: CompiledNarrow, ids: readonly number[]): MessageRow[] {
  const personal = { ...narrow, includeHistory: false };
  const { from, flags } = source(personal);
  // Both tables: from.replace swaps the first (the only) mention of the table.
  const sql = ['user_messages um', 'user_messages_new um']
    .map((table) => `SELECT ${MESSAGE_COLUMNS} FROM ${from.replace('user_messages um', table)}
    ${whereClause(personal, flags, ['um.message_id IN (SELECT value FROM json_each(@ids))'], true)}`)
    .join(' UNION ALL ');
  return stoa.messages.messagesOf(`${sql} ORDER BY 1`, { ...narrow.params, ids: JSON.stringify(ids) });
}
