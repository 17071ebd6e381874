import { batch, signal } from '@preact/signals';
import { get, post } from './api';
import { channelByName, session, unread, unreadMentions, userByEmail } from './state';
import type { Message, NarrowTerm } from './types';

/**
 * The message view: the messages fetched around what is shown, for one narrow. Only a window
 * of messages is kept; older and newer ones are fetched as the view scrolls.
 */

export interface Feed {
  terms: NarrowTerm[];
  messages: Message[];
  foundOldest: boolean;
  foundNewest: boolean;
  loading: boolean;
  error: string | null;
  /** The message to select and scroll to once loaded. */
  anchorId: number | null;
}

const BATCH = 50;
/** At most this many messages are kept; the far end is dropped and fetched again if needed. */
const WINDOW = 600;

export const feed = signal<Feed>({ terms: [], messages: [], foundOldest: false, foundNewest: false, loading: true, error: null, anchorId: null });
export const selectedId = signal<number | null>(null);

interface MessagesAnswer {
  messages: Message[];
  found_oldest: boolean;
  found_newest: boolean;
  found_anchor: boolean;
  anchor: number;
}

/** Channel operands by ID and people by ID, as the API takes them. */
export function apiNarrow(terms: NarrowTerm[]): Array<{ operator: string; operand: string | number | number[]; negated?: boolean }> {
  return terms.map((term) => {
    let operand: string | number | number[] = term.operand;
    if (term.operator === 'channel') {
      operand = /^\d+$/.test(term.operand) ? Number(term.operand) : (channelByName(term.operand)?.stream_id ?? term.operand);
    } else if (term.operator === 'dm' || term.operator === 'dm-including' || term.operator === 'sender') {
      const ids = term.operand.split(',').map((part) => (/^\d+$/.test(part.trim()) ? Number(part) : (userByEmail(part.trim())?.user_id ?? part.trim())));
      if (ids.every((id) => typeof id === 'number')) {
        operand = term.operator === 'dm' ? (ids as number[]) : (ids[0] as number);
      } else if (term.operand === 'me' && session.value) {
        operand = session.value.user_id;
      }
    }
    return { operator: term.operator, operand, ...(term.negated ? { negated: true } : {}) };
  });
}

let generation = 0;

async function fetchMessages(terms: NarrowTerm[], anchor: string | number, before: number, after: number): Promise<MessagesAnswer> {
  return get<MessagesAnswer>('/json/messages', {
    anchor: String(anchor),
    num_before: before,
    num_after: after,
    narrow: apiNarrow(terms),
    apply_markdown: true,
    client_gravatar: false,
  });
}

/** Opens a narrow: fetches the messages around the first unread one (or the newest). */
export async function openNarrow(terms: NarrowTerm[], anchor: string | number = 'first_unread'): Promise<void> {
  const mine = ++generation;
  keptUnread.clear();
  feed.value = { terms, messages: [], foundOldest: false, foundNewest: false, loading: true, error: null, anchorId: null };
  try {
    const answer = await fetchMessages(terms, anchor, BATCH, BATCH);
    if (mine !== generation) return;
    const anchorId = answer.found_anchor || anchor === 'first_unread' ? answer.anchor : (answer.messages.at(-1)?.id ?? null);
    batch(() => {
      feed.value = {
        terms,
        messages: answer.messages,
        foundOldest: answer.found_oldest,
        foundNewest: answer.found_newest,
        loading: false,
        error: null,
        anchorId: answer.messages.some((m) => m.id === anchorId) ? anchorId : (answer.messages.at(-1)?.id ?? null),
      };
      selectedId.value = feed.value.anchorId;
    });
  } catch (err) {
    if (mine !== generation) return;
    feed.value = { ...feed.value, loading: false, error: (err as Error).message };
  }
}

/** Fetches the view again around the selected message, after the event queue was lost. */
export function reloadFeed(): Promise<void> {
  return openNarrow(feed.value.terms, selectedId.value ?? 'first_unread');
}

let loadingMore = false;

/** Fetches older (`direction` -1) or newer (+1) messages at the edge of the window. */
export async function loadMore(direction: -1 | 1): Promise<void> {
  const current = feed.value;
  if (loadingMore || current.loading || current.messages.length === 0) return;
  if (direction < 0 ? current.foundOldest : current.foundNewest) return;
  loadingMore = true;
  const mine = generation;
  try {
    const edge = direction < 0 ? current.messages[0].id : current.messages[current.messages.length - 1].id;
    const answer = await fetchMessages(current.terms, edge, direction < 0 ? BATCH : 0, direction < 0 ? 0 : BATCH);
    if (mine !== generation) return;
    const fresh = answer.messages.filter((m) => m.id !== edge);
    const latest = feed.value;
    let messages = direction < 0 ? [...fresh, ...latest.messages] : [...latest.messages, ...fresh];
    let { foundOldest, foundNewest } = latest;
    if (direction < 0) foundOldest = answer.found_oldest;
    else foundNewest = answer.found_newest;
    if (messages.length > WINDOW) {
      // Keep the side being read; the other end is fetched again when scrolled back to.
      if (direction < 0) {
        messages = messages.slice(0, WINDOW);
        foundNewest = false;
      } else {
        messages = messages.slice(messages.length - WINDOW);
        foundOldest = false;
      }
    }
    feed.value = { ...latest, messages, foundOldest, foundNewest, anchorId: null };
  } finally {
    loadingMore = false;
  }
}

/**
 * Whether a message belongs in a narrow, for messages arriving live; undefined when the client
 * cannot tell (full-text search, `has:`), and such views are not extended live.
 */
export function matchesNarrow(message: Message, terms: NarrowTerm[], self: number): boolean | undefined {
  for (const term of terms) {
    const result = matchesTerm(message, term, self);
    if (result === undefined) return undefined;
    if (result === Boolean(term.negated)) return false;
  }
  return true;
}

function userIdsOf(operand: string, self: number): number[] | undefined {
  const ids: number[] = [];
  for (const part of operand.split(',')) {
    const text = part.trim();
    if (text === 'me') ids.push(self);
    else if (/^\d+$/.test(text)) ids.push(Number(text));
    else {
      const user = userByEmail(text);
      if (!user) return undefined;
      ids.push(user.user_id);
    }
  }
  return ids;
}

function matchesTerm(message: Message, term: NarrowTerm, self: number): boolean | undefined {
  const recipients = Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id) : [];
  switch (term.operator) {
    case 'channel': {
      const id = /^\d+$/.test(term.operand) ? Number(term.operand) : channelByName(term.operand)?.stream_id;
      return message.type === 'stream' && message.stream_id === id;
    }
    case 'topic':
      return message.type === 'stream' && message.subject.toLowerCase() === term.operand.toLowerCase();
    case 'sender': {
      const ids = userIdsOf(term.operand, self);
      return ids === undefined ? undefined : message.sender_id === ids[0];
    }
    case 'dm': {
      const ids = userIdsOf(term.operand, self);
      if (ids === undefined) return undefined;
      if (message.type !== 'private') return false;
      const want = new Set([...ids, self]);
      const have = new Set([...recipients, self]);
      return want.size === have.size && [...want].every((id) => have.has(id));
    }
    case 'dm-including': {
      const ids = userIdsOf(term.operand, self);
      return ids === undefined ? undefined : message.type === 'private' && recipients.includes(ids[0]);
    }
    case 'is':
      switch (term.operand) {
        case 'dm':
        case 'private':
          return message.type === 'private';
        case 'starred':
          return message.flags.includes('starred');
        case 'mentioned':
          return message.flags.some((flag) => flag === 'mentioned' || flag.endsWith('wildcard_mentioned'));
        case 'unread':
          return !message.flags.includes('read');
        default:
          return undefined;
      }
    default:
      return undefined;
  }
}

/** Replaces one message of the view in place. */
export function updateFeedMessages(change: (message: Message) => Message): void {
  const current = feed.value;
  let changed = false;
  const messages = current.messages.map((message) => {
    const next = change(message);
    if (next !== message) changed = true;
    return next;
  });
  if (changed) feed.value = { ...current, messages };
}

// Messages seen are marked read in batches, a moment after they were seen.
const toMarkRead = new Set<number>();
let markTimer: ReturnType<typeof setTimeout> | undefined;

/** Messages the reader marked unread in the open view: seeing them again does not read them. */
const keptUnread = new Set<number>();

/** Keeps a message unread while its view stays open (the reader just marked it unread). */
export function keepUnread(messageId: number): void {
  keptUnread.add(messageId);
}

/** Marks a message read soon, when the person has seen it. */
export function markSeen(messageId: number): void {
  if (!unread.value.has(messageId) || toMarkRead.has(messageId) || keptUnread.has(messageId)) return;
  toMarkRead.add(messageId);
  markTimer ??= setTimeout(flushRead, 300);
}

async function flushRead(): Promise<void> {
  markTimer = undefined;
  const ids = [...toMarkRead];
  toMarkRead.clear();
  if (ids.length === 0) return;
  applyRead(ids);
  try {
    await post('/json/messages/flags', { messages: ids, op: 'add', flag: 'read' });
  } catch {
    // The counts are corrected by the next registration; nothing to tell the reader.
  }
}

/** Removes messages from the unread counts (read here, or the server said so). */
export function applyRead(ids: number[]): void {
  const gone = ids.filter((id) => unread.value.has(id) || unreadMentions.value.has(id));
  if (gone.length === 0) return;
  batch(() => {
    const next = new Map(unread.value);
    const mentions = new Set(unreadMentions.value);
    for (const id of gone) {
      next.delete(id);
      mentions.delete(id);
    }
    unread.value = next;
    unreadMentions.value = mentions;
    const read = new Set(gone);
    updateFeedMessages((m) => (read.has(m.id) && !m.flags.includes('read') ? { ...m, flags: [...m.flags, 'read'] } : m));
  });
}
