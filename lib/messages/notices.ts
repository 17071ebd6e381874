import type { ChannelRow } from '../channels/queries';
import { NOTIFICATION_BOT_EMAIL } from '../realm/actions';
import { MAX_SUBSCRIBED_NOTICES } from '../realm/settings';
import { realmSetting } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { sendMessage, type SendOptions } from './actions';
import { directParticipants, narrowSlug } from './conversations';
import type { MessageRow } from './queries';

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

/** Everyone in a direct message's conversation, its sender included, by ID. */
export function conversationPeople(stoa: Stoa, message: MessageRow): UserRow[] {
  const people = directParticipants(stoa, message.recipient_id).filter((user) => user.id !== message.sender_id);
  return [stoa.users.byId(message.sender_id)!, ...people].sort((a, b) => a.id - b.id);
}

/** A link to any message: in its topic, or in its direct conversation. */
export function anyMessageLink(stoa: Stoa, message: MessageRow): string {
  if (message.stream_id !== null) return messageLink(stoa, stoa.channels.byId(message.stream_id)!, message.topic, message.id);
  const ids = conversationPeople(stoa, message).map((user) => user.id);
  return `${stoa.site}/#narrow/dm/${ids.join(',')}/near/${message.id}`;
}

/** The #**channel>topic@id** syntax that renders as a link to one message. */
export function messageLinkSyntax(channel: ChannelRow, topic: string, messageId: number): string {
  return `#**${channel.name}>${topic}@${messageId}**`;
}

/** Silent mentions of people, listed as a sentence lists them ("A, B and C"). */
export function mentionList(users: readonly UserRow[]): string {
  const mentions = users.map(silentMention);
  return mentions.length <= 1 ? mentions.join('') : `${mentions.slice(0, -1).join(', ')} and ${mentions.at(-1)}`;
}

/** A moment as the <time:...> syntax names it (UNIX seconds in), which each reader's client shows in their own time zone. */
export function globalTime(seconds: number): string {
  return `<time:${new Date(seconds * 1000).toISOString().replace(/\.\d+Z$/, '+00:00')}>`;
}

/** A fenced block (`info` names its kind: quote, spoiler, a language) that holds `text` whatever backticks it contains. */
export function fenced(text: string, info = ''): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${info}\n${text}\n${fence}`;
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

function policyName(channel: ChannelRow): string {
  if (channel.is_web_public) return 'Web-public';
  if (!channel.invite_only) return 'Public';
  return channel.history_public_to_subscribers ? 'Private, shared history' : 'Private, protected history';
}

/**
 * After POST /users/me/subscriptions: a creation notice in each new channel, the announcement
 * of new channels if asked, and a direct message to each person someone else subscribed.
 * Returns whether those direct messages were sent (asked for, and not too many people).
 */
export function postSubscriptionNotices(
  stoa: Stoa,
  actor: UserRow,
  created: readonly ChannelRow[],
  newlySubscribed: ReadonlyMap<number, readonly ChannelRow[]>,
  options: { announce: boolean; notifySubscribed: boolean },
): boolean {
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
  if (!options.notifySubscribed || newlySubscribed.size > MAX_SUBSCRIBED_NOTICES) return false;
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
  return true;
}
