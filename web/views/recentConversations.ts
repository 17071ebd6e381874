import { signal } from '@preact/signals';
import { get } from '../api';
import { dmKeyOf, session, users } from '../state';
import type { Message } from '../types';

/**
 * Recent conversations: every topic and direct-message conversation of the latest messages, by
 * latest activity, with who took part. Fetched when the view first opens; kept current by the
 * event dispatcher (noteRecentMessage) from then on.
 */

export interface RecentConversation {
  /** `s:<channel>:<topic lowercased>` or `d:<dm key>`. */
  key: string;
  channelId?: number;
  topic?: string;
  /** For direct messages: the conversation key (see state.dmKey). */
  dmKey?: string;
  maxId: number;
  timestamp: number;
  /** Senders, the latest first. */
  senders: number[];
  /** Whether the person sent a message here. */
  participated: boolean;
}

/** How many messages the view is made from at a time, as Zulip's fetches. */
const FETCH = 1000;

export const recentConversations = signal<Map<string, RecentConversation> | null>(null);
export const recentLoading = signal(false);
/**
 * How far back the fetched messages reach: the oldest one's ID and time, and whether it is the
 * oldest there is (then there is nothing more to load).
 */
export const recentReach = signal<{ oldestId: number; oldestTimestamp: number; foundOldest: boolean } | null>(null);

/** Senders' names as their messages give them, for those not among the organization's users (system bots). */
const senderNames = new Map<number, string>();

export function senderName(id: number): string {
  return users.value.get(id)?.full_name ?? senderNames.get(id) ?? 'Unknown user';
}

function keyOf(message: Message, self: number): string {
  return message.type === 'stream' ? `s:${message.stream_id}:${message.subject.toLowerCase()}` : `d:${dmKeyOf(message, self)}`;
}

function add(map: Map<string, RecentConversation>, message: Message, self: number): void {
  const key = keyOf(message, self);
  const known = map.get(key);
  if (!users.value.has(message.sender_id)) senderNames.set(message.sender_id, message.sender_full_name);
  const entry: RecentConversation = known ?? {
    key,
    ...(message.type === 'stream' ? { channelId: message.stream_id, topic: message.subject } : { dmKey: dmKeyOf(message, self) }),
    maxId: 0,
    timestamp: 0,
    senders: [],
    participated: false,
  };
  if (message.id > entry.maxId) {
    entry.maxId = message.id;
    entry.timestamp = message.timestamp;
    if (message.type === 'stream') entry.topic = message.subject;
    entry.senders = [message.sender_id, ...entry.senders.filter((id) => id !== message.sender_id)];
  } else if (!entry.senders.includes(message.sender_id)) entry.senders.push(message.sender_id);
  if (message.sender_id === self) entry.participated = true;
  map.set(key, entry);
}

interface MessagesAnswer {
  messages: Message[];
  found_oldest: boolean;
}

/** A batch of messages older than `before` (or the latest), muted ones too: a filter shows them. */
async function fetchBatch(before: number | 'newest'): Promise<MessagesAnswer> {
  return get<MessagesAnswer>('/json/messages', {
    anchor: before,
    include_anchor: before === 'newest',
    num_before: FETCH,
    num_after: 0,
    narrow: [],
    apply_markdown: false,
    client_gravatar: false,
  });
}

/** Adds a batch to `map` and notes how far back the view now reaches. */
function takeBatch(map: Map<string, RecentConversation>, answer: MessagesAnswer): void {
  const self = session.value?.user_id ?? 0;
  for (const message of answer.messages) add(map, message, self);
  const oldest = answer.messages[0];
  const before = recentReach.value;
  recentReach.value = {
    oldestId: oldest?.id ?? before?.oldestId ?? 0,
    oldestTimestamp: oldest?.timestamp ?? before?.oldestTimestamp ?? 0,
    foundOldest: answer.found_oldest || answer.messages.length === 0,
  };
}

/** Fetches the latest messages and groups them by conversation. */
export async function loadRecent(): Promise<void> {
  if (recentLoading.value) return;
  recentLoading.value = true;
  try {
    const answer = await fetchBatch('newest');
    const map = new Map<string, RecentConversation>();
    recentReach.value = null;
    takeBatch(map, answer);
    recentConversations.value = map;
  } finally {
    recentLoading.value = false;
  }
}

/** Fetches the batch of messages before the oldest fetched: older conversations join the list. */
export async function loadOlderRecent(): Promise<void> {
  const reach = recentReach.value;
  const current = recentConversations.value;
  if (recentLoading.value || !reach || reach.foundOldest || !current) return;
  recentLoading.value = true;
  try {
    const answer = await fetchBatch(reach.oldestId);
    // Entries are copied: the ones drawn now must not change under the list.
    const map = new Map([...current].map(([key, entry]) => [key, { ...entry, senders: [...entry.senders] }]));
    takeBatch(map, answer);
    recentConversations.value = map;
  } finally {
    recentLoading.value = false;
  }
}

/** A message that arrived: its conversation moves to the top. */
export function noteRecentMessage(message: Message): void {
  const current = recentConversations.value;
  if (!current) return;
  const next = new Map(current);
  const key = keyOf(message, session.value?.user_id ?? 0);
  const known = next.get(key);
  if (known) next.set(key, { ...known, senders: [...known.senders] });
  add(next, message, session.value?.user_id ?? 0);
  recentConversations.value = next;
}

/** Messages moved or deleted: the list is made again when next shown. */
export function forgetRecent(): void {
  if (recentConversations.value) void loadRecent().catch(() => undefined);
}
