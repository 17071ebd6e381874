import type { StateContext } from '../events/state-context';
import type { Stoa } from '../stoa';

/**
 * The user's topic policies. Policies on archived channels go only to clients that keep
 * archived channels, so they still have them if the channel is unarchived.
 */
function liveTopics(stoa: Stoa, userId: number, includeArchived = false) {
  return stoa.userTopics.forUser(userId).filter((row) => includeArchived || !stoa.channels.byId(row.stream_id)!.is_archived);
}

/** The deprecated muted-topics list: [channel name, topic, last updated] for each muted topic. */
export function mutedTopicsList(stoa: Stoa, userId: number): Array<[string, string, number]> {
  return liveTopics(stoa, userId)
    .filter((row) => row.visibility_policy === 1)
    .map((row) => [stoa.channels.byId(row.stream_id)!.name, row.topic, row.last_updated]);
}

/** Register state for fetch type `user_topic`. */
export function userTopicState({ stoa, user, queue }: StateContext): Record<string, unknown> {
  return {
    user_topics: liveTopics(stoa, user.id, queue.capabilities.archived_channels).map((row) => ({
      stream_id: row.stream_id,
      topic_name: row.topic,
      visibility_policy: row.visibility_policy,
      last_updated: row.last_updated,
    })),
  };
}

/** Register state for fetch type `muted_topics`, which clients that know user_topic never get. */
export function mutedTopicsState({ stoa, user, queue }: StateContext): Record<string, unknown> {
  if (queue.eventTypes?.has('user_topic')) return {};
  return { muted_topics: mutedTopicsList(stoa, user.id) };
}
