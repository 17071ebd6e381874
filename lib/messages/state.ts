import type { StateContext } from '../events/state-context';
import { JsonText } from '../http/json';
import { VisibilityPolicy } from '../user-topics/queries';
import { otherParticipants } from './flag-actions';
import { displayTopic } from './topics';

/** Zulip sends at most this many unread messages at registration, newest first. */
const MAX_UNREAD_MESSAGES = 50_000;
const MAX_STARRED_MESSAGES = 10_000;
/** Recent direct conversations are found among this many newest direct messages. */
const RECENT_DIRECT_MESSAGES_WINDOW = 1000;

function wanted(context: StateContext, type: string): boolean {
  const { params } = context;
  const types = params.fetch_event_types !== undefined ? params.fetch_event_types : params.event_types;
  return types === null || types.includes(type);
}

/** Register state for fetch type `message`: the newest message the user has. */
export function messageState({ stoa, user }: StateContext): Record<string, unknown> {
  return { max_message_id: stoa.messages.maxIdOf(user.id) ?? -1 };
}

/**
 * Whether a channel topic is muted for the user, counting the channel's own muting. `policies`
 * holds the user's topic settings by channel and lowercased topic.
 */
function topicMuted(policies: ReadonlyMap<string, number>, key: string, channelMuted: boolean): boolean {
  const policy = policies.get(key);
  if (policy === VisibilityPolicy.MUTED) return true;
  return channelMuted && policy !== VisibilityPolicy.UNMUTED && policy !== VisibilityPolicy.FOLLOWED;
}

/**
 * Adds a conversation's unread IDs (comma-separated, oldest first) under its key. Two
 * conversations meet under one key only in unusual data (two recipients for the same people):
 * their IDs are then put in order together.
 */
function addIds<K>(byKey: Map<K, string>, key: K, ids: string): void {
  const already = byKey.get(key);
  if (already === undefined) byKey.set(key, ids);
  else byKey.set(key, idsInOrder(`${already},${ids}`));
}

function idsInOrder(ids: string): string {
  return ids
    .split(',')
    .map(Number)
    .sort((a, b) => a - b)
    .join(',');
}

const byKey = <V>([a]: [string, V], [b]: [string, V]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `unread_msgs`, sent when the client wants both `message` and `update_message_flags`: written
 * as JSON text from the user's unreads grouped by conversation, with the keys in the order the
 * API documents and the IDs oldest first.
 */
export function unreadMessagesState(context: StateContext): Record<string, unknown> {
  if (!wanted(context, 'message')) return {};
  const { stoa, user, queue } = context;
  const groups = stoa.messages.unreadGroups(user.id, MAX_UNREAD_MESSAGES);
  const subscriptions = new Map(stoa.channels.subscriptionsOf(user.id).map((s) => [s.recipient_id, s]));
  const policies = new Map(stoa.userTopics.forUser(user.id).map((t) => [`${t.stream_id}\n${t.topic_key}`, t.visibility_policy]));
  const pms = new Map<number, string>();
  const huddles = new Map<string, string>();
  const streams = new Map<string, string>();
  let mentions = '';
  let count = 0;
  let listed = 0; // unreads read from the database, counted towards the limit
  for (const [recipientId, streamId, key, topic, unread, ids, mentioned, wildcard] of groups) {
    listed += unread;
    if (streamId === null) {
      count += unread;
      if (mentioned !== null) mentions += `,${mentioned}`;
      if (wildcard !== null) mentions += `,${wildcard}`;
      const others = otherParticipants(stoa, user.id, recipientId);
      if (others.length <= 1) addIds(pms, others[0] ?? user.id, ids);
      else addIds(huddles, [user.id, ...others].sort((a, b) => a - b).join(','), ids);
      continue;
    }
    const subscription = subscriptions.get(recipientId);
    if (subscription?.active !== 1) continue; // channels the user left keep no unreads
    const streamKey = `${streamId}\n${key}`;
    const muted = topicMuted(policies, streamKey, subscription.is_muted === 1);
    if (!muted) count += unread;
    if (mentioned !== null) mentions += `,${mentioned}`;
    if (wildcard !== null && !muted) mentions += `,${wildcard}`;
    const shown = JSON.stringify(displayTopic(topic, queue.capabilities.empty_topic_name));
    streams.set(streamKey, `{"stream_id":${streamId},"topic":${shown},"unread_message_ids":[${ids}]}`);
  }
  const pmsText = [...pms]
    .sort(([a], [b]) => a - b)
    .map(([other, ids]) => `{"other_user_id":${other},"sender_id":${other},"unread_message_ids":[${ids}]}`);
  const streamsText = [...streams].sort(byKey).map(([, text]) => text);
  const huddlesText = [...huddles].sort(byKey).map(([key, ids]) => `{"user_ids_string":"${key}","unread_message_ids":[${ids}]}`);
  const text =
    `{"count":${count},"pms":[${pmsText.join(',')}],"streams":[${streamsText.join(',')}],"huddles":[${huddlesText.join(',')}],` +
    `"mentions":[${mentions === '' ? '' : idsInOrder(mentions.slice(1))}],"old_unreads_missing":${listed === MAX_UNREAD_MESSAGES}}`;
  return { unread_msgs: new JsonText(text) };
}

export function starredMessagesState({ stoa, user }: StateContext): Record<string, unknown> {
  return { starred_messages: stoa.messages.starredIds(user.id, MAX_STARRED_MESSAGES) };
}

export function recentPrivateConversationsState({ stoa, user }: StateContext): Record<string, unknown> {
  return {
    recent_private_conversations: stoa.messages.recentDirect(user.id, RECENT_DIRECT_MESSAGES_WINDOW).map((row) => ({
      max_message_id: row.max_id,
      user_ids: otherParticipants(stoa, user.id, row.recipient_id).sort((a, b) => a - b),
    })),
  };
}
