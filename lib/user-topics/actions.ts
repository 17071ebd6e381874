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
export function setTopicVisibility(
  stoa: Stoa,
  userId: number,
  channel: ChannelRow,
  topic: string,
  policy: number,
  { mutedList = true } = {},
): void {
  write(stoa, () => {
    const current = stoa.userTopics.get(userId, channel.id, topic);
    if ((current?.visibility_policy ?? VisibilityPolicy.INHERIT) === policy) return;
    const now = unixSeconds(stoa.clock);
    if (policy === VisibilityPolicy.INHERIT) stoa.userTopics.remove(userId, channel.id, topic);
    else stoa.userTopics.set(userId, channel.id, topic, policy, now);
    const topicName = current?.topic ?? topic;
    if (mutedList) sendEvent(stoa, { type: 'muted_topics', muted_topics: mutedTopicsList(stoa, userId) }, [userId]);
    sendEvent(
      stoa,
      { type: 'user_topic', stream_id: channel.id, topic_name: topicName, last_updated: now, visibility_policy: policy },
      [userId],
    );
  });
}

/** When two topics merge, each person keeps the more visible of their two policies. */
const MOST_VISIBLE_FIRST = [VisibilityPolicy.FOLLOWED, VisibilityPolicy.UNMUTED, VisibilityPolicy.INHERIT, VisibilityPolicy.MUTED];

/**
 * After a whole topic moved: people's policies for it move along to where it went. Someone who
 * cannot read the new channel just loses theirs (it would name a topic they cannot see). Into
 * a topic that already had messages, each person ends with the more visible of their two
 * policies; into a new one, the old topic's policy replaces whatever was left there.
 */
export function moveTopicVisibility(
  stoa: Stoa,
  from: { channel: ChannelRow; topic: string },
  to: { channel: ChannelRow; topic: string },
  targetHadMessages: boolean,
  canReadTarget: (userId: number) => boolean,
): void {
  const policyOf = (rows: { user_id: number; visibility_policy: number }[]) =>
    new Map(rows.map((row) => [row.user_id, row.visibility_policy]));
  const origin = policyOf(stoa.userTopics.forTopic(from.channel.id, from.topic));
  const target = policyOf(stoa.userTopics.forTopic(to.channel.id, to.topic));
  for (const userId of new Set([...origin.keys(), ...target.keys()])) {
    const old = origin.get(userId) ?? VisibilityPolicy.INHERIT;
    const there = target.get(userId) ?? VisibilityPolicy.INHERIT;
    const follows = canReadTarget(userId);
    const merged = targetHadMessages ? MOST_VISIBLE_FIRST.find((p) => p === old || p === there)! : old;
    const changesThere = follows && merged !== there;
    // The muted list older clients get is sent once: with the new topic's change, if there is one.
    if (old !== VisibilityPolicy.INHERIT) {
      setTopicVisibility(stoa, userId, from.channel, from.topic, VisibilityPolicy.INHERIT, { mutedList: !changesThere });
    }
    if (!follows) continue;
    setTopicVisibility(stoa, userId, to.channel, to.topic, merged);
  }
}
