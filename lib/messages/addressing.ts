import { holdsChannelSetting, isSubscribed } from '../channels/access';
import type { ChannelRow } from '../channels/queries';
import { ApiError, badRequest } from '../http/errors';
import { realmSetting, userHasRealmPermission } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { accessCheckFor } from '../users/access';
import { Role, type UserRow } from '../users/queries';
import { escapeHtml } from '../markdown/render';
import { REALM_SERVER_FACTS } from '../realm/settings';
import { holdsUserGroupSetting } from '../groups/access';
import type { RenderedMarkdown } from '../markdown/render';
import { EMPTY_TOPIC_DISPLAY_NAME } from './topics';

const MAX_TOPIC_LENGTH = REALM_SERVER_FACTS.max_topic_length as number;
export const MAX_MESSAGE_LENGTH = REALM_SERVER_FACTS.max_message_length as number;
const TRUNCATED_TOPIC_SUFFIX = '...';
const TRUNCATED_CONTENT_SUFFIX = '\n[message truncated]';

/** Where the code point after the first `count` of `text` begins (a UTF-16 index), or -1 if it has no more. */
function codePointIndex(text: string, count: number): number {
  let at = 0;
  for (let n = 0; n < count; n++) {
    if (at >= text.length) return -1;
    at += text.codePointAt(at)! > 0xffff ? 2 : 1;
  }
  return at < text.length ? at : -1;
}

/**
 * Shortens text to `max` code points, ending it with `suffix` when it was cut. It walks no
 * further than the limit: content can be megabytes long, and making an array of its code
 * points was once the largest allocation of a request flood.
 */
function truncate(text: string, max: number, suffix: string): string {
  // No more UTF-16 units than the limit means no more code points either.
  if (text.length <= max || codePointIndex(text, max) === -1) return text;
  return text.slice(0, codePointIndex(text, max - suffix.length)) + suffix;
}

/**
 * Message content as stored: trailing whitespace and leading blank lines go (leading spaces
 * stay, for indented code), and overlong content is cut with a marker, as Zulip does.
 */
export function normalizeContent(raw: string): string {
  const content = raw.trimEnd().replace(/^\n+/, '');
  if (content === '') throw badRequest('Message must not be empty');
  if (content.includes('\0')) throw badRequest('Message must not contain null bytes');
  return truncateContent(content);
}

/** Content over the realm's length (or `max`), cut with Zulip's marker (messages, drafts, quotes in notices). */
export function truncateContent(content: string, max = MAX_MESSAGE_LENGTH): string {
  return truncate(content, max, TRUNCATED_CONTENT_SUFFIX);
}

/** A topic over the realm's length, cut with an ellipsis (messages and drafts alike). */
export function truncateTopic(topic: string): string {
  return truncate(topic, MAX_TOPIC_LENGTH, TRUNCATED_TOPIC_SUFFIX);
}

/**
 * A topic as stored: trimmed, printable only, cut to the realm's length. The empty topic's
 * display name and Zulip's old "(no topic)" both mean the empty topic.
 */
export function normalizeTopic(raw: string): string {
  const topic = raw.trim();
  const bad = /[\p{Cc}\p{Cs}\p{Co}\p{Cn}]/u.exec(topic);
  if (bad) throw badRequest(`Invalid character in topic, at position ${[...topic.slice(0, bad.index)].length + 1}!`);
  if (topic === EMPTY_TOPIC_DISPLAY_NAME || topic === '(no topic)') return '';
  return truncateTopic(topic);
}

/** The channel a `to` names: an ID (a JSON number), or a name; a one-element list holds either. */
export function channelForSend(stoa: Stoa, to: unknown): ChannelRow {
  let target = to;
  if (Array.isArray(target)) {
    if (target.length !== 1) throw badRequest('Expected exactly one channel');
    target = target[0];
  }
  if (typeof target === 'number' && Number.isInteger(target)) {
    const channel = stoa.channels.byId(target);
    if (!channel) {
      throw new ApiError('STREAM_DOES_NOT_EXIST', `Channel with ID '${target}' does not exist`, 400, { stream_id: target });
    }
    return channel;
  }
  if (typeof target === 'string') {
    const name = target.trim();
    const channel = name === '' ? undefined : stoa.channels.byName(name);
    if (!channel) {
      throw new ApiError('STREAM_DOES_NOT_EXIST', `Channel '${escapeHtml(name)}' does not exist`, 400, { stream: name });
    }
    return channel;
  }
  throw badRequest('Invalid data type for channel');
}

/**
 * Whether the user may post in the channel, in Zulip's order: the channel's sending group
 * first, then access to the channel itself.
 */
export function checkCanPost(stoa: Stoa, user: UserRow, channel: ChannelRow): void {
  if (user.is_system_bot) return;
  const owner = user.is_bot && user.bot_owner_id !== null ? stoa.users.byId(user.bot_owner_id) : undefined;
  checkSendMessageGroup(stoa, user, channel, owner);
  const refused = () => badRequest(`Not authorized to send to channel '${channel.name}'`);
  if (channel.is_archived) throw refused();
  if (channel.is_web_public) return;
  if (!channel.invite_only && user.role !== Role.GUEST) return;
  if (isSubscribed(stoa, user, channel)) return;
  if (owner && isSubscribed(stoa, owner, channel)) return;
  if (
    channel.history_public_to_subscribers &&
    user.role !== Role.GUEST &&
    (holdsChannelSetting(stoa, user, channel, 'can_add_subscribers_group') ||
      holdsChannelSetting(stoa, user, channel, 'can_subscribe_group'))
  ) {
    return;
  }
  throw refused();
}

/**
 * The channel's can_send_message_group alone; a bot may also post where its owner may. Moving
 * messages into a channel asks only this, of the mover alone (the channel's access was checked
 * when it was named).
 */
export function checkSendMessageGroup(stoa: Stoa, user: UserRow, channel: ChannelRow, owner?: UserRow): void {
  if (user.is_system_bot) return;
  const maySend = (u: UserRow) => holdsChannelSetting(stoa, u, channel, 'can_send_message_group');
  if (!maySend(user) && !(owner && maySend(owner))) {
    throw badRequest('You do not have permission to post in this channel.');
  }
}

/** Starting a topic the channel does not have yet takes its can_create_topic_group. */
export function checkCanCreateTopic(stoa: Stoa, user: UserRow, channel: ChannelRow, topic: string): void {
  if (user.is_system_bot || stoa.messages.hasTopic(channel.recipient_id, topic)) return;
  if (!holdsChannelSetting(stoa, user, channel, 'can_create_topic_group')) {
    throw badRequest('You do not have permission to create new topics in this channel.');
  }
}

/** The channel's rule for the empty topic, with `inherit` following the organization. */
export function checkTopicPolicy(stoa: Stoa, channel: ChannelRow, topic: string): void {
  const policy =
    channel.topics_policy === 'inherit' ? (realmSetting(stoa, 'realm_topics_policy') as string) : channel.topics_policy;
  if (policy === 'empty_topic_only' && topic !== '') {
    throw badRequest(`Only the ${EMPTY_TOPIC_DISPLAY_NAME} topic is allowed in this channel.`);
  }
  if (policy === 'disable_empty_topic' && topic === '') {
    throw badRequest(
      channel.topics_policy === 'inherit'
        ? 'Topics are required in this organization'
        : `Sending messages to the ${EMPTY_TOPIC_DISPLAY_NAME} topic is not allowed in this channel.`,
    );
  }
}

/**
 * The people a direct message's `to` names: user IDs, or emails (a list, or one string with
 * commas), never both.
 */
export function directRecipients(stoa: Stoa, to: unknown): UserRow[] {
  const list: unknown = typeof to === 'string' ? to.split(',') : typeof to === 'number' ? [to] : to;
  if (!Array.isArray(list)) throw badRequest('Invalid data type for recipients');
  if (list.length === 0) throw badRequest('Message must have recipients');
  const byEmail = typeof list[0] === 'string';
  if (!byEmail && typeof list[0] !== 'number') throw badRequest('Invalid data type for recipients');
  if (list.some((item) => typeof item !== typeof list[0])) {
    throw badRequest('Recipient lists may contain emails or user IDs, but not both.');
  }
  const users = new Map<number, UserRow>();
  for (const item of list as Array<string | number>) {
    if (typeof item === 'string') {
      const email = item.trim();
      if (email === '') continue;
      const user = stoa.users.byAnyEmail(email);
      if (!user) throw badRequest(`Invalid email '${email}'`);
      users.set(user.id, user);
    } else {
      const user = Number.isInteger(item) ? stoa.users.byId(item) : undefined;
      if (!user) throw badRequest(`Invalid user ID ${item}`);
      users.set(user.id, user);
    }
  }
  if (users.size === 0) throw badRequest('Message must have recipients');
  return [...users.values()];
}

/**
 * Zulip's rules for who may start or continue a direct conversation: `recipients` are the
 * others in it, or the sender alone for a note to self.
 */
export function checkCanSendDirect(stoa: Stoa, sender: UserRow, recipients: readonly UserRow[]): void {
  // A guest may write only to people they may see (can_access_all_users_group); Zulip checks
  // this before whether everyone named is still active.
  const accessible = accessCheckFor(stoa, sender);
  if (!recipients.every(accessible)) throw badRequest('You do not have permission to access some of the recipients.');
  for (const recipient of recipients) {
    if (!recipient.is_active) throw badRequest(`'${recipient.email}' is no longer using Zulip.`);
  }
  if (sender.is_bot || recipients.every((r) => r.is_bot || r.id === sender.id)) return;
  const everyone = [sender, ...recipients];
  const permissionGroup = realmSetting(stoa, 'realm_direct_message_permission_group') as number;
  if (!everyone.some((u) => userHasRealmPermission(stoa, u, 'realm_direct_message_permission_group'))) {
    const nobody = stoa.groups.byId(permissionGroup)?.name === 'role:nobody';
    throw badRequest(
      nobody ? 'Direct messages are disabled in this organization.' : 'This conversation does not include any users who can authorize it.',
    );
  }
  const ids = [...new Set([sender.id, ...recipients.map((u) => u.id)])].sort((a, b) => a - b);
  const conversationExists = ids.length === 1 || stoa.messages.directGroupRecipient(ids.join(',')) !== undefined;
  if (!conversationExists && !userHasRealmPermission(stoa, sender, 'realm_direct_message_initiator_group')) {
    throw badRequest('You do not have permission to initiate direct message conversations.');
  }
}

/** Above this many people, a wildcard mention needs the organization's permission. */
const WILDCARD_MENTION_THRESHOLD = 15;

/**
 * Zulip's limits on mentions in channel messages: wildcards reaching more than a handful of
 * people need `can_mention_many_users_group`, and each group mentioned needs its
 * `can_mention_group`. `author` is who the wildcard speaks for (the sender, also on edits);
 * `actor` who mentions the groups.
 */
export function checkMentionPermissions(
  stoa: Stoa,
  author: UserRow,
  actor: UserRow,
  rendered: RenderedMarkdown,
  channel: ChannelRow | undefined,
  topicParticipantCount: () => number,
): void {
  if (channel) {
    const mayMentionMany = () => userHasRealmPermission(stoa, author, 'realm_can_mention_many_users_group');
    if (
      rendered.mentionsChannelWildcard &&
      stoa.channels.subscriberIds(channel.recipient_id).length > WILDCARD_MENTION_THRESHOLD &&
      !mayMentionMany()
    ) {
      throw new ApiError(
        'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
        'You do not have permission to use channel wildcard mentions in this channel.',
      );
    }
    if (rendered.mentionsTopicWildcard && topicParticipantCount() > WILDCARD_MENTION_THRESHOLD && !mayMentionMany()) {
      throw new ApiError(
        'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
        'You do not have permission to use topic wildcard mentions in this topic.',
      );
    }
  }
  for (const groupId of rendered.mentionedGroupIds) {
    const group = stoa.groups.byId(groupId)!;
    if (holdsUserGroupSetting(stoa, actor, group, 'can_mention_group')) continue;
    const allowed = stoa.groups.byId(group.can_mention_group_id!)!;
    const who = allowed.name === null ? 'the groups and users allowed to mention it' : `'${allowed.name}'`;
    throw badRequest(`You are not allowed to mention user group '${group.name}'. You must be a member of ${who} to mention this group.`);
  }
}
