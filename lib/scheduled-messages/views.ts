import { clientName, defaultReadBySender } from '../http/client-name';
import { endpoint, NO_PARAMS } from '../http/endpoint';
import { ApiError, badRequest } from '../http/errors';
import type { ParamSchema } from '../http/validate';
import { topicParticipants, type Addressee } from '../messages/actions';
import { checkMentionPermissions, checkTopicPolicy, normalizeContent, normalizeTopic } from '../messages/addressing';
import { renderContent } from '../messages/render';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { deleteScheduledMessage, editScheduledMessage, scheduleMessage } from './actions';
import { checkedAddressee, scheduledTo } from './addressee';
import { presentScheduledMessage } from './present';
import type { ScheduledFields, ScheduledMessageRow, ScheduledType } from './queries';

/** The last moment a timestamp may name (the end of year 9999, as Python's datetime allows). */
const MAX_TIMESTAMP = 253402300799;

type TypeParam = 'direct' | 'channel' | 'stream' | 'private';

/** What creating and editing a scheduled message both take (an edit, each of them optionally). */
const MESSAGE_PARAMS: Record<string, ParamSchema> = {
  // "channel" and "direct" are the modern names of "stream" and "private".
  type: { type: 'string', enum: ['direct', 'channel', 'stream', 'private'] },
  // A channel ID, or a list of user IDs: decoded as JSON.
  to: {},
  topic: { type: 'string' },
  // The legacy name of the topic.
  subject: { type: 'string' },
  content: { type: 'string' },
  scheduled_delivery_timestamp: { type: 'integer' },
  client: { type: 'string' },
};

function storedType(type: TypeParam): ScheduledType {
  return type === 'channel' || type === 'stream' ? 'stream' : 'private';
}

function scheduledMessageDoesNotExist(): ApiError {
  return new ApiError('BAD_REQUEST', 'Scheduled message does not exist', 404);
}

function notInFuture(): ApiError {
  return badRequest('Scheduled delivery time must be in the future.');
}

/** A delivery time must be later than now, and one a date can name (scheduled messages and reminders alike). */
export function checkDeliveryTime(stoa: Stoa, timestamp: number): number {
  if (timestamp * 1000 <= stoa.clock.now()) throw notInFuture();
  if (timestamp > MAX_TIMESTAMP) throw badRequest('scheduled_delivery_timestamp is too large');
  return timestamp;
}

/**
 * The IDs `to` names: a channel message names one channel by ID; a direct message lists
 * user IDs (JSON-decoded by the parameter parser).
 */
function parseTo(type: ScheduledType, to: unknown): number[] {
  if (type === 'stream') {
    if (typeof to !== 'number' || !Number.isInteger(to)) throw badRequest('Invalid data type for channel ID');
    return [to];
  }
  if (!Array.isArray(to)) throw badRequest('Invalid data type for recipients');
  if (to.some((id) => typeof id !== 'number' || !Number.isInteger(id))) {
    throw badRequest('Recipient list may only contain user IDs');
  }
  return [...new Set(to as number[])];
}

interface Draft {
  type: ScheduledType;
  to: number[];
  /** Undefined when the client gave none; required for channel messages. */
  topic: string | undefined;
  content: string;
}

/**
 * Checks a message to schedule as sending it now would be checked (the addressee, the
 * sender's permissions, the content and its mentions) and renders it, as Zulip does: the
 * rendering is what clients show until it is sent, when it is rendered again.
 */
function checkedMessage(stoa: Stoa, sender: UserRow, draft: Draft, client: string, timestamp: number): {
  fields: ScheduledFields;
  addressee: Addressee;
} {
  if (draft.type === 'stream' && draft.topic === undefined) throw badRequest('Missing topic');
  const content = normalizeContent(draft.content);
  const topic = draft.type === 'stream' ? normalizeTopic(draft.topic!) : '';
  const addressee = checkedAddressee(stoa, sender, draft.type, draft.to, topic);
  const rendered = renderContent(stoa, sender, content, []);
  const channel = addressee.type === 'channel' ? addressee.channel : undefined;
  checkMentionPermissions(stoa, sender, sender, rendered, channel, () =>
    channel ? topicParticipants(stoa, channel.recipient_id, topic, sender.id).size : 0,
  );
  return {
    addressee,
    fields: {
      type: draft.type,
      to: scheduledTo(addressee),
      topic,
      content,
      renderedContent: rendered.html,
      sendingClient: client,
      scheduledTimestamp: timestamp,
    },
  };
}

export const getScheduledMessages = endpoint({
  params: NO_PARAMS,
  view: ({ stoa, user }) => ({ scheduled_messages: stoa.scheduledMessages.pendingOf(user.id).map(presentScheduledMessage) }),
});

interface CreateParams {
  type: TypeParam;
  to: unknown;
  topic?: string;
  subject?: string;
  content: string;
  scheduled_delivery_timestamp: number;
  read_by_sender?: boolean;
  client?: string;
}

export const createScheduledMessageView = endpoint<CreateParams>({
  params: {
    properties: { ...MESSAGE_PARAMS, read_by_sender: { type: 'boolean' } },
    required: ['type', 'to', 'content', 'scheduled_delivery_timestamp'],
  },
  view: ({ stoa, user, params, req }) => {
    const timestamp = checkDeliveryTime(stoa, params.scheduled_delivery_timestamp);
    const type = storedType(params.type);
    const client = clientName(req, params.client);
    const { fields, addressee } = checkedMessage(
      stoa,
      user,
      { type, to: parseTo(type, params.to), topic: params.topic ?? params.subject, content: params.content },
      client,
      timestamp,
    );
    // As Zulip guesses: read when sent from an interactive app, except a note to self, which
    // is meant to come back as a reminder.
    const noteToSelf = addressee.type === 'direct' && addressee.users.every((person) => person.id === user.id);
    const readBySender = params.read_by_sender ?? (defaultReadBySender(client) && !noteToSelf);
    return { scheduled_message_id: scheduleMessage(stoa, user.id, fields, readBySender) };
  },
});

/** Zulip's routes take only digits here; anything else is no such page. */
const SCHEDULED_MESSAGE_ID = { scheduled_message_id: /^\d+$/ };

function requireScheduledMessage(stoa: Stoa, user: UserRow, id: number): ScheduledMessageRow {
  const row = stoa.scheduledMessages.get(user.id, id);
  if (!row) throw scheduledMessageDoesNotExist();
  return row;
}

interface EditParams {
  scheduled_message_id: number;
  type?: TypeParam;
  to?: unknown;
  topic?: string;
  subject?: string;
  content?: string;
  scheduled_delivery_timestamp?: number;
  client?: string;
}

export const editScheduledMessageView = endpoint<EditParams>({
  pathPatterns: SCHEDULED_MESSAGE_ID,
  params: { properties: { scheduled_message_id: { type: 'integer' }, ...MESSAGE_PARAMS } },
  view: ({ stoa, user, params, req }) => {
    const topic = params.topic ?? params.subject;
    const { type: newType, to, content, scheduled_delivery_timestamp: newTimestamp } = params;
    if (newType === undefined && to === undefined && topic === undefined && content === undefined && newTimestamp === undefined) {
      throw badRequest('Nothing to change');
    }
    if (newType !== undefined && to === undefined) {
      throw badRequest('Recipient required when updating type of scheduled message.');
    }
    if (newType !== undefined && storedType(newType) === 'stream' && topic === undefined) {
      throw badRequest('Topic required when updating scheduled message type to channel.');
    }
    if (newTimestamp !== undefined) checkDeliveryTime(stoa, newTimestamp);

    const row = requireScheduledMessage(stoa, user, params.scheduled_message_id);
    if (row.delivered) throw badRequest('Scheduled message was already sent');
    // One that could not be sent is tried again only at a new time.
    if (row.failed && newTimestamp === undefined) throw notInFuture();

    const client = clientName(req, params.client);
    const timestamp = newTimestamp ?? row.scheduled_timestamp;
    let fields: ScheduledFields;
    if (newType !== undefined || to !== undefined || content !== undefined) {
      // A new addressee or content is checked as a new message would be.
      const type = newType === undefined ? row.type : storedType(newType);
      const draft: Draft = {
        type,
        to: to === undefined ? (JSON.parse(row.to_ids) as number[]) : parseTo(type, to),
        topic: topic ?? (row.type === 'stream' ? row.topic : undefined),
        content: content ?? row.content,
      };
      fields = checkedMessage(stoa, user, draft, client, timestamp).fields;
    } else {
      // A direct message has no topic: a new one is ignored. A channel's new topic must
      // suit the channel's topic rule; the rest was checked when it was last addressed.
      let newTopic = row.topic;
      if (topic !== undefined && row.type === 'stream') {
        newTopic = normalizeTopic(topic);
        const [channelId] = JSON.parse(row.to_ids) as number[];
        checkTopicPolicy(stoa, stoa.channels.byId(channelId)!, newTopic);
      }
      fields = {
        type: row.type,
        to: JSON.parse(row.to_ids) as number[],
        topic: newTopic,
        content: row.content,
        renderedContent: row.rendered_content,
        sendingClient: client,
        scheduledTimestamp: timestamp,
      };
    }
    editScheduledMessage(stoa, user.id, row.id, fields);
    return {};
  },
});

export const deleteScheduledMessageView = endpoint<{ scheduled_message_id: number }>({
  pathPatterns: SCHEDULED_MESSAGE_ID,
  params: { properties: { scheduled_message_id: { type: 'integer' } } },
  view: ({ stoa, user, params }) => {
    requireScheduledMessage(stoa, user, params.scheduled_message_id);
    deleteScheduledMessage(stoa, user.id, params.scheduled_message_id);
    return {};
  },
});
