import { reactionTypeNamesFor } from '../emoji/choice';
import { clientName, defaultReadBySender } from '../http/client-name';
import { endpoint, spectatorEndpoint } from '../http/endpoint';
import { badRequest, missingArgument, unauthorized } from '../http/errors';
import { escapeHtml } from '../markdown/render';
import type { Stoa } from '../stoa';
import type { ChannelRow } from '../channels/queries';
import type { UserRow } from '../users/queries';
import { accessChannelById, checkSpectatorAccess, invalidChannelId, isSpectatorReadable } from '../channels/access';
import { topicKey } from '../user-topics/queries';
import { accessMessage, canReadChannelHistory } from './access';
import { sendMessage, type Addressee } from './actions';
import {
  channelForSend,
  checkCanCreateTopic,
  checkCanPost,
  checkCanSendDirect,
  checkTopicPolicy,
  directRecipients,
  MAX_MESSAGE_LENGTH,
  normalizeContent,
  normalizeTopic,
} from './addressing';
import { fetchByIds, fetchRange, ownMatchesByIds, RANGE_PARAMS, resolveAnchor } from './fetch';
import { highlightContent, highlightTopic } from './highlight';
import { compileNarrow, compileSpectatorNarrow, NARROW_PARAM, normalizeNarrow, REQUIRED_NARROW_PARAM, type RawNarrowTerm } from './narrow';
import { Flag } from './flags';
import { MessagePresenter, type MessageView } from './present';
import type { MessageRow } from './queries';
import { renderContent } from './render';
import { parseWidgetContent } from './widgets';
import { displayTopic } from './topics';

/** The most messages one GET /messages may ask for. */
const MAX_MESSAGES_PER_FETCH = 5000;

function tooManyMessages() {
  return badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
}


interface SendParams {
  type: 'stream' | 'channel' | 'private' | 'direct';
  to?: unknown;
  topic?: string;
  subject?: string;
  content: string;
  queue_id?: string;
  local_id?: string;
  read_by_sender?: boolean;
  client?: string;
  widget_content?: string;
}

export const sendMessageView = endpoint<SendParams>({
  params: {
    properties: {
      type: { type: 'string', enum: ['stream', 'channel', 'private', 'direct'] },
      // A channel ID or name, or user IDs or emails: decoded as JSON where it parses.
      to: {},
      topic: { type: 'string' },
      subject: { type: 'string' },
      content: { type: 'string' },
      queue_id: { type: 'string' },
      local_id: { type: 'string' },
      read_by_sender: { type: 'boolean' },
      client: { type: 'string' },
      widget_content: { type: 'string' },
    },
    required: ['type', 'content'],
  },
  view: ({ stoa, user, params, req }) => {
    const client = clientName(req, params.client);
    let addressee: Addressee;
    if (params.type === 'stream' || params.type === 'channel') {
      if (params.to === undefined || params.to === '') throw badRequest('Missing channel');
      const rawTopic = params.topic ?? params.subject;
      if (rawTopic === undefined) throw badRequest('Missing topic');
      const topic = normalizeTopic(rawTopic);
      const content = normalizeContent(params.content);
      const channel = channelForSend(stoa, params.to);
      checkCanPost(stoa, user, channel);
      checkTopicPolicy(stoa, channel, topic);
      checkCanCreateTopic(stoa, user, channel, topic);
      addressee = { type: 'channel', channel, topic };
      return { id: send(stoa, user, addressee, content, params, client) };
    }
    const recipients = directRecipients(stoa, params.to ?? []);
    const content = normalizeContent(params.content);
    addressee = { type: 'direct', users: recipients };
    return { id: send(stoa, user, addressee, content, params, client) };
  },
});

function send(stoa: Stoa, user: UserRow, addressee: Addressee, content: string, params: SendParams, client: string): number {
  if (addressee.type === 'direct') checkCanSendDirect(stoa, user, addressee.users);
  const widget = params.widget_content === undefined ? undefined : parseWidgetContent(params.widget_content);
  return sendMessage(stoa, user, addressee, content, {
    widget,
    client,
    readBySender: params.read_by_sender ?? defaultReadBySender(client),
    local:
      params.queue_id !== undefined && params.local_id !== undefined
        ? { queueId: params.queue_id, localId: params.local_id }
        : undefined,
  });
}

interface GetMessagesParams {
  anchor?: string | number;
  include_anchor: boolean;
  num_before?: number;
  num_after?: number;
  narrow: RawNarrowTerm[];
  client_gravatar: boolean;
  apply_markdown: boolean;
  message_ids?: number[];
  allow_empty_topic_name: boolean;
  use_first_unread_anchor?: boolean;
  anchor_date?: string;
}

export const getMessages = spectatorEndpoint<GetMessagesParams>({
  params: {
    properties: {
      ...RANGE_PARAMS,
      narrow: NARROW_PARAM,
      client_gravatar: { type: 'boolean', default: true },
      apply_markdown: { type: 'boolean', default: true },
      message_ids: { type: 'array', items: { type: 'integer' } },
      allow_empty_topic_name: { type: 'boolean', default: false },
      use_first_unread_anchor: { type: 'boolean' },
      anchor_date: { type: 'string' },
    },
  },
  view: ({ stoa, user, params, req }) => {
    // A spectator reads only web-public channels, through a narrow that says so (see
    // compileSpectatorNarrow); every avatar comes as a URL, as Zulip gives them.
    if (!user) checkSpectatorAccess(stoa);
    const terms = normalizeNarrow(params.narrow);
    const narrow = user ? compileNarrow(stoa, user, terms) : compileSpectatorNarrow(stoa, terms);
    const viewer = user ?? null;
    const view: MessageView = {
      applyMarkdown: params.apply_markdown,
      clientGravatar: user ? params.client_gravatar : false,
      allowEmptyTopicName: params.allow_empty_topic_name,
      reactionTypeNames: reactionTypeNamesFor(req),
    };
    if (params.message_ids !== undefined) {
      if (params.num_before || params.num_after || params.anchor !== undefined || params.use_first_unread_anchor) {
        throw badRequest(
          'Unsupported parameter combination: num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor',
        );
      }
      if (params.message_ids.length > MAX_MESSAGES_PER_FETCH) throw tooManyMessages();
      const rows = fetchByIds(stoa, viewer, narrow, params.message_ids);
      return {
        messages: present(stoa, viewer, rows, rows.map((row) => row.user_flags), view, narrow.searchWords),
        found_newest: false,
        found_oldest: false,
        found_anchor: false,
        history_limited: false,
      };
    }
    if (params.num_before === undefined) throw missingArgument('num_before');
    if (params.num_after === undefined) throw missingArgument('num_after');
    if (params.num_before + params.num_after > MAX_MESSAGES_PER_FETCH) {
      throw tooManyMessages();
    }
    if (params.num_before > 0 && params.num_after > 0 && !params.include_anchor) {
      throw badRequest('The anchor can only be excluded at an end of the range');
    }
    const requested = params.use_first_unread_anchor ? 'first_unread' : params.anchor;
    if (requested === undefined) throw badRequest("Missing 'anchor' argument.");
    const anchor = resolveAnchor(stoa, narrow, requested, { anchorDate: params.anchor_date });
    const range = fetchRange(stoa, narrow, anchor, params.include_anchor, params.num_before, params.num_after);
    return {
      anchor,
      found_newest: range.foundNewest,
      found_oldest: range.foundOldest,
      found_anchor: range.foundAnchor,
      history_limited: false,
      messages: present(stoa, viewer, range.rows, range.flags, view, narrow.searchWords),
    };
  },
});

/** Fetched messages as the viewer sees them; a spectator (null) has read everything, and has no other flags, as on Zulip. */
function present(
  stoa: Stoa,
  viewer: UserRow | null,
  rows: readonly MessageRow[],
  userFlags: readonly number[],
  view: MessageView,
  searchWords: readonly string[],
): Record<string, unknown>[] {
  const flags = new Map(rows.map((row, i) => [row.id, viewer ? userFlags[i] : Flag.read]));
  const messages = new MessagePresenter(stoa).present(viewer, rows, view, flags);
  if (searchWords.length > 0) {
    messages.forEach((message, i) => {
      message.match_content = highlightContent(rows[i].rendered_content, searchWords);
      message.match_subject = highlightTopic(String(message.subject), searchWords);
    });
  }
  return messages;
}

export const matchesNarrowView = endpoint<{ msg_ids: number[]; narrow: RawNarrowTerm[] }>({
  params: {
    properties: { msg_ids: { type: 'array', items: { type: 'integer' } }, narrow: REQUIRED_NARROW_PARAM },
    required: ['msg_ids', 'narrow'],
  },
  view: ({ stoa, user, params }) => {
    const narrow = compileNarrow(stoa, user, normalizeNarrow(params.narrow));
    const words = narrow.searchWords;
    const messages: Record<string, { match_content: string; match_subject: string }> = {};
    for (const row of ownMatchesByIds(stoa, narrow, params.msg_ids)) {
      // Shaped like GET /messages' search fields, so clients can splice them into a message event.
      messages[String(row.id)] = {
        match_content: words.length > 0 ? highlightContent(row.rendered_content, words) : row.rendered_content,
        match_subject: words.length > 0 ? highlightTopic(row.topic, words) : escapeHtml(row.topic),
      };
    }
    return { messages };
  },
});

export const getMessage = spectatorEndpoint<{ message_id: number; apply_markdown: boolean; allow_empty_topic_name: boolean }>({
  params: {
    properties: {
      message_id: { type: 'integer' },
      apply_markdown: { type: 'boolean', default: true },
      allow_empty_topic_name: { type: 'boolean', default: false },
    },
    required: ['message_id'],
  },
  view: ({ stoa, user, params, req }) => {
    const { row, flags } = user ? accessMessage(stoa, user, params.message_id) : spectatorMessage(stoa, params.message_id);
    const view: MessageView = {
      applyMarkdown: params.apply_markdown,
      clientGravatar: false,
      allowEmptyTopicName: params.allow_empty_topic_name,
      reactionTypeNames: reactionTypeNamesFor(req),
    };
    const [message] = new MessagePresenter(stoa).present(user ?? null, [row], view, new Map([[row.id, flags]]));
    return { raw_content: row.content, message };
  },
});

/**
 * A message a spectator asked for by ID: one in a channel spectators may read, read. Any
 * other ID, existing or not, gets the authentication error, as Zulip answers it.
 */
function spectatorMessage(stoa: Stoa, messageId: number): { row: MessageRow; flags: number } {
  checkSpectatorAccess(stoa);
  const row = stoa.messages.byId(messageId);
  const channel = row?.stream_id == null ? undefined : stoa.channels.byId(row.stream_id);
  if (!row || !channel || !isSpectatorReadable(channel)) throw unauthorized();
  return { row, flags: Flag.read };
}

export const renderMessageView = endpoint<{ content: string }>({
  // Zulip refuses to preview what it would cut when sent.
  params: { properties: { content: { type: 'string', maxLength: MAX_MESSAGE_LENGTH } }, required: ['content'] },
  view: ({ stoa, user, params }) => ({ rendered: renderContent(stoa, user, params.content, []).html }),
});

export const getChannelTopics = spectatorEndpoint<{ stream_id: number; allow_empty_topic_name: boolean }>({
  params: {
    properties: { stream_id: { type: 'integer' }, allow_empty_topic_name: { type: 'boolean', default: false } },
    required: ['stream_id'],
  },
  view: ({ stoa, user, params }) => {
    let channel: ChannelRow;
    if (user) {
      channel = accessChannelById(stoa, user, params.stream_id, { need: 'content', allowArchived: true });
    } else {
      // A spectator: a web-public channel's topics, any other ID is not one (Zulip's access_web_public_stream).
      checkSpectatorAccess(stoa);
      const found = stoa.channels.byId(params.stream_id);
      if (!found || !isSpectatorReadable(found)) throw invalidChannelId();
      channel = found;
    }
    const spellings = !user || canReadChannelHistory(stoa, user, channel)
      ? stoa.messages.topicsOf(channel.recipient_id)
      : stoa.messages.topicsOfUser(user.id, channel.recipient_id);
    // Spellings of one topic are one topic, named as its newest message names it.
    const byKey = new Map<string, { topic: string; max_id: number }>();
    for (const spelling of spellings) {
      const key = topicKey(spelling.topic);
      const known = byKey.get(key);
      if (!known || spelling.max_id > known.max_id) byKey.set(key, spelling);
    }
    const topics = [...byKey.values()]
      .sort((a, b) => b.max_id - a.max_id)
      .map(({ topic, max_id }) => ({ name: displayTopic(topic, params.allow_empty_topic_name), max_id }));
    return { topics };
  },
});
