import type { EventQueue } from '../events/queues';
import { onCommit, write } from '../events/send';
import { Flag } from '../messages/flags';
import { directParticipants, narrowSlug } from '../messages/conversations';
import { RecipientType } from '../channels/queries';
import type { MessageRow } from '../messages/queries';
import { realmSetting } from '../realm/settings-store';
import { serverTimer } from '../server-timer';
import type { Stoa } from '../stoa';
import type { UserRow } from '../users/queries';
import { userSettings } from '../users/settings-store';
import { unsubscribeLink } from './links';
import { escapeHtml, senderAddress, type OutgoingMail } from './outgoing';
import type { PendingEmailRow } from './queries';

/**
 * Missed-message emails, as Zulip sends them: a message that would notify a person who is
 * away (no open client, or none active for a while) waits in email_notifications_pending;
 * the person's first waiting message sets when their batch goes out (their
 * email_notifications_batching_period_seconds later) and later ones join it. When it falls
 * due, the messages still unread then go out, one email per conversation.
 */

/** Why a message notifies by email; the order of the checks in `emailTrigger` is Zulip's. */
export type EmailTrigger = 'direct_message' | 'mention' | 'wildcard_mention' | 'alert_word' | 'followed_topic' | 'channel';

/** Zulip's OFFLINE_THRESHOLD_SECS: someone whose client reported activity within this is present. */
const PRESENT_WITHIN_MS = 140_000;

/** Zulip's topic visibility policies. */
const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

const WILDCARD_FLAGS = Flag.stream_wildcard_mentioned | Flag.topic_wildcard_mentioned;
const MENTION_FLAGS = Flag.mentioned | WILDCARD_FLAGS;

/**
 * Whether this unread message would send this person an email, and why: direct messages,
 * mentions and alert words by enable_offline_email_notifications; @all mentions where the
 * channel (or the followed topic) lets them notify; followed topics by
 * enable_followed_topic_email_notifications; any other message of an unmuted channel by the
 * channel's email_notifications, else the person's enable_stream_email_notifications.
 */
function emailTrigger(stoa: Stoa, user: UserRow, message: MessageRow, bits: number): EmailTrigger | undefined {
  if (bits & Flag.read) return undefined;
  const settings = userSettings(stoa, user);
  const offline = settings.enable_offline_email_notifications === true;
  if (message.stream_id === null) return offline ? 'direct_message' : undefined;
  if (bits & Flag.mentioned && offline) return 'mention';
  const channel = stoa.channels.byId(message.stream_id);
  const subscription = channel ? stoa.channels.subscription(user.id, channel.recipient_id) : undefined;
  if (!subscription) return undefined;
  const policy = stoa.userTopics.get(user.id, message.stream_id, message.topic)?.visibility_policy;
  const followed = policy === FOLLOWED;
  const muted = policy === MUTED || (subscription.is_muted === 1 && policy !== UNMUTED);
  if (bits & WILDCARD_FLAGS && offline) {
    const own = subscription.wildcard_mentions_notify;
    const allowed = followed
      ? settings.enable_followed_topic_wildcard_mentions_notify === true
      : !muted && (own === null ? settings.wildcard_mentions_notify === true : own === 1);
    if (allowed) return 'wildcard_mention';
  }
  if (bits & Flag.has_alert_word && offline) return 'alert_word';
  if (followed) return settings.enable_followed_topic_email_notifications === true ? 'followed_topic' : undefined;
  if (muted) return undefined;
  const own = subscription.email_notifications;
  return (own === null ? settings.enable_stream_email_notifications === true : own === 1) ? 'channel' : undefined;
}

/**
 * Whether the person is away, as Zulip decides it: no client open that receives messages,
 * or none that reported activity (presence) within the last 140 seconds.
 */
function isAway(stoa: Stoa, userId: number): boolean {
  const listening = [...stoa.queues.queuesOf(userId)].some((queue) => queue.settings.eventTypes === null || queue.settings.eventTypes.has('message'));
  if (!listening) return true;
  const lastActive = stoa.presence.byUser(userId)?.last_active_ms ?? null;
  return lastActive === null || lastActive < stoa.clock.now() - PRESENT_WITHIN_MS;
}

/**
 * The messages already waiting for (or sent in) an email while a queue of the person was
 * open: when that queue goes, they are not mailed again (Zulip's `email_notified`).
 */
const emailedWhileOpen = new WeakMap<EventQueue, Set<number>>();

/** Puts the message into the person's batch (starting one if none is waiting). */
function addToBatch(stoa: Stoa, user: UserRow, message: MessageRow, trigger: EmailTrigger, mentionedGroupId: number | null): void {
  const batchMs = Number(userSettings(stoa, user).email_notifications_batching_period_seconds) * 1000;
  stoa.email.addPending({
    user_id: user.id,
    message_id: message.id,
    trigger,
    mentioned_group_id: trigger === 'mention' ? mentionedGroupId : null,
    due_ms: stoa.email.batchDueOf(user.id) ?? stoa.clock.now() + batchMs,
  });
  for (const queue of stoa.queues.queuesOf(user.id)) {
    let emailed = emailedWhileOpen.get(queue);
    if (!emailed) emailedWhileOpen.set(queue, (emailed = new Set()));
    emailed.add(message.id);
  }
}

/** Whether the person can be mailed at all. */
function mailable(user: UserRow | undefined): user is UserRow {
  return user !== undefined && user.is_active === 1 && user.is_bot === 0 && user.delivery_email !== '';
}

/**
 * Called by sendMessage for every new message, inside its transaction: the recipients it
 * would email wait for their batch. Only with --smtp.
 */
export function queueMissedMessageEmails(
  stoa: Stoa,
  message: MessageRow,
  flags: ReadonlyMap<number, number>,
  mentions: { userIds: ReadonlySet<number>; groupIds: ReadonlySet<number> },
): void {
  if (!stoa.mailer.configured) return;
  let queued = false;
  for (const [userId, bits] of flags) {
    if (userId === message.sender_id) continue;
    const user = stoa.users.byId(userId);
    if (!mailable(user)) continue;
    const trigger = emailTrigger(stoa, user, message, bits);
    // Someone with a client open reads it there; if they never do, it is mailed when that
    // client's queue goes (emailWithheldMessages).
    if (trigger === undefined || !isAway(stoa, userId)) continue;
    const groupId = mentions.userIds.has(userId) ? null : smallestMentionedGroup(stoa, userId, mentions.groupIds);
    addToBatch(stoa, user, message, trigger, groupId);
    queued = true;
  }
  if (queued) onCommit(stoa, () => rescheduleMissedMessageEmails(stoa));
}

/**
 * The group whose mention reached the person, read back from the rendered message: none when
 * they were mentioned by name, else the smallest mentioned group they are in.
 */
function mentionedGroupOf(stoa: Stoa, userId: number, message: MessageRow): number | null {
  const html = message.rendered_content;
  if (html.includes(`class="user-mention" data-user-id="${userId}"`)) return null;
  const groupIds = [...html.matchAll(/class="user-group-mention" data-user-group-id="(\d+)"/g)].map((m) => Number(m[1]));
  return smallestMentionedGroup(stoa, userId, new Set(groupIds));
}

/**
 * Zulip's missedmessage hook, for email: the person's last open client (`queue`) went without
 * reading these messages, so those that would have been mailed to someone away, and were not,
 * join their batch now. `flags` are the person's flags of each message now: one read meanwhile
 * is left alone. Call inside `write`.
 */
export function emailWithheldMessages(
  stoa: Stoa,
  user: UserRow,
  queue: EventQueue,
  messages: ReadonlyArray<{ message: MessageRow; flags: number }>,
): void {
  if (!stoa.mailer.configured || !mailable(user)) return;
  const emailed = emailedWhileOpen.get(queue);
  let queued = false;
  for (const { message, flags } of messages) {
    if (message.sender_id === user.id || emailed?.has(message.id)) continue;
    const trigger = emailTrigger(stoa, user, message, flags);
    if (trigger === undefined) continue;
    addToBatch(stoa, user, message, trigger, trigger === 'mention' ? mentionedGroupOf(stoa, user.id, message) : null);
    queued = true;
  }
  if (queued) onCommit(stoa, () => rescheduleMissedMessageEmails(stoa));
}

/** The smallest of the mentioned groups the person is in, as Zulip names it in the email. */
function smallestMentionedGroup(stoa: Stoa, userId: number, groupIds: ReadonlySet<number>): number | null {
  let best: { id: number; size: number } | undefined;
  for (const id of groupIds) {
    const members = stoa.groups.recursiveMemberIds(id);
    if (!members.includes(userId)) continue;
    if (!best || members.length < best.size) best = { id, size: members.length };
  }
  return best?.id ?? null;
}

const armTimer = serverTimer((stoa) => sendDueMissedMessageEmails(stoa));

/** Points the timer at the earliest batch waiting; at start-up, batches a stop held back go out. */
export function rescheduleMissedMessageEmails(stoa: Stoa): void {
  armTimer(stoa, stoa.mailer.configured ? stoa.email.earliestDue() : undefined);
}

/** Sends every batch that fell due, then waits for the next. */
function sendDueMissedMessageEmails(stoa: Stoa): void {
  const due = stoa.email.pendingDue(stoa.clock.now());
  const byUser = new Map<number, PendingEmailRow[]>();
  for (const row of due) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  write(stoa, () => {
    for (const row of due) stoa.email.deletePending(row.user_id, row.message_id);
    for (const [userId, rows] of byUser) {
      for (const mail of missedMessageMails(stoa, userId, rows)) onCommit(stoa, () => stoa.mailer.send(mail));
    }
  });
  rescheduleMissedMessageEmails(stoa);
}

interface Waiting {
  message: MessageRow;
  /** Undefined for a message shown only as context. */
  trigger: EmailTrigger | undefined;
  mentionedGroupId: number | null;
}

/**
 * The emails for one person's batch: the messages still there and still unread, grouped by
 * conversation (a direct conversation, or a topic, whatever its case), the conversation with
 * the oldest newest message first.
 */
function missedMessageMails(stoa: Stoa, userId: number, rows: readonly PendingEmailRow[]): OutgoingMail[] {
  const user = stoa.users.byId(userId);
  if (!user || !user.is_active || userSettings(stoa, user).enable_offline_email_notifications !== true) return [];
  const flags = stoa.messages.flagsOfMany(userId, rows.map((row) => row.message_id));
  const conversations = new Map<string, Waiting[]>();
  for (const row of rows) {
    const bits = flags.get(row.message_id);
    const message = stoa.messages.byId(row.message_id);
    if (bits === undefined || bits & Flag.read || !message) continue;
    const key = message.stream_id === null ? `dm:${message.recipient_id}` : `topic:${message.recipient_id}:${message.topic.toLowerCase()}`;
    const waiting = { message, trigger: row.trigger as EmailTrigger, mentionedGroupId: row.mentioned_group_id };
    conversations.set(key, [...(conversations.get(key) ?? []), waiting]);
  }
  // A mention in a channel comes with what led to it: the topic's messages of the quarter of an
  // hour before the conversation's first missed message, those the person may read.
  for (const list of conversations.values()) {
    const first = list.reduce((a, b) => (a.message.id < b.message.id ? a : b));
    if (first.message.stream_id === null || !(flags.get(first.message.id)! & MENTION_FLAGS)) continue;
    const channel = stoa.channels.byId(first.message.stream_id);
    const context = stoa.email.topicContext(first.message);
    const received = stoa.messages.flagsOfMany(userId, context.map((message) => message.id));
    for (const message of context) {
      if (received.has(message.id) || channel?.history_public_to_subscribers === 1) list.push({ message, trigger: undefined, mentionedGroupId: null });
    }
  }
  const newest = (list: Waiting[]) => Math.max(...list.map((w) => w.message.id));
  return [...conversations.values()].sort((a, b) => newest(a) - newest(b)).map((list) => conversationMail(stoa, user, list));
}

/** What a conversation is called in an email, and the link that opens it in the web client. */
function conversationOf(stoa: Stoa, user: UserRow, message: MessageRow): { name: string; link: string; direct: boolean; group: boolean } {
  if (message.stream_id === null) {
    const recipient = stoa.messages.recipient(message.recipient_id)!;
    const others = directParticipants(stoa, message.recipient_id).filter((person) => person.id !== user.id);
    // A one-on-one conversation is stored under one of its two people; the other is the sender.
    const people = recipient.type === RecipientType.PERSONAL ? [stoa.users.byId(message.sender_id)!] : others;
    const group = people.length > 1;
    const ids = people.map((person) => person.id).join(',');
    const suffix = group ? 'group' : narrowSlug(people[0]?.full_name ?? '');
    return { name: people.map((person) => person.full_name).join(', '), link: `${stoa.site}/#narrow/dm/${ids}-${suffix}`, direct: true, group };
  }
  const channel = stoa.channels.byId(message.stream_id)!;
  const link = `${stoa.site}/#narrow/channel/${channel.id}-${narrowSlug(channel.name)}/topic/${narrowSlug(message.topic)}`;
  return { name: `#${channel.name} > ${message.topic}`, link, direct: false, group: false };
}

/** Why the email came, in one sentence. */
function reason(stoa: Stoa, waiting: readonly Waiting[], conversation: { name: string; direct: boolean; group: boolean }): string {
  if (conversation.direct) {
    return conversation.group ? `You have unread direct messages in your conversation with ${conversation.name}.` : `You have unread direct messages from ${conversation.name}.`;
  }
  const triggers = new Set(waiting.map((w) => w.trigger));
  if (triggers.has('mention')) {
    const personal = waiting.some((w) => w.trigger === 'mention' && w.mentionedGroupId === null);
    const groupId = waiting.find((w) => w.mentionedGroupId !== null)?.mentionedGroupId;
    const group = !personal && groupId != null ? stoa.groups.byId(groupId) : undefined;
    return group ? `@${group.name} was mentioned in ${conversation.name}.` : `You were mentioned in ${conversation.name}.`;
  }
  if (triggers.has('wildcard_mention')) return `Everyone was mentioned in ${conversation.name}.`;
  if (triggers.has('alert_word')) return `A message in ${conversation.name} has one of your alert words.`;
  if (triggers.has('followed_topic')) return `There are new messages in ${conversation.name}, a topic you follow.`;
  return `There are new messages in ${conversation.name}, a channel you get email notifications for.`;
}

/** A message's HTML as an email can show it: links that work from outside, no inline previews of uploads. */
function emailHtml(stoa: Stoa, rendered: string): string {
  return rendered
    .replace(/<div class="message_inline_image">[\s\S]*?<\/div>/g, '')
    .replace(/\b(href|src)="(\/(?!\/)[^"]*|#narrow\/[^"]*)"/g, (_m, attribute: string, url: string) => `${attribute}="${stoa.site}${url.startsWith('#') ? '/' : ''}${url}"`);
}

function conversationMail(stoa: Stoa, user: UserRow, waiting: Waiting[]): OutgoingMail {
  waiting.sort((a, b) => a.message.id - b.message.id);
  const settings = userSettings(stoa, user);
  const organization = stoa.realm.get()!.name;
  const conversation = conversationOf(stoa, user, waiting[0].message);
  const why = reason(stoa, waiting, conversation);
  const byUser = settings.message_content_in_email_notifications !== true;
  const byRealm = realmSetting(stoa, 'realm_message_content_allowed_in_email_notifications') !== true;
  const unsubscribe = unsubscribeLink(stoa, user.id);
  const settingsLink = `${stoa.site}/#settings/notifications`;

  const text: string[] = [why];
  const html: string[] = [`<p>${escapeHtml(why)}</p>`];
  if (byUser || byRealm) {
    const who = byUser ? 'you turned off message content in email notifications' : 'the organization does not allow message content in email notifications';
    const note = `The messages are not shown here because ${who}.`;
    text.push(note);
    html.push(`<p>${escapeHtml(note)}</p>`);
  } else {
    for (const { message } of waiting) {
      const sender = stoa.users.byId(message.sender_id)!.full_name;
      const content = message.content.replace(/(^|[\s(])\/user_uploads\//g, `$1${stoa.site}/user_uploads/`);
      text.push(`${sender}:\n${content.split('\n').map((line) => `> ${line}`).join('\n')}`);
      html.push(`<p><b>${escapeHtml(sender)}</b>:</p>\n<blockquote>${emailHtml(stoa, message.rendered_content)}</blockquote>`);
    }
  }
  text.push(`Open the conversation:\n${conversation.link}`);
  html.push(`<p><a href="${escapeHtml(conversation.link)}">Open the conversation in ${escapeHtml(organization)}</a></p>`);
  const footer = 'You get this email because you were away when these messages came.';
  text.push(`--\n${footer}\nChoose which messages send email: ${settingsLink}\nUnsubscribe from these emails: ${unsubscribe}`);
  html.push(
    `<hr>\n<p>${escapeHtml(footer)} <a href="${escapeHtml(settingsLink)}">Choose which messages send email</a>, or ` +
      `<a href="${escapeHtml(unsubscribe)}">unsubscribe from these emails</a>.</p>`,
  );

  // Zulip's realm_name_in_email_notifications_policy: 1 automatic (only for people in several
  // organizations, which a Stoa server, with one, never has), 2 always, 3 never.
  const subjectName = conversation.direct ? (conversation.group ? `Group direct messages with ${conversation.name}` : `Direct messages from ${conversation.name}`) : conversation.name;
  const subject = settings.realm_name_in_email_notifications_policy === 2 ? `${subjectName} [${organization}]` : subjectName;
  return {
    from: { name: `${organization} notifications`, address: senderAddress(stoa.config.mailFrom, stoa.site) },
    to: user.delivery_email,
    subject,
    text: `${text.join('\n\n')}\n`,
    html: `${html.join('\n')}\n`,
    headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
