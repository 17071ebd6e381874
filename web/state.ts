import { computed, signal } from '@preact/signals';
import type { Channel, Draft, Message, RealmEmoji, Subscription, User, UserGroup } from './types';

/** The app's state, as signals the components read; the event loop (live.ts) keeps it current. */

export interface Session {
  user_id: number;
  email: string;
  /** False for an account made without a password, which sets its first one without an old one. */
  hasPassword: boolean;
}

export const session = signal<Session | null>(null);

export interface RealmInfo {
  name: string;
  emojiDataUrl: string | undefined;
  maxFileUploadMib: number;
  /** The longest message the server takes, in characters (`max_message_length`). */
  maxMessageLength: number;
  isAdmin: boolean;
  isOwner: boolean;
  /** The server's API feature level (`zulip_feature_level`). */
  featureLevel: number;
}

export const realm = signal<RealmInfo>({ name: 'Stoa', emojiDataUrl: undefined, maxFileUploadMib: 25, maxMessageLength: 10000, isAdmin: false, isOwner: false, featureLevel: 0 });
export const users = signal<Map<number, User>>(new Map());
export const subscriptions = signal<Map<number, Subscription>>(new Map());
/** The subscribed channels in the sidebar's order: pinned first, then by name. */
export function channelsInSidebarOrder(): Subscription[] {
  return [...subscriptions.value.values()].sort((a, b) => Number(Boolean(b.pin_to_top)) - Number(Boolean(a.pin_to_top)) || a.name.localeCompare(b.name));
}
/** Every channel the user can see, subscribed or not. */
export const channels = signal<Map<number, Channel>>(new Map());
export const realmEmoji = signal<Map<string, RealmEmoji>>(new Map());
/** The organization's user groups, by ID (system groups too; they are not offered for mentions). */
export const userGroups = signal<Map<number, UserGroup>>(new Map());

/** Where an unread message is, so counts can be made per channel, topic and conversation. */
export type UnreadPlace = { kind: 'channel'; channelId: number; topic: string } | { kind: 'dm'; key: string };
export const unread = signal<Map<number, UnreadPlace>>(new Map());
export const unreadMentions = signal<Set<number>>(new Set());

/** Last activity per user, in seconds since the epoch. */
export const presences = signal<Map<number, { active: number; idle: number }>>(new Map());

export interface DmConversation {
  /** The other people's IDs, sorted; empty for notes to self. */
  userIds: number[];
  maxMessageId: number;
}
export const recentDms = signal<DmConversation[]>([]);

/** Topics of channels whose topic list was fetched, newest first. */
export const topics = signal<Map<number, Array<{ name: string; maxId: number }>>>(new Map());

/** Who is typing where: a conversation key (see typingKey) -> user IDs. */
export const typing = signal<Map<string, number[]>>(new Map());

/** The person's settings as `user_settings` gives them, kept current by its events. */
export const userSettings = signal<Record<string, unknown>>({});

export type Theme = 'auto' | 'light' | 'dark';
export const theme = signal<Theme>((localStorage.getItem('stoa-theme') as Theme | null) ?? 'auto');

/** Whether the event queue is connected; false while reconnecting. */
export const connected = signal(true);

/** Messages being sent, shown until the server's copy arrives. */
export const localEchoes = signal<Message[]>([]);

/** A conversation key for direct messages: the other people's IDs, sorted; the user's own for notes to self. */
export function dmKey(userIds: number[], self: number): string {
  const others = [...new Set(userIds)].filter((id) => id !== self).sort((a, b) => a - b);
  return others.length === 0 ? String(self) : others.join(',');
}

export function dmKeyOf(message: Message, self: number): string {
  const recipients = Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id) : [];
  return dmKey(recipients, self);
}

export function placeOf(message: Message, self: number): UnreadPlace {
  return message.type === 'stream'
    ? { kind: 'channel', channelId: message.stream_id ?? 0, topic: message.subject }
    : { kind: 'dm', key: dmKeyOf(message, self) };
}

export function topicKey(channelId: number, topic: string): string {
  return `${channelId}\u0000${topic.toLowerCase()}`;
}

/** The person's drafts, kept on the server, by ID. */
export const drafts = signal<Map<number, Draft>>(new Map());

/** Zulip's visibility policies of a topic for one person (`user_topics`). */
export const TopicPolicy = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

/** The person's visibility policy of each topic that has one, by topicKey; the rest inherit. */
export const topicPolicies = signal<Map<string, number>>(new Map());

/**
 * Whether a topic is muted for the person, as Zulip decides: muted by its own policy, or in a
 * muted channel unless the topic was unmuted or followed there.
 */
export function topicPolicy(channelId: number, topic: string): number {
  return topicPolicies.value.get(topicKey(channelId, topic)) ?? TopicPolicy.inherit;
}

export function isTopicMuted(channelId: number, topic: string): boolean {
  const policy = topicPolicy(channelId, topic);
  if (policy === TopicPolicy.muted) return true;
  if (policy === TopicPolicy.unmuted || policy === TopicPolicy.followed) return false;
  return Boolean(subscriptions.value.get(channelId)?.is_muted);
}

export interface UnreadCounts {
  total: number;
  channels: Map<number, number>;
  topics: Map<string, number>;
  dms: Map<string, number>;
  dmTotal: number;
  mentions: number;
}

export const unreadCounts = computed<UnreadCounts>(() => {
  const counts: UnreadCounts = { total: 0, channels: new Map(), topics: new Map(), dms: new Map(), dmTotal: 0, mentions: unreadMentions.value.size };
  const subs = subscriptions.value;
  // Many unread messages share a topic: its key and muting are worked out once per topic
  // (with ten thousand unread messages, once per message was a good part of a frame).
  const topicsSeen = new Map<string, { key: string; muted: boolean }>();
  for (const place of unread.value.values()) {
    if (place.kind === 'channel') {
      if (!subs.has(place.channelId)) continue;
      const exact = `${place.channelId}\u0000${place.topic}`;
      let topic = topicsSeen.get(exact);
      if (!topic) topicsSeen.set(exact, (topic = { key: topicKey(place.channelId, place.topic), muted: isTopicMuted(place.channelId, place.topic) }));
      const key = topic.key;
      counts.topics.set(key, (counts.topics.get(key) ?? 0) + 1);
      // A muted topic keeps its own count but adds nothing to its channel's or the total.
      if (topic.muted) continue;
      counts.channels.set(place.channelId, (counts.channels.get(place.channelId) ?? 0) + 1);
    } else {
      counts.dms.set(place.key, (counts.dms.get(place.key) ?? 0) + 1);
      counts.dmTotal++;
    }
    counts.total++;
  }
  return counts;
});

export function userName(id: number): string {
  return users.value.get(id)?.full_name ?? 'Unknown user';
}

export function channelName(id: number): string | undefined {
  return subscriptions.value.get(id)?.name ?? channels.value.get(id)?.name;
}

export function channelByName(name: string): Channel | Subscription | undefined {
  const lower = name.toLowerCase();
  for (const sub of subscriptions.value.values()) if (sub.name.toLowerCase() === lower) return sub;
  for (const channel of channels.value.values()) if (channel.name.toLowerCase() === lower) return channel;
  return undefined;
}

export function userByEmail(email: string): User | undefined {
  const lower = email.toLowerCase();
  for (const user of users.value.values()) if (user.email.toLowerCase() === lower) return user;
  return undefined;
}

/** Presence as shown: active within the last 140 seconds, idle, or offline. */
export function presenceOf(userId: number, now = Date.now() / 1000): 'active' | 'idle' | 'offline' {
  const presence = presences.value.get(userId);
  if (!presence) return 'offline';
  if (now - presence.active < 140) return 'active';
  if (now - presence.idle < 140) return 'idle';
  return 'offline';
}

/** An immutable update of a Map signal. */
export function updateMap<K, V>(target: { value: Map<K, V> }, change: (copy: Map<K, V>) => void): void {
  const copy = new Map(target.value);
  change(copy);
  target.value = copy;
}
