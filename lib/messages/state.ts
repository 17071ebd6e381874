import type { StateContext } from '../events/state-context';
import { topicKey, VisibilityPolicy } from '../user-topics/queries';
import { otherParticipants } from './flag-actions';
import { Flag } from './flags';
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

/** `unread_msgs`, sent when the client wants both `message` and `update_message_flags`. */
export function unreadMessagesState(context: StateContext): Record<string, unknown> {
  if (!wanted(context, 'message')) return {};
  const { stoa, user, queue } = context;
  const rows = stoa.messages.unreadRows(user.id, MAX_UNREAD_MESSAGES).reverse();
  const subscriptions = new Map(stoa.channels.subscriptionsOf(user.id).map((s) => [s.recipient_id, s]));
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  let count = 0;
  // Many unreads share a conversation: look each one up once, and the user's topic settings
  // all at once rather than one query a topic.
  const participants = new Map<number, number[]>();
  const mutedTopics = new Map<string, boolean>();
  const policies = new Map(stoa.userTopics.forUser(user.id).map((t) => [`${t.stream_id}\n${t.topic_key}`, t.visibility_policy]));
  for (const [messageId, flags, recipientId, streamId, topic] of rows) {
    const mentioned = (flags & Flag.mentioned) !== 0;
    const wildcard = (flags & (Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned)) !== 0;
    if (streamId === null) {
      count++;
      if (mentioned || wildcard) mentions.push(messageId);
      let others = participants.get(recipientId);
      if (!others) participants.set(recipientId, (others = otherParticipants(stoa, user.id, recipientId)));
      if (others.length <= 1) {
        const other = others[0] ?? user.id;
        const ids = pms.get(other);
        if (ids) ids.push(messageId);
        else pms.set(other, [messageId]);
      } else {
        const key = [user.id, ...others].sort((a, b) => a - b).join(',');
        const ids = huddles.get(key);
        if (ids) ids.push(messageId);
        else huddles.set(key, [messageId]);
      }
      continue;
    }
    const subscription = subscriptions.get(recipientId);
    if (subscription?.active !== 1) continue; // channels the user left keep no unreads
    const key = `${streamId}\n${topicKey(topic)}`;
    let muted = mutedTopics.get(key);
    if (muted === undefined) {
      muted = topicMuted(policies, key, subscription.is_muted === 1);
      mutedTopics.set(key, muted);
    }
    if (!muted) count++;
    if (mentioned || (wildcard && !muted)) mentions.push(messageId);
    let bucket = streams.get(key);
    if (!bucket) {
      bucket = { stream_id: streamId, topic: displayTopic(topic, queue.capabilities.empty_topic_name), unread_message_ids: [] };
      streams.set(key, bucket);
    }
    bucket.unread_message_ids.push(messageId);
  }
  return {
    unread_msgs: {
      count,
      pms: [...pms]
        .sort(([a], [b]) => a - b)
        .map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
      streams: [...streams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, bucket]) => bucket),
      huddles: [...huddles]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
      mentions,
      old_unreads_missing: rows.length === MAX_UNREAD_MESSAGES,
    },
  };
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
