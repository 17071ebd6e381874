import { batch, signal } from '@preact/signals';
import { post } from '../api';
import { channelByName, isTopicMuted, session, TopicPolicy, topicPolicy, unread, unreadMentions, userByEmail } from '../state';
import type { Message, NarrowTerm } from '../types';
import { takeEarlyMessages } from '../app/early';
import { apiNarrow as apiNarrowOf, FIRST_BATCH, requestMessages, type MessagesAnswer, type NarrowNames } from './fetch';

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
  /** Counts the views opened, so the list knows a view was (re)opened even when shown from memory. */
  opened: number;
}

const BATCH = 50;
/** At most this many messages are kept; the far end is dropped and fetched again if needed. */
const WINDOW = 400;
/**
 * Views kept in memory after they were left, so going back to one shows it at once. Each keeps
 * about a screenful of messages, so two dozen cost little: someone going through twenty
 * channels in turn finds each one where it was left.
 */
const RECENT_VIEWS = 24;

export const feed = signal<Feed>({ terms: [], messages: [], foundOldest: false, foundNewest: false, loading: true, error: null, anchorId: null, opened: 0 });
/**
 * The narrow of the view open or being opened. It changes at once when another view opens,
 * while `feed` may keep the view on the screen until the next one's messages come (see
 * openNarrow): the title, the search box, the sidebar and the compose box follow where the
 * person went, so a key pressed meanwhile (`/`, `c`) acts on the new view.
 */
export const feedTerms = signal<NarrowTerm[]>([]);
export const selectedId = signal<number | null>(null);

/** The names the app knows, for narrows that name channels or people. */
const KNOWN_NAMES: NarrowNames = {
  channelId: (name) => channelByName(name)?.stream_id,
  userId: (email) => userByEmail(email)?.user_id,
  self: () => session.value?.user_id,
};

export const apiNarrow = (terms: NarrowTerm[]) => apiNarrowOf(terms, KNOWN_NAMES);

let generation = 0;

/** A change an event makes to the view: the same view when the event does not touch it. */
export type FeedChange = (view: Feed) => Feed;

/**
 * The changes events made while a fetch of messages was on its way. An answer may have been
 * read on the server before those events happened, so each is applied again to the answer
 * (every change is idempotent: adding a message present, or editing to the same text, is no
 * change); a message is then neither lost nor shown twice, nor shown as it was before an edit.
 */
const journal: Array<{ seq: number; change: FeedChange }> = [];
let changeSeq = 0;
let fetchesOnTheirWay = 0;

/** Applies an event's change to the open view, and keeps it for the answers on their way. */
export function changeFeed(change: FeedChange): void {
  const current = feed.value;
  const next = change(current);
  if (next !== current) feed.value = next;
  if (fetchesOnTheirWay > 0) journal.push({ seq: ++changeSeq, change });
}

/**
 * Starts keeping the changes events make, for an answer that was asked for now. The returned
 * function stops keeping them (once) and gives the changes made meanwhile, to replay on the answer.
 */
function keepChanges(): () => FeedChange {
  const since = changeSeq;
  fetchesOnTheirWay++;
  let kept = true;
  return () => {
    const changes = journal.filter((entry) => entry.seq > since).map((entry) => entry.change);
    if (kept) {
      kept = false;
      if (--fetchesOnTheirWay === 0) journal.length = 0;
    }
    return (view) => changes.reduce((replayed, change) => change(replayed), view);
  };
}

/** Waits for a fetch of messages; the answer comes with a function replaying the changes made while it was on its way. */
async function catchingUp(request: Promise<MessagesAnswer>): Promise<[MessagesAnswer, FeedChange]> {
  const release = keepChanges();
  let answer: MessagesAnswer;
  try {
    answer = await request;
  } catch (err) {
    release();
    throw err;
  }
  return [answer, release()];
}

function fetchMessages(terms: NarrowTerm[], anchor: string | number, before: number, after: number): Promise<[MessagesAnswer, FeedChange]> {
  return catchingUp(requestMessages(apiNarrow(terms), anchor, before, after));
}

const recentViews = new Map<string, Feed>();
const narrowKey = (terms: NarrowTerm[]) => JSON.stringify(terms);

/**
 * Where the reader is in the open view: the message in the middle of the screen (null at the
 * bottom), and the first and last messages on the screen or within half a screen of it.
 */
export interface ReadPosition {
  anchorId: number | null;
  first: number;
  last: number;
}

let readPosition: () => ReadPosition | null = () => null;

/** The message list tells where the reader is, so a view left can be shown again at the same place. */
export function setReadPosition(reader: () => ReadPosition | null): void {
  readPosition = reader;
}

/**
 * Keeps the open view for later: the messages on the screen and within half a screen of it
 * (about a screenful each way when the list cannot tell), so showing it again draws what
 * fills the screen and no more; the rest is fetched behind it.
 */
function rememberOpenView(): void {
  const current = feed.value;
  if (current.loading || current.error !== null || current.messages.length === 0) return;
  const messages = current.messages;
  const position = readPosition();
  const anchorId = position?.anchorId ?? messages[messages.length - 1].id;
  const at = Math.max(0, messages.findIndex((m) => m.id === anchorId));
  const first = position ? messages.findIndex((m) => m.id === position.first) : -1;
  const last = position ? messages.findIndex((m) => m.id === position.last) : -1;
  const shown = first >= 0 && last >= first && first <= at && at <= last;
  const start = shown ? first : Math.max(0, at - FIRST_BATCH);
  const end = shown ? last + 1 : Math.min(messages.length, at + FIRST_BATCH + 1);
  const key = narrowKey(current.terms);
  recentViews.delete(key);
  recentViews.set(key, {
    ...current,
    messages: messages.slice(start, end),
    foundOldest: current.foundOldest && start === 0,
    foundNewest: current.foundNewest && end === messages.length,
    anchorId,
  });
  if (recentViews.size > RECENT_VIEWS) recentViews.delete(recentViews.keys().next().value!);
}

/**
 * A view's first messages asked for before it opens: a link to it was pressed, and the click
 * (a tenth of a second later for a person) will open it. Kept a few seconds for that click,
 * with the changes events make meanwhile, as for any fetch on its way.
 */
let prefetched: { key: string; answer: Promise<MessagesAnswer>; release: () => FeedChange; expiry: ReturnType<typeof setTimeout> } | undefined;
const PREFETCH_KEPT_MS = 5_000;

function dropPrefetched(): void {
  if (!prefetched) return;
  clearTimeout(prefetched.expiry);
  prefetched.release();
  prefetched = undefined;
}

/** Asks for a view's first messages ahead of its opening, unless it is open or remembered. */
export function prefetchNarrow(terms: NarrowTerm[]): void {
  const key = narrowKey(terms);
  if (prefetched?.key === key || recentViews.has(key) || narrowKey(feed.value.terms) === key) return;
  dropPrefetched();
  const release = keepChanges();
  const answer = requestMessages(apiNarrow(terms), 'first_unread', FIRST_BATCH, FIRST_BATCH);
  answer.catch(() => {});
  prefetched = { key, answer, release, expiry: setTimeout(dropPrefetched, PREFETCH_KEPT_MS) };
}

/** The prefetched messages of this view, with the changes made since they were asked for (once); undefined if they failed. */
async function takePrefetched(key: string): Promise<[MessagesAnswer, FeedChange] | undefined> {
  const taken = prefetched;
  if (taken?.key !== key) {
    dropPrefetched();
    return undefined;
  }
  clearTimeout(taken.expiry);
  prefetched = undefined;
  let answer: MessagesAnswer;
  try {
    answer = await taken.answer;
  } catch {
    taken.release();
    return undefined;
  }
  return [answer, taken.release()];
}

/**
 * How long the view on the screen stays while the next one's messages are on their way,
 * before "Loading…" replaces it. Most answers come within a few tens of milliseconds: the
 * next view then replaces the last in one frame, as a page does, instead of an empty list
 * drawn (and its rows removed) only to be drawn over at once.
 */
const HOLD_SHOWN_MS = 200;

/**
 * Opens a narrow. A view seen recently is shown at once, as it was left, and fetched again
 * behind it; any other is fetched around its first unread message (or the newest). With
 * `holdShown` (the message list is on the screen), the view shown stays until the answer, or
 * for HOLD_SHOWN_MS at most.
 */
export async function openNarrow(terms: NarrowTerm[], anchor: string | number = 'first_unread', holdShown = false): Promise<void> {
  const mine = ++generation;
  feedTerms.value = terms;
  keptUnread.clear();
  rememberOpenView();
  const key = narrowKey(terms);
  const ahead = anchor === 'first_unread' ? takePrefetched(key) : (dropPrefetched(), undefined);
  const remembered = anchor === 'first_unread' ? recentViews.get(key) : undefined;
  recentViews.delete(key);
  if (remembered) {
    // Read since it was left: the counts know, the remembered copies do not.
    const read = (m: Message) => !m.flags.includes('read') && !unread.value.has(m.id);
    const messages = remembered.messages.map((m) => (read(m) ? { ...m, flags: [...m.flags, 'read'] } : m));
    batch(() => {
      feed.value = { ...remembered, messages, opened: mine };
      selectedId.value = remembered.anchorId;
    });
    // Fetched again after the first frame: starting a request costs the switch a few
    // milliseconds, and the answer comes after that frame anyway.
    refreshAfterFirstFrame(mine);
    return;
  }
  const loading: Feed = { terms, messages: [], foundOldest: false, foundNewest: false, loading: true, error: null, anchorId: null, opened: mine };
  const shown = feed.value;
  const hold = holdShown && !shown.loading && shown.error === null && shown.messages.length > 0;
  const holding = hold ? setTimeout(() => mine === generation && (feed.value = loading), HOLD_SHOWN_MS) : undefined;
  if (!hold) feed.value = loading;
  // The page's first view may have been asked for before the app was loaded.
  const early = takeEarlyMessages(terms, anchor);
  try {
    let answered: [MessagesAnswer, FeedChange] | undefined = await ahead;
    let answeredEarly = false;
    if (early && !answered) {
      try {
        answered = await catchingUp(early);
        answeredEarly = true;
      } catch {
        // Asked again below.
      }
    }
    const [answer, replay] = answered ?? (await fetchMessages(terms, anchor, FIRST_BATCH, FIRST_BATCH));
    clearTimeout(holding);
    if (mine !== generation) return;
    const anchorId = answer.found_anchor || anchor === 'first_unread' ? answer.anchor : (answer.messages.at(-1)?.id ?? null);
    batch(() => {
      feed.value = replay({
        terms,
        messages: answer.messages,
        foundOldest: answer.found_oldest,
        foundNewest: answer.found_newest,
        loading: false,
        error: null,
        anchorId: answer.messages.some((m) => m.id === anchorId) ? anchorId : (answer.messages.at(-1)?.id ?? null),
        opened: mine,
      });
      selectedId.value = feed.value.anchorId;
    });
    // The early answer may have been read on the server before the event queue began, so a
    // change between the two would be in neither: the view is fetched again, after the first
    // frame (the queue has begun by now, and what it brings meanwhile is replayed).
    if (answeredEarly && feed.value.messages.length > 0) refreshAfterFirstFrame(mine);
  } catch (err) {
    clearTimeout(holding);
    if (mine !== generation) return;
    feed.value = { ...loading, loading: false, error: (err as Error).message };
  }
}

/** refreshOpenView once the view's first frame is drawn. */
function refreshAfterFirstFrame(mine: number): void {
  requestAnimationFrame(() => setTimeout(() => void refreshOpenView(mine)));
}

/**
 * Fetches a view shown from memory again (the same messages onward, and what came since),
 * keeping the copies that did not change so only changed messages are drawn again.
 */
async function refreshOpenView(mine: number): Promise<void> {
  const shown = feed.value;
  if (mine !== generation || shown.opened !== mine || shown.messages.length === 0) return;
  const first = shown.messages[0].id;
  let answer: MessagesAnswer;
  let replay: FeedChange;
  try {
    [answer, replay] = await fetchMessages(shown.terms, first, 0, shown.messages.length + (shown.foundNewest ? FIRST_BATCH : 0));
  } catch {
    // What is shown stays; the next event or scroll fetches again.
    return;
  }
  const latest = feed.value;
  if (mine !== generation || latest.opened !== mine) return;
  const known = new Map(latest.messages.map((m) => [m.id, m]));
  const same = (a: Message, b: Message) => JSON.stringify(a) === JSON.stringify(b);
  const messages = answer.messages.map((m) => {
    const old = known.get(m.id);
    return old && same(old, m) ? old : m;
  });
  // Older messages fetched by scrolling meanwhile stay, and so do newer ones when the answer
  // reached as far as what was shown: those that arrived live while it was on its way, or a
  // batch fetched at the window's edge meanwhile (which carries on from there).
  const last = messages.at(-1)?.id ?? first;
  messages.unshift(...latest.messages.filter((m) => m.id < first));
  const reachedShown = answer.found_newest || last >= shown.messages[shown.messages.length - 1].id;
  const newer = reachedShown ? latest.messages.filter((m) => m.id > last) : [];
  messages.push(...newer);
  const refreshed = replay({ ...latest, messages, foundNewest: answer.found_newest || (newer.length > 0 && latest.foundNewest) });
  const unchanged = refreshed.messages.length === latest.messages.length && refreshed.messages.every((m, i) => m === latest.messages[i]);
  if (unchanged && latest.foundNewest === refreshed.foundNewest) return;
  feed.value = { ...refreshed, anchorId: null };
}

/** Fetches the view again around the selected message, after the event queue was lost. */
export function reloadFeed(): Promise<void> {
  recentViews.clear();
  dropPrefetched();
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
    const [answer, replay] = await fetchMessages(current.terms, edge, direction < 0 ? BATCH : 0, direction < 0 ? 0 : BATCH);
    if (mine !== generation) return;
    // Only what lies beyond the window's edge as it is now: a refresh answered meanwhile may
    // have brought some of the same messages.
    const latest = feed.value;
    const latestEdge = direction < 0 ? latest.messages[0]?.id : latest.messages.at(-1)?.id;
    const fresh = answer.messages.filter((m) => (latestEdge === undefined ? m.id !== edge : direction < 0 ? m.id < latestEdge : m.id > latestEdge));
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
    feed.value = replay({ ...latest, messages, foundOldest, foundNewest, anchorId: null });
  } finally {
    loadingMore = false;
  }
}

/**
 * Whether a message belongs in a narrow, for messages arriving live; undefined when the client
 * cannot tell (full-text search, `has:`), and such views are not extended live.
 */
export function matchesNarrow(message: Message, terms: NarrowTerm[], self: number): boolean | undefined {
  if (terms.length === 0) return !inMutedTopic(message);
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

function inMutedTopic(message: Message): boolean {
  return message.type === 'stream' && isTopicMuted(message.stream_id ?? 0, message.subject);
}

/** After something was muted: the combined feed, when open, lets go of the messages it no longer shows. */
export function dropMutedFromCombinedFeed(): void {
  changeFeed((view) => {
    if (view.terms.length !== 0) return view;
    const messages = view.messages.filter((m) => !inMutedTopic(m));
    return messages.length === view.messages.length ? view : { ...view, messages };
  });
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
        case 'followed':
          return message.type === 'stream' && topicPolicy(message.stream_id ?? 0, message.subject) === TopicPolicy.followed;
        default:
          return undefined;
      }
    case 'in':
      if (term.operand === 'home') return !inMutedTopic(message);
      return term.operand === 'all' ? true : undefined;
    default:
      return undefined;
  }
}

/** Replaces messages of the view in place (those `change` returns anew). */
export function updateFeedMessages(change: (message: Message) => Message): void {
  changeFeed((view) => {
    let changed = false;
    const messages = view.messages.map((message) => {
      const next = change(message);
      if (next !== message) changed = true;
      return next;
    });
    return changed ? { ...view, messages } : view;
  });
}

/** Takes a message that arrived into the view, in order, when the view reaches the newest messages and the message belongs there. */
export function addArrivedMessage(message: Message, self: number): FeedChange {
  return (view) => {
    if (view.loading || !view.foundNewest || matchesNarrow(message, view.terms, self) !== true || view.messages.some((m) => m.id === message.id)) return view;
    const after = view.messages.findIndex((m) => m.id > message.id);
    const messages = after < 0 ? [...view.messages, message] : [...view.messages.slice(0, after), message, ...view.messages.slice(after)];
    return { ...view, messages };
  };
}

/** Takes deleted messages out of the view. */
export function removeMessages(ids: Set<number>): FeedChange {
  return (view) => (view.messages.some((m) => ids.has(m.id)) ? { ...view, messages: view.messages.filter((m) => !ids.has(m.id)) } : view);
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

/** What the page tells screen readers, politely, about messages arriving in the open view. */
export const arrivals = signal('');
let arrived: Message[] = [];
let arrivalTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Announces a message that arrived in the open view. Arrivals within a second are told as
 * one sentence, so a busy conversation does not flood the reader.
 */
export function announceArrival(message: Message): void {
  arrived.push(message);
  arrivalTimer ??= setTimeout(() => {
    arrivalTimer = undefined;
    const batchArrived = arrived;
    arrived = [];
    if (batchArrived.length === 1) {
      const text = new DOMParser().parseFromString(batchArrived[0].content, 'text/html').body.textContent ?? '';
      arrivals.value = `${batchArrived[0].sender_full_name}: ${text.length > 140 ? `${text.slice(0, 140)}…` : text}`;
    } else {
      const senders = [...new Set(batchArrived.map((m) => m.sender_full_name))];
      const who = senders.length > 3 ? `${senders.slice(0, 3).join(', ')} and others` : senders.join(', ');
      arrivals.value = `${batchArrived.length} new messages from ${who}`;
    }
  }, 1000);
}
