import type { ChannelRow } from '../channels/queries';
import { NOTIFICATION_BOT_EMAIL } from '../realm/actions';
import { realmSetting } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { sendMessage, type SendOptions } from './actions';

/**
 * Messages the notification bot posts about channels, worded as Zulip words them. Each is
 * already read for the person whose action caused it.
 */

export function notificationBot(stoa: Stoa): UserRow {
  return stoa.users.byAnyEmail(NOTIFICATION_BOT_EMAIL)!;
}

/** A silent mention: names the user without notifying them. */
export function silentMention(user: UserRow): string {
  return `@_**${user.full_name}|${user.id}**`;
}

/** Characters that would break the #**name** syntax; such channels get a plain link instead. */
const UNSAFE_IN_CHANNEL_LINK = /[`>*&[\]]|\$\$/;

function narrowSlug(text: string): string {
  return encodeURIComponent(text.replace(/ /g, '-')).replace(/%/g, '.');
}

export function channelLink(channel: ChannelRow): string {
  if (!UNSAFE_IN_CHANNEL_LINK.test(channel.name)) return `#**${channel.name}**`;
  const escaped = channel.name.replace(/[[\]\\`*&>$]/g, (c) => `\\${c}`);
  return `[#${escaped}](#narrow/channel/${channel.id}-${narrowSlug(channel.name)})`;
}

export function topicLink(channel: ChannelRow, topic: string): string {
  return `#**${channel.name}>${topic}**`;
}

/** A link to one message in its topic, as Zulip's narrow URLs write it. */
export function messageLink(stoa: Stoa, channel: ChannelRow, topic: string, messageId: number): string {
  return `${stoa.site}/#narrow/channel/${channel.id}-${narrowSlug(channel.name)}/topic/${narrowSlug(topic)}/near/${messageId}`;
}

/** The notification bot's sending options: internal, read by whoever caused the notice. */
export function noticeOptions(readBy: (userId: number) => boolean): SendOptions {
  return { client: 'Internal', readBySender: true, alreadyReadBy: readBy };
}

/** Topic of the notices about a channel's own settings, in its own channel. */
const CHANNEL_EVENTS_TOPIC = 'channel events';
/** A channel that allows only the empty topic gets its own notices there, as in Zulip. */
function channelEventsTopic(channel: ChannelRow): string {
  return channel.topics_policy === 'empty_topic_only' ? '' : CHANNEL_EVENTS_TOPIC;
}
const NEW_CHANNELS_TOPIC = 'new channels';
/** Zulip stops telling each person they were subscribed when a request subscribes more than this. */
const MAX_SUBSCRIBED_NOTICES = 100;

function policyName(channel: ChannelRow): string {
  if (channel.is_web_public) return 'Web-public';
  if (!channel.invite_only) return 'Public';
  return channel.history_public_to_subscribers ? 'Private, shared history' : 'Private, protected history';
}

/**
 * After POST /users/me/subscriptions: a creation notice in each new channel, the announcement
 * of new channels if asked, and a direct message to each person someone else subscribed.
 */
export function postSubscriptionNotices(
  stoa: Stoa,
  actor: UserRow,
  created: readonly ChannelRow[],
  newlySubscribed: ReadonlyMap<number, readonly ChannelRow[]>,
  options: { announce: boolean; notifySubscribed: boolean },
): void {
  const bot = notificationBot(stoa);
  const byActor = noticeOptions((id) => id === actor.id);
  // The creation notice is a channel event, which an organization may switch off (level 434).
  const channelEvents = realmSetting(stoa, 'realm_send_channel_events_messages') === true;
  for (const channel of channelEvents ? created : []) {
    const description = channel.description === '' ? '*No description.*' : channel.description;
    sendMessage(
      stoa,
      bot,
      { type: 'channel', channel, topic: channelEventsTopic(channel) },
      `**${policyName(channel)}** channel created by ${silentMention(actor)}. **Description:**\n\`\`\` quote\n${description}\n\`\`\``,
      byActor,
    );
  }
  const announcements = realmSetting(stoa, 'realm_new_stream_announcements_stream_id') as number;
  const announceIn = announcements === -1 ? undefined : stoa.channels.byId(announcements);
  if (options.announce && created.length > 0 && announceIn && !announceIn.is_archived) {
    const links = created.map(channelLink);
    const text =
      created.length === 1
        ? `${silentMention(actor)} created a new channel ${links[0]}.`
        : `${silentMention(actor)} created the following channels: ${links.join(', ')}.`;
    const topic = announceIn.topics_policy === 'empty_topic_only' ? '' : NEW_CHANNELS_TOPIC;
    sendMessage(stoa, bot, { type: 'channel', channel: announceIn, topic }, text, byActor);
  }
  if (!options.notifySubscribed || newlySubscribed.size > MAX_SUBSCRIBED_NOTICES) return;
  const createdIds = new Set(created.map((c) => c.id));
  for (const [userId, channels] of newlySubscribed) {
    const user = stoa.users.byId(userId)!;
    if (userId === actor.id || user.is_bot) continue;
    const added = channels.filter((c) => !createdIds.has(c.id)).sort((a, b) => a.name.localeCompare(b.name));
    if (added.length === 0) continue;
    const text =
      added.length === 1
        ? `${silentMention(actor)} subscribed you to ${channelLink(added[0])}.`
        : `${silentMention(actor)} subscribed you to the following channels:\n\n${added.map((c) => `* ${channelLink(c)}\n`).join('')}`;
    sendMessage(stoa, bot, { type: 'direct', users: [user] }, text, byActor);
  }
}
