import { unixSeconds } from '../clock';
import type { ChannelRow } from '../channels/queries';
import { sendEvent, write } from '../events/send';
import type { Stoa } from '../stoa';
import { mutedTopicsList } from './state';
import { VisibilityPolicy } from './queries';

/**
 * Sets a user's visibility policy for a topic. A real change is announced twice: the full
 * muted list for older clients, then the one topic's new policy. No change, no events.
 */
export function setTopicVisibility(stoa: Stoa, userId: number, channel: ChannelRow, topic: string, policy: number): void {
  write(stoa, () => {
    const current = stoa.userTopics.get(userId, channel.id, topic);
    if ((current?.visibility_policy ?? VisibilityPolicy.INHERIT) === policy) return;
    const now = unixSeconds(stoa.clock);
    if (policy === VisibilityPolicy.INHERIT) stoa.userTopics.remove(userId, channel.id, topic);
    else stoa.userTopics.set(userId, channel.id, topic, policy, now);
    const topicName = current?.topic ?? topic;
    sendEvent(stoa, { type: 'muted_topics', muted_topics: mutedTopicsList(stoa, userId) }, [userId]);
    sendEvent(
      stoa,
      { type: 'user_topic', stream_id: channel.id, topic_name: topicName, last_updated: now, visibility_policy: policy },
      [userId],
    );
  });
}
