import type { MessageRow } from '../messages/queries';
import { realmSetting } from '../realm/settings-store';
import type { Stoa } from '../stoa';
import { canAccessUser, INACCESSIBLE_USER_AVATAR_PATH, INACCESSIBLE_USER_NAME } from '../users/access';
import { apiEmailFor } from '../users/actions';
import { standInEmail } from '../users/email-visibility';
import type { UserRow } from '../users/queries';

/**
 * What a phone shows and what the app reads from a notification, in the shapes Zulip's mobile
 * apps expect: one payload for Apple's service, one for Google's, and the end-to-end-encrypted
 * one (level 413's format), which the relay cannot read.
 */

/** Zulip shows at most this much of the message, followed by an ellipsis. */
const MAX_CONTENT_LENGTH = 200;

export interface Notice {
  message: MessageRow;
  sender: UserRow;
  /** Everyone in a direct-message conversation, the recipient included; empty for channels. */
  directUserIds: number[];
  channelName: string | null;
}

function realmFields(stoa: Stoa, recipient: UserRow) {
  const realm = stoa.realm.get()!;
  return { realm_name: realm.name, realm_url: stoa.site, realm_uri: stoa.site, user_id: recipient.id };
}

/** The message as plain text: notifications cannot show HTML. */
export function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|blockquote|pre|h[1-6])>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** The text as a notification shows it; whether it was cut is no longer sent (level 413). */
function truncated(text: string): string {
  return text.length <= MAX_CONTENT_LENGTH ? text : `${text.slice(0, MAX_CONTENT_LENGTH - 3)}...`;
}

function conversationFields(notice: Notice): Record<string, unknown> {
  const { message } = notice;
  if (message.stream_id !== null) {
    return { recipient_type: 'stream', stream: notice.channelName, stream_id: message.stream_id, topic: message.topic };
  }
  const fields: Record<string, unknown> = { recipient_type: 'private' };
  if (notice.directUserIds.length > 2) fields.pm_users = notice.directUserIds.join(',');
  return fields;
}

function title(notice: Notice, stoa: Stoa): string {
  const { message, sender } = notice;
  if (message.stream_id !== null) return `#${notice.channelName} > ${message.topic}`;
  if (notice.directUserIds.length > 2) {
    return notice.directUserIds
      .map((id) => stoa.users.byId(id)?.full_name)
      .filter((name) => name !== undefined)
      .join(', ');
  }
  return sender.full_name;
}

/**
 * The sender as the recipient may see them: a guest may be notified of a channel message
 * from someone they may not see (can_access_all_users_group), shown as Zulip's "Unknown user".
 */
function senderSeenBy(stoa: Stoa, recipient: UserRow, sender: UserRow) {
  if (!canAccessUser(stoa, recipient, sender)) {
    return { email: standInEmail(sender.id), fullName: INACCESSIBLE_USER_NAME, avatarUrl: INACCESSIBLE_USER_AVATAR_PATH };
  }
  return { email: apiEmailFor(sender, sender.email_address_visibility), fullName: sender.full_name, avatarUrl: stoa.avatars.url(sender) };
}

/** The payloads of the legacy (not end-to-end-encrypted) path, for one recipient. */
export function messagePayloads(stoa: Stoa, recipient: UserRow, notice: Notice) {
  const { message, sender } = notice;
  const shown = senderSeenBy(stoa, recipient, sender);
  const senderFields = {
    sender_id: sender.id,
    sender_email: shown.email,
    time: message.date_sent,
    ...conversationFields(notice),
  };
  // An organization that requires end-to-end encryption (level 409) lets no content through
  // the legacy path: the phone learns only that there is a new message.
  const text = realmSetting(stoa, 'realm_require_e2ee_push_notifications') ? 'New message' : plainText(message.rendered_content);
  const group = message.stream_id !== null || notice.directUserIds.length > 2;
  const apns = {
    alert: { title: title(notice, stoa), subtitle: group ? `${shown.fullName}:` : '', body: truncated(text) },
    sound: 'default',
    badge: 0,
    custom: { zulip: { ...realmFields(stoa, recipient), ...senderFields, message_ids: [message.id] } },
  };
  const gcm = {
    ...realmFields(stoa, recipient),
    ...senderFields,
    event: 'message',
    zulip_message_id: message.id,
    content: truncated(text),
    sender_full_name: shown.fullName,
    sender_avatar_url: shown.avatarUrl,
  };
  return { apns, gcm };
}

/**
 * The group whose mention notified the recipient of a channel message: none when they were
 * mentioned by name (that comes first), else the smallest mentioned group they belong to, as
 * Zulip names it. Silent mentions notify nobody and are skipped.
 */
function mentionedGroupOf(stoa: Stoa, recipient: UserRow, message: MessageRow): { id: number; name: string } | null {
  if (message.stream_id === null) return null;
  const html = message.rendered_content;
  if (html.includes(`<span class="user-mention" data-user-id="${recipient.id}">`)) return null;
  const groups = [...html.matchAll(/<span class="user-group-mention" data-user-group-id="(\d+)">/g)]
    .map(([, id]) => stoa.groups.byId(Number(id)))
    .filter((group) => group !== undefined && group.name !== null)
    .map((group) => ({ id: group!.id, name: group!.name!, members: stoa.groups.recursiveMemberIds(group!.id) }))
    .filter((group) => group.members.includes(recipient.id))
    .sort((a, b) => a.members.length - b.members.length || a.id - b.id);
  return groups.length > 0 ? { id: groups[0].id, name: groups[0].name } : null;
}

/** The end-to-end-encrypted payload: the whole notification, readable only on the device. */
export function encryptedMessagePayload(stoa: Stoa, recipient: UserRow, notice: Notice): Record<string, unknown> {
  const { message, sender } = notice;
  const shown = senderSeenBy(stoa, recipient, sender);
  const realm = stoa.realm.get()!;
  const payload: Record<string, unknown> = {
    realm_url: stoa.site,
    realm_name: realm.name,
    user_id: recipient.id,
    sender_id: sender.id,
    type: 'message',
    message_id: message.id,
    time: message.date_sent,
    content: plainText(message.rendered_content),
    sender_full_name: shown.fullName,
    sender_avatar_url: shown.avatarUrl,
  };
  if (message.stream_id !== null) {
    Object.assign(payload, { recipient_type: 'channel', channel_id: message.stream_id, channel_name: notice.channelName, topic: message.topic });
    const group = mentionedGroupOf(stoa, recipient, message);
    if (group) Object.assign(payload, { mentioned_user_group_id: group.id, mentioned_user_group_name: group.name });
  } else {
    // Level 429: everyone in the conversation, one-to-one ones too, as numbers.
    Object.assign(payload, { recipient_type: 'direct', recipient_user_ids: notice.directUserIds });
  }
  return payload;
}

/**
 * A "remove" notification withdraws the notifications of messages that were read, deleted or
 * became unreadable. APNs allows 4 KB, so one carries at most this many IDs, the newest:
 * older notifications are the likeliest to have been dismissed on the phone already.
 */
const MAX_REMOVED_IDS = 200;

export function removedIds(messageIds: readonly number[]): number[] {
  return [...messageIds].sort((a, b) => a - b).slice(-MAX_REMOVED_IDS);
}

/**
 * The legacy payloads of a "remove" notification (level 413: no `zulip_message_id` for FCM,
 * no `server` or `realm_id` for APNs); the IDs are one comma-separated string.
 */
export function removalPayloads(stoa: Stoa, recipient: UserRow, messageIds: readonly number[]) {
  const fields = { ...realmFields(stoa, recipient), event: 'remove', zulip_message_ids: messageIds.join(',') };
  return { apns: { badge: 0, custom: { zulip: fields } }, gcm: fields };
}

/** The end-to-end-encrypted "remove" payload: the IDs as a list of numbers. */
export function encryptedRemovalPayload(stoa: Stoa, recipient: UserRow, messageIds: readonly number[]): Record<string, unknown> {
  const realm = stoa.realm.get()!;
  return { realm_url: stoa.site, realm_name: realm.name, user_id: recipient.id, type: 'remove', message_ids: [...messageIds] };
}

function testWording(stoa: Stoa) {
  const realm = stoa.realm.get()!;
  return { title: 'Test notification', body: `A test notification from ${realm.name} (${stoa.site}).` };
}

export function testPayloads(stoa: Stoa, recipient: UserRow, now: number) {
  const wording = testWording(stoa);
  const fields = { ...realmFields(stoa, recipient), event: 'test', time: now };
  return { apns: { alert: wording, sound: 'default', custom: { zulip: fields } }, gcm: { ...fields, ...wording } };
}

export function encryptedTestPayload(stoa: Stoa, recipient: UserRow, now: number): Record<string, unknown> {
  const realm = stoa.realm.get()!;
  return { type: 'test', realm_url: stoa.site, realm_name: realm.name, user_id: recipient.id, time: now };
}
