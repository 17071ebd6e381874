import { isSpectatorReadable, spectatorChannels } from '../channels/access';
import { ApiError, badRequest, unauthorized } from '../http/errors';
import type { ParamSchema } from '../http/validate';
import type { Stoa } from '../stoa';
import { topicKey } from '../user-topics/queries';
import type { UserRow } from '../users/queries';
import { canReadChannelHistory } from './access';
import { Flag, HISTORICAL_VIEW_FLAGS } from './flags';
import { EMPTY_TOPIC_DISPLAY_NAME, RESOLVED_TOPIC_PREFIX } from './topics';

/** One filter of a narrow, with Zulip's older operator names mapped to the current ones. */
export interface NarrowTerm {
  operator: string;
  operand: unknown;
  negated: boolean;
}

/** What clients send: `{operator, operand, negated}` objects or `[operator, operand]` pairs. */
export type RawNarrowTerm = [string, unknown] | { operator: string; operand: unknown; negated?: boolean };

const NARROW_TERM: ParamSchema = {
  anyOf: [
    { type: 'array', minItems: 2, maxItems: 2, items: [{ type: 'string' }, {}] },
    {
      type: 'object',
      required: ['operator', 'operand'],
      properties: { operator: { type: 'string' }, operand: {}, negated: { type: 'boolean' } },
    },
  ],
};
/** A `narrow` parameter the client must send, as GET /messages/matches_narrow's. */
export const REQUIRED_NARROW_PARAM: ParamSchema = { type: 'array', items: NARROW_TERM };
/** The `narrow` parameter of GET /messages, POST /register and the flags endpoints: no narrow by default. */
export const NARROW_PARAM: ParamSchema = { ...REQUIRED_NARROW_PARAM, default: [] };

/** No recipient has this ID: IDs start at 1. */
const NO_RECIPIENT = 0;
/** No user has this ID either: a spectator's narrow binds it, so no one's own rows join in. */
const NO_USER = 0;

const OPERATOR_ALIASES: Record<string, string> = { stream: 'channel', streams: 'channels', 'pm-with': 'dm' };
const OPERAND_ALIASES: Record<string, Record<string, string>> = { is: { private: 'dm' } };

export function badNarrow(description: string): ApiError {
  return new ApiError('BAD_NARROW', `Invalid narrow operator: ${description}`);
}

/**
 * The most terms a narrow may have. Every term is one more condition joined by AND in one SQL
 * statement, and SQLite refuses statements whose expressions nest deeper than 1000; a person's
 * search has a handful of terms, so a hundred leaves room for any client and for the
 * conditions one term can add.
 */
export const MAX_NARROW_TERMS = 100;

export function normalizeNarrow(raw: readonly RawNarrowTerm[]): NarrowTerm[] {
  if (raw.length > MAX_NARROW_TERMS) throw badRequest(`narrow has too many terms (limit: ${MAX_NARROW_TERMS})`);
  return raw.map((term) => {
    const [operator, operand, negated] = Array.isArray(term)
      ? [term[0], term[1], false]
      : [term.operator, term.operand, term.negated ?? false];
    const canonical = OPERATOR_ALIASES[operator] ?? operator;
    const aliased = typeof operand === 'string' ? OPERAND_ALIASES[canonical]?.[operand] : undefined;
    return { operator: canonical, operand: aliased ?? operand, negated };
  });
}

/**
 * A narrow turned into SQL over `messages m`. `FLAGS` in a condition stands for the user's
 * flag bits on the row: a column when fetching, a bound value when matching one event.
 */
export interface CompiledNarrow {
  /** Search the channel's whole history (shared history), not just the user's own messages. */
  includeHistory: boolean;
  conditions: string[];
  params: Record<string, unknown>;
  /** The words of `search` terms, for highlighting matches. */
  searchWords: string[];
  /** Whether a (positive) channel term picks the channel, so its muting does not hide it. */
  namesChannel: boolean;
  /**
   * The bound full-text query every message must match (the narrow's non-negated `search`
   * terms), kept out of `conditions` so a fetch can start from the search index.
   */
  fullText: string | null;
}

const IS_OPERANDS = new Set(['dm', 'starred', 'mentioned', 'alerted', 'unread', 'resolved', 'followed', 'muted']);
/** The one `is:` filter that keeps a channel's shared history; the others search only the user's own. */
const HISTORY_KEEPING_IS_OPERAND = 'resolved';
const HAS_OPERANDS = new Set(['link', 'image', 'attachment', 'reaction']);

/** Message IDs are 32-bit on Zulip; a larger operand names no message. */
const MAX_MESSAGE_ID = 2_147_483_647;

function messageIdOperand(term: NarrowTerm): number {
  const { operand } = term;
  const id = typeof operand === 'number' ? operand : typeof operand === 'string' && /^\d+$/.test(operand) ? Number(operand) : NaN;
  if (!Number.isSafeInteger(id) || id > MAX_MESSAGE_ID) {
    throw badNarrow(term.operator === 'with' ? "Invalid 'with' operator" : 'Invalid message ID');
  }
  return id;
}

function userOperand(stoa: Stoa, operand: unknown): UserRow | undefined {
  if (typeof operand === 'number') return stoa.users.byId(operand);
  if (typeof operand === 'string') return stoa.users.byAnyEmail(operand.trim());
  return undefined;
}

/** A `dm` operand: user IDs, or emails in a list or comma-separated. */
function dmUsers(stoa: Stoa, operand: unknown): UserRow[] {
  const items: unknown[] =
    typeof operand === 'string' ? operand.split(',').filter((s) => s.trim() !== '') : Array.isArray(operand) ? operand : [operand];
  return items.map((item) => {
    const user = userOperand(stoa, item);
    if (!user) throw badNarrow(`unknown user in ${typeof operand === 'string' ? operand : JSON.stringify(operand)}`);
    return user;
  });
}

/** The recipient of the direct conversation between these people, if they ever talked. */
function existingDirectRecipient(stoa: Stoa, participantIds: number[]): number | undefined {
  const ids = [...new Set(participantIds)].sort((a, b) => a - b);
  return stoa.messages.directGroupRecipient(ids.join(','));
}

export function compileNarrow(stoa: Stoa, user: UserRow, terms: readonly NarrowTerm[]): CompiledNarrow {
  return compileTerms(stoa, user, terms);
}

/** What a spectator's narrow may filter by, as Zulip's is_spectator_compatible allows. */
const SPECTATOR_OPERATORS = new Set(['channel', 'channels', 'topic', 'sender', 'has', 'search', 'near', 'id', 'with']);

/**
 * A spectator's narrow, compiled. It must ask for web-public channels (`channels:web-public`)
 * and filter only by what a spectator may; anything else gets the authentication error, as on
 * Zulip, so a client whose login silently failed hears so instead of seeing public messages.
 * A plain `in:home` is dropped first, as Zulip drops it. Whatever the terms, only messages of
 * channels spectators may read can match.
 */
export function compileSpectatorNarrow(stoa: Stoa, raw: readonly NarrowTerm[]): CompiledNarrow {
  const terms = raw.filter((t) => !(t.operator === 'in' && t.operand === 'home' && !t.negated));
  const asksForWebPublic = terms.some((t) => t.operator === 'channels' && t.operand === 'web-public' && !t.negated);
  if (!asksForWebPublic || terms.some((t) => !SPECTATOR_OPERATORS.has(t.operator))) throw unauthorized();
  const compiled = compileTerms(stoa, null, terms);
  const readable = spectatorChannels(stoa).map((channel) => channel.recipient_id);
  compiled.params.spectatorRecipients = JSON.stringify(readable);
  compiled.conditions.push('m.recipient_id IN (SELECT value FROM json_each(@spectatorRecipients))');
  return compiled;
}

/** A narrow for a user, or for a spectator (`viewer` null), whose terms compileSpectatorNarrow checked. */
function compileTerms(stoa: Stoa, viewer: UserRow | null, terms: readonly NarrowTerm[]): CompiledNarrow {
  // The terms that need an account never reach here for a spectator; this is the backstop.
  const member = (): UserRow => {
    if (!viewer) throw unauthorized();
    return viewer;
  };
  const compiled: CompiledNarrow = {
    includeHistory: false,
    conditions: [],
    params: { user: viewer?.id ?? NO_USER },
    searchWords: [],
    namesChannel: false,
    fullText: null,
  };
  const fullTextWords: string[] = [];
  let n = 0;
  const bind = (value: unknown): string => {
    const name = `p${n++}`;
    compiled.params[name] = value;
    return `@${name}`;
  };
  // A spectator reads channel histories only; they have no messages of their own.
  let historyRequested = viewer === null;
  let personalOnly = false;
  for (const term of resolveWith(stoa, viewer, terms)) {
    const { operator, operand } = term;
    let condition: string;
    switch (operator) {
      case 'channel': {
        const channel =
          typeof operand === 'number'
            ? stoa.channels.byId(operand)
            : typeof operand === 'string'
              ? /^\d+$/.test(operand)
                ? (stoa.channels.byName(operand) ?? stoa.channels.byId(Number(operand)))
                : stoa.channels.byName(operand)
              : undefined;
        if (!channel) throw badNarrow(`unknown channel ${String(operand)}`);
        if (!viewer && !isSpectatorReadable(channel)) throw badNarrow(`unknown web-public channel ${String(operand)}`);
        if (viewer && !term.negated && canReadChannelHistory(stoa, viewer, channel)) historyRequested = true;
        if (!term.negated) compiled.namesChannel = true;
        condition = `m.recipient_id = ${bind(channel.recipient_id)}`;
        break;
      }
      case 'channels': {
        if (operand === 'public') {
          if (viewer && !term.negated && viewer.role !== 600) historyRequested = true;
          condition = 'm.recipient_id IN (SELECT recipient_id FROM streams WHERE invite_only = 0)';
        } else if (operand === 'web-public') {
          condition = 'm.recipient_id IN (SELECT recipient_id FROM streams WHERE is_web_public = 1)';
        } else {
          throw badNarrow(`unknown channels operand ${String(operand)}`);
        }
        break;
      }
      case 'topic': {
        if (typeof operand !== 'string') throw badNarrow(`Invalid '${operator}' operand`);
        const topic = operand === EMPTY_TOPIC_DISPLAY_NAME ? '' : operand;
        condition = `(m.stream_id IS NOT NULL AND m.topic_key = ${bind(topicKey(topic))})`;
        break;
      }
      case 'sender': {
        const sender = userOperand(stoa, operand);
        if (!sender) throw badNarrow(`unknown user ${String(operand)}`);
        condition = `m.sender_id = ${bind(sender.id)}`;
        break;
      }
      case 'dm': {
        const others = dmUsers(stoa, operand);
        const recipientId =
          others.length === 0 ? undefined : existingDirectRecipient(stoa, [member().id, ...others.map((u) => u.id)]);
        // A conversation that never happened matches no recipient. Not a constant false: SQLite
        // folds that away and then refuses the unread index that firstUnreadId names.
        condition = `m.recipient_id = ${bind(recipientId ?? NO_RECIPIENT)}`;
        break;
      }
      case 'mentions': {
        // Level 446: a direct, visible mention of the user, by user ID only. The user was
        // mentioned (their row has the flag) by their own mention markup, not a silent one, nor
        // a group or wildcard mention that reached them.
        member();
        const id = typeof operand === 'number' ? operand : typeof operand === 'string' && /^\d+$/.test(operand) ? Number(operand) : NaN;
        const mentioned = Number.isSafeInteger(id) ? stoa.users.byId(id) : undefined;
        if (!mentioned) throw badNarrow(`unknown user ${String(operand)}`);
        condition = `(EXISTS (SELECT 1 FROM user_messages_all mu WHERE mu.user_id = ${bind(mentioned.id)} AND mu.message_id = m.id
            AND (mu.flags & ${Flag.mentioned}) <> 0)
          AND instr(m.rendered_content, ${bind(`<span class="user-mention" data-user-id="${mentioned.id}">`)}) > 0)`;
        break;
      }
      case 'dm-including':
      case 'group-pm-with': {
        const other = userOperand(stoa, operand);
        if (!other) throw badNarrow(`unknown user ${String(operand)}`);
        // A note to oneself (a one-member conversation) includes its author, and only them.
        const minimumSize = operator === 'group-pm-with' ? 3 : other.id === member().id ? 1 : 2;
        const groups = `SELECT recipient_id FROM direct_message_groups
          WHERE instr(',' || user_ids || ',', ${bind(`,${other.id},`)}) > 0
            AND length(user_ids) - length(replace(user_ids, ',', '')) + 1 >= ${minimumSize}`;
        condition = `(m.stream_id IS NULL AND m.recipient_id IN (${groups}))`;
        break;
      }
      case 'is': {
        member();
        if (typeof operand !== 'string' || !IS_OPERANDS.has(operand)) throw badNarrow(`unknown 'is' operand ${String(operand)}`);
        if (operand !== HISTORY_KEEPING_IS_OPERAND) personalOnly = true;
        condition = isCondition(operand, bind);
        break;
      }
      case 'in': {
        // Zulip's combined feed: `in:home` leaves out what the user muted, `in:all` nothing.
        member();
        if (operand === 'home') condition = `NOT ${mutedCondition(true)}`;
        else if (operand === 'all') condition = '1';
        else throw badNarrow(`unknown 'in' operand ${String(operand)}`);
        break;
      }
      case 'has': {
        if (typeof operand !== 'string' || !HAS_OPERANDS.has(operand)) throw badNarrow(`unknown 'has' operand ${String(operand)}`);
        condition =
          operand === 'reaction' ? 'EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id)' : `m.has_${operand} = 1`;
        break;
      }
      case 'id':
        condition = `m.id = ${bind(messageIdOperand(term))}`;
        break;
      case 'near':
        messageIdOperand(term);
        continue; // only moves the anchor, which the client sends separately
      case 'search': {
        if (typeof operand !== 'string') throw badNarrow(`Invalid '${operator}' operand`);
        const words = searchWords(operand);
        if (words.length === 0) continue;
        compiled.searchWords.push(...words);
        if (!term.negated) {
          fullTextWords.push(...words);
          continue;
        }
        condition = matchesFullText(bind(ftsQuery(words)));
        break;
      }
      default:
        throw badNarrow(`unknown operator ${operator}`);
    }
    compiled.conditions.push(term.negated ? `NOT (${condition})` : condition);
  }
  if (fullTextWords.length > 0) compiled.fullText = bind(ftsQuery(fullTextWords));
  compiled.includeHistory = historyRequested && !personalOnly;
  return compiled;
}

/** Whether message `m` matches a full-text query: a lookup of one row, not a list of every match. */
function matchesFullText(query: string): string {
  return `EXISTS (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ${query} AND messages_fts.rowid = m.id)`;
}

/** Every condition of the narrow on one row of `messages m`, the full-text match included. */
export function rowConditions(narrow: CompiledNarrow): string[] {
  return narrow.fullText === null ? narrow.conditions : [...narrow.conditions, matchesFullText(narrow.fullText)];
}

function isCondition(operand: string, bind: (value: unknown) => string): string {
  switch (operand) {
    case 'dm':
      return 'm.stream_id IS NULL';
    case 'starred':
      return `(FLAGS & ${Flag.starred}) <> 0`;
    case 'mentioned':
      return `(FLAGS & ${Flag.mentioned | Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned}) <> 0`;
    case 'alerted':
      return `(FLAGS & ${Flag.has_alert_word}) <> 0`;
    case 'unread':
      return `(FLAGS & ${Flag.read}) = 0`;
    case 'resolved':
      return `(m.stream_id IS NOT NULL AND substr(m.topic, 1, 2) = ${bind(RESOLVED_TOPIC_PREFIX)})`;
    case 'followed':
      return `EXISTS (SELECT 1 FROM user_topics ut WHERE ut.user_id = @user AND ut.stream_id = m.stream_id
        AND ut.topic_key = m.topic_key AND ut.visibility_policy = 3)`;
    default:
      return mutedCondition(true);
  }
}

/**
 * SQL true for channel messages the user has muted: in a muted topic, or (when asked) in a
 * muted channel's topic they did not unmute or follow.
 */
export function mutedCondition(channelMuting: boolean): string {
  const topicPolicy = (policies: string) => `EXISTS (SELECT 1 FROM user_topics ut WHERE ut.user_id = @user
    AND ut.stream_id = m.stream_id AND ut.topic_key = m.topic_key AND ut.visibility_policy IN (${policies}))`;
  const mutedChannel = `(EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = @user AND s.recipient_id = m.recipient_id AND s.is_muted = 1)
    AND NOT ${topicPolicy('2, 3')})`;
  return `(m.stream_id IS NOT NULL AND (${topicPolicy('1')}${channelMuting ? ` OR ${mutedChannel}` : ''}))`;
}

/** The words of a search, lowercased; quoted phrases stay together. */
export function searchWords(query: string): string[] {
  const words: string[] = [];
  for (const match of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    const word = (match[1] ?? match[2]).trim().toLowerCase();
    if (word !== '') words.push(word);
  }
  return words;
}

/** Every word (or phrase) must occur; each is quoted so search syntax in it means nothing. */
function ftsQuery(words: readonly string[]): string {
  return words.map((word) => `"${word.replace(/"/g, '""')}"`).join(' AND ');
}

/**
 * `with:ID` names the conversation the message is in now: its channel and topic or its
 * direct conversation replace the narrow's own. A message the viewer (a user, or a spectator
 * when null) cannot reach is ignored.
 */
function resolveWith(stoa: Stoa, viewer: UserRow | null, terms: readonly NarrowTerm[]): NarrowTerm[] {
  const withTerm = terms.find((t) => t.operator === 'with');
  if (!withTerm) return [...terms];
  const messageId = messageIdOperand(withTerm);
  const rest = terms.filter((t) => t.operator !== 'with');
  const row = stoa.messages.byId(messageId);
  const channel = row?.stream_id == null ? undefined : stoa.channels.byId(row.stream_id)!;
  const readable =
    row !== undefined &&
    (viewer === null
      ? channel !== undefined && isSpectatorReadable(channel)
      : stoa.messages.flagsOf(viewer.id, messageId) !== undefined || (channel !== undefined && canReadChannelHistory(stoa, viewer, channel)));
  if (!row || !readable) return rest;
  const conversation = new Set(['channel', 'topic', 'dm', 'is']);
  const kept = rest.filter((t) => !conversation.has(t.operator) || (t.operator === 'is' && t.operand !== 'dm'));
  if (row.stream_id !== null) {
    return [...kept, { operator: 'channel', operand: row.stream_id, negated: false }, { operator: 'topic', operand: row.topic, negated: false }];
  }
  const recipient = stoa.messages.recipient(row.recipient_id)!;
  const participants = stoa.messages.directGroupMembers(recipient.type_id);
  return [...kept, { operator: 'dm', operand: participants, negated: false }];
}

/**
 * The flags expression of a fetch: the user's row, or read-and-historical for shared history.
 * With shared history the user's row is joined from each of its two tables (um and un, see
 * fetch.ts).
 */
export function flagsColumn(includeHistory: boolean): string {
  return includeHistory ? `coalesce(um.flags, un.flags, ${HISTORICAL_VIEW_FLAGS})` : 'um.flags';
}
