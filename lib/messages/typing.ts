import { accessChannelById } from '../channels/access';
import { perShape, type EventQueue } from '../events/queues';
import { sendEvent } from '../events/send';
import { endpoint } from '../http/endpoint';
import { badRequest } from '../http/errors';
import type { Stoa } from '../stoa';
import { userSettings } from '../users/settings-store';
import { accessMessage } from './access';
import { checkCanPost, normalizeTopic } from './addressing';
import { checkCanEditContent } from './edit';
import { displayTopic } from './topics';

/** Channels bigger than this get no typing notifications: too many clients to tell. */
const MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS = 100;

/** Users who want to hear that others are typing. */
function listeners(stoa: Stoa, userIds: readonly number[]): number[] {
  return userIds.filter((id) => {
    const user = stoa.users.byId(id);
    return user?.is_active === 1 && userSettings(stoa, user).receives_typing_notifications === true;
  });
}

interface TypingParams {
  op: 'start' | 'stop';
  type: 'direct' | 'stream' | 'channel';
  to?: number[];
  stream_id?: number;
  topic?: string;
}

/**
 * POST /typing. Typing is not stored: each call is one event, sent at once to the
 * conversation's other clients that want it.
 */
export const setTypingStatus = endpoint<TypingParams>({
  params: {
    properties: {
      op: { type: 'string', enum: ['start', 'stop'] },
      type: { type: 'string', enum: ['direct', 'stream', 'channel'], default: 'direct' },
      to: { type: 'array', items: { type: 'integer' } },
      stream_id: { type: 'integer' },
      topic: { type: 'string' },
    },
    required: ['op'],
  },
  view: ({ stoa, user, params }) => {
    const sender = { user_id: user.id, email: user.email };
    if (params.type === 'direct') {
      if (params.to === undefined) throw badRequest("Missing 'to' argument");
      if (params.to.length === 0) throw badRequest("Empty 'to' list");
      if (userSettings(stoa, user).send_private_typing_notifications !== true) {
        throw badRequest('User has disabled typing notifications for direct messages');
      }
      const ids = params.to.includes(user.id) ? [...params.to] : [...params.to, user.id];
      const recipients = ids.map((id) => {
        const recipient = stoa.users.byId(id);
        if (!recipient) throw badRequest(`Invalid user ID ${id}`);
        return { user_id: recipient.id, email: recipient.email };
      });
      const event = { type: 'typing', op: params.op, message_type: 'direct', sender, recipients };
      sendEvent(stoa, event, listeners(stoa, [...new Set(ids)]));
      return {};
    }
    if (params.stream_id === undefined) throw badRequest('Missing channel ID');
    if (params.topic === undefined) throw badRequest('Missing topic');
    if (userSettings(stoa, user).send_stream_typing_notifications !== true) {
      throw badRequest('User has disabled typing notifications for channel messages');
    }
    const channel = accessChannelById(stoa, user, params.stream_id, { need: 'content' });
    checkCanPost(stoa, user, channel);
    const topic = normalizeTopic(params.topic);
    const subscribers = stoa.channels.subscriberIds(channel.recipient_id);
    if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS) return {};
    const event = { type: 'typing', op: params.op, message_type: 'stream', sender, stream_id: channel.id, topic };
    // Only clients that said they show channel typing get it.
    const forCapableQueues = (queue: EventQueue) => (queue.settings.capabilities.stream_typing_notifications ? event : null);
    sendEvent(stoa, forCapableQueues, listeners(stoa, subscribers));
    return {};
  },
});


/**
 * POST /messages/{message_id}/typing: the sender is editing the message. Only someone who may
 * edit its content now may say so; everyone who would see the edit and wants typing notices
 * hears it (the conversation's people, or the channel's subscribers), the editor included.
 */
export const setEditingStatus = endpoint<{ message_id: number; op: 'start' | 'stop' }>({
  params: {
    properties: { message_id: { type: 'integer' }, op: { type: 'string', enum: ['start', 'stop'] } },
    required: ['message_id', 'op'],
  },
  pathPatterns: { message_id: /^\d+$/ },
  view: ({ stoa, user, params }) => {
    const { row } = accessMessage(stoa, user, params.message_id, { modifying: true });
    checkCanEditContent(stoa, user, row, 0);
    const base = { type: 'typing_edit_message', op: params.op, sender_id: user.id, message_id: row.id };
    if (row.stream_id === null) {
      if (userSettings(stoa, user).send_private_typing_notifications !== true) {
        throw badRequest('User has disabled typing notifications for direct messages');
      }
      const audience = listeners(stoa, [...new Set(stoa.messages.holderIds(row.id))]);
      sendEvent(stoa, { ...base, recipient: { type: 'direct', user_ids: audience } }, audience);
      return {};
    }
    if (userSettings(stoa, user).send_stream_typing_notifications !== true) {
      throw badRequest('User has disabled typing notifications for channel messages');
    }
    const subscribers = stoa.channels.subscriberIds(stoa.channels.byId(row.stream_id)!.recipient_id);
    if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS) return {};
    const event = perShape(
      (queue) => String(queue.settings.capabilities.empty_topic_name),
      (queue) => ({
        ...base,
        recipient: { type: 'channel', channel_id: row.stream_id, topic: displayTopic(row.topic, queue.settings.capabilities.empty_topic_name) },
      }),
    );
    sendEvent(stoa, event, listeners(stoa, subscribers));
    return {};
  },
});
