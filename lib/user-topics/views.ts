import { accessChannelById, hasContentAccess, invalidChannelId, isSubscribed } from '../channels/access';
import type { ChannelRow } from '../channels/queries';
import { endpoint } from '../http/endpoint';
import { badRequest, missingArgument } from '../http/errors';
import { REALM_SERVER_FACTS } from '../realm/settings';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { setTopicVisibility } from './actions';
import { VisibilityPolicy } from './queries';

const MAX_TOPIC_LENGTH = REALM_SERVER_FACTS.max_topic_length as number;

export const updateUserTopic = endpoint<{ stream_id: number; topic: string; visibility_policy: number }>({
  params: {
    properties: {
      stream_id: { type: 'integer' },
      topic: { type: 'string', maxLength: MAX_TOPIC_LENGTH },
      visibility_policy: { type: 'integer', enum: Object.values(VisibilityPolicy) },
    },
    required: ['stream_id', 'topic', 'visibility_policy'],
  },
  view: ({ stoa, user, params }) => {
    // Clearing a policy works on any channel; setting one needs access to its content.
    let channel: ChannelRow;
    if (params.visibility_policy === VisibilityPolicy.INHERIT) {
      const found = stoa.channels.byId(params.stream_id);
      if (!found) throw invalidChannelId();
      channel = found;
    } else {
      channel = accessChannelById(stoa, user, params.stream_id, { need: 'content' });
    }
    setTopicVisibility(stoa, user.id, channel, params.topic, params.visibility_policy);
    return {};
  },
});

/**
 * The channel of a muted-topics request, by ID (preferred) or by name; exactly one of them.
 * Muting needs access to the channel's content, as Zulip's access_stream_by_id; unmuting only
 * that the channel exists, whatever the caller may see, and is refused in Zulip's words "Topic
 * is not muted" otherwise.
 */
function mutedTopicChannel(stoa: Stoa, user: UserRow, params: { stream_id?: number; stream?: string; op: 'add' | 'remove' }): ChannelRow {
  if (params.stream_id !== undefined && params.stream !== undefined) {
    throw badRequest('Unsupported parameter combination: stream_id, stream', { parameters: 'stream_id, stream' });
  }
  if (params.stream_id === undefined && params.stream === undefined) throw missingArgument('stream_id');
  const channel = params.stream_id !== undefined ? stoa.channels.byId(params.stream_id) : stoa.channels.byName(params.stream!);
  if (params.op === 'remove') {
    if (!channel) throw badRequest('Topic is not muted');
    return channel;
  }
  const invalid = () =>
    params.stream_id !== undefined ? invalidChannelId() : badRequest(`Invalid channel name '${params.stream}'`);
  if (!channel || channel.is_archived || !hasContentAccess(stoa, user, channel)) throw invalid();
  return channel;
}

/** The deprecated muting endpoint: POST /user_topics with only "muted" and "inherit". */
export const updateMutedTopic = endpoint<{ stream_id?: number; stream?: string; topic: string; op: 'add' | 'remove' }>({
  params: {
    properties: {
      stream_id: { type: 'integer' },
      stream: { type: 'string' },
      topic: { type: 'string', maxLength: MAX_TOPIC_LENGTH },
      op: { type: 'string', enum: ['add', 'remove'] },
    },
    required: ['topic', 'op'],
  },
  view: ({ stoa, user, params }) => {
    const channel = mutedTopicChannel(stoa, user, params);
    // The specification's state table asks a subscription of whoever mutes here (Zulip 10.2
    // itself asks only access; POST /user_topics asks no more than that either).
    if (params.op === 'add' && !isSubscribed(stoa, user, channel)) throw badRequest(`Not subscribed to channel ID ${channel.id}`);
    setTopicVisibility(stoa, user.id, channel, params.topic, params.op === 'add' ? VisibilityPolicy.MUTED : VisibilityPolicy.INHERIT);
    return {};
  },
});
